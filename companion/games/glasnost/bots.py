"""Glasnost bots by faction, playing from their own seat's view only.

Every bot reads the public record of votes: who sat at each voted crisis,
how many Yes came out, and who was purged by two (most likely the one who
voted against the majority). From it each seat gets a *lean*, positive
toward reform; a bot also remembers its own votes, as a player does, and
takes them out of the counts. No table talk is modelled.

- Seats: around open crises whose Yes or No policy is on the bot's card,
  preferring crises about to be full.
- Crisis votes: for the policy on the card; with no stake, the faction's
  colour (Reformists Yes, Repressionists No). A Nationalist hides, as the
  strategy text advises: it picks one colour and votes only that colour in
  its first votes, then votes for its card.
- Purges: the fellow voter whose lean is furthest from the majority (the
  likely dissident), so that the majority's two purges agree.
- Coups: Gorbachev or Kryuchkov tries one only while a coup token is left
  (a failure with none left hands the Nationalists the win), once half the
  crises are closed (enough votes on record to judge), and not when the
  policies already give it the end-game win; it names the seats leaning
  most its way, as many as it expects allies (the mean number of its
  faction's two-policy cards among the N-2 drawn). The
  coup vote follows the rule's table: Yes exactly when "in the coup" and
  "of the coup's colour" agree.
- Non-holders answer the all-seat coup question "no"; it is ignored anyway.
"""

from __future__ import annotations

import random
from typing import Any

from companion.games import Choice, Decision, Game
from companion.games.glasnost.board import NO, REFORM, REPRESS, YES
from companion.games.glasnost.rules import (
    DECLINE,
    DONE,
    GORBACHEV,
    KRYUCHKOV,
    LEFT,
    NATIONALISTS,
    REFORMISTS,
    RIGHT,
    faction_of,
)

#: how many of its first votes a Nationalist casts for its cover colour
COVER_VOTES = 2


def leans(
    view: dict[str, Any], seat: int | None = None, mine: dict[int, str] | None = None
) -> dict[int, float]:
    """Each seat's lean toward reform, from vote counts and purges.

    ``mine`` (crisis -> the vote ``seat`` cast there) takes the bot's own
    vote out of the counts it took part in, which makes them much sharper.
    """
    tally = Leans(view["players"], seat, mine or {})
    tally.read(view["history"])
    return tally.lean


class Leans:
    """``leans`` read as the history grows: each entry once, in order, so a bot's leans cost
    only the entries since it last looked (the sums are the same, term for term). Exact
    because a seat's own vote at a crisis is in ``mine`` before the vote is on record."""

    def __init__(self, players: int, seat: int | None, mine: dict[int, str]) -> None:
        self.lean = dict.fromkeys(range(players), 0.0)
        self.seat = seat
        self.mine = mine
        self.read_entries = 0
        self.last: dict[str, Any] = {}  # the last vote read

    def read(self, history: list[dict[str, Any]]) -> None:
        seat, mine, lean = self.seat, self.mine, self.lean
        last = self.last
        for h in history[self.read_entries :]:
            if h["event"] == "vote":
                last = h
                own = mine.get(h["crisis"]) if seat in h["voters"] else None
                # Everyone's share: +1 all Yes ... -1 all No; knowing our own vote, the two
                # others' share is exact: +1, 0 or -1.
                share = (2 * h["yes"] - 3) / 3 if own is None else h["yes"] - (own == YES) - 1.0
                for v in h["voters"]:
                    if v != seat or own is None:
                        lean[v] += share
            elif h["event"] == "purge" and h["purged"] is not None and last:
                majority_yes = last["yes"] >= 2
                own = mine.get(last["crisis"]) if seat in last["voters"] else None
                if own is not None and (own == YES) != majority_yes:
                    continue  # this seat was the dissident: the others' votes are known
                # The purged one most likely voted against the majority.
                lean[h["purged"]] += -1.0 if majority_yes else 1.0
        self.last = last
        self.read_entries = len(history)


class GlasnostBot:
    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self.votes_cast = 0
        self.cover: str | None = None
        self.mine: dict[int, str] = {}  # crisis -> this seat's own vote
        # What never changes in a game, worked out once: the crises a board seat touches
        # (with its connected seat), and the policies of a crisis that the card wants.
        self._touched: dict[int, tuple[int, ...]] = {}
        self._wanted: dict[int, tuple[tuple[str, str], ...]] = {}
        self._tally: Leans | None = None  # the leans read so far

    # -- what the card says ---------------------------------------------------
    def _card(self, view: dict[str, Any]) -> tuple[str, str, dict[str, str]]:
        card = view["objective"]
        return card["name"], card["faction"], card["policies"]

    def _colour(self, view: dict[str, Any]) -> str:
        _, faction, wants = self._card(view)
        if faction == REFORMISTS:
            return REFORM
        if faction != NATIONALISTS:
            return REPRESS
        if self.cover is None:
            self.cover = self.rng.choice(sorted(set(wants.values())))
        return self.cover

    def _wants(self, view: dict[str, Any], crisis: dict[str, Any]) -> tuple[tuple[str, str], ...]:
        """The policies of a crisis (domain, direction) that this card wants, once a game."""
        _, _, wants = self._card(view)
        wanted = self._wanted[crisis["space"]] = tuple(
            (side["domain"], side["direction"])
            for side in (crisis["yes"], crisis["no"])
            if wants.get(side["domain"]) == side["direction"]
        )
        return wanted

    # -- decisions ----------------------------------------------------------------
    def choose(self, view: dict[str, Any], decision: Decision) -> Choice:
        kind = decision.kind
        if kind == "peek":
            return "seen"  # the card is in the view already
        if kind == "sit":
            return self._sit(view, decision)
        if kind == "crisis_vote":
            return self._vote(view)
        if kind == "purge":
            return self._purge(view)
        if kind == "coup_offer":
            return self._offer(view)
        if kind == "coup_name":
            return self._name(view, decision)
        if kind == "coup_vote":
            return self._coup_vote(view)
        return self.rng.choice(decision.options)

    def _sit(self, view: dict[str, Any], decision: Decision) -> Choice:
        crises, policies, known = view["crises"], view["policies"], self._wanted

        def score(place: int) -> tuple[float, float]:
            total = 0.0
            for c in self._touched.get(place) or self._touching(view, place):
                crisis = crises[c]
                if crisis["closed"]:
                    continue
                players = crisis["players"]
                filled = len(players) - players.count(None)
                # The stake: how much the crisis matters to this card, a wanted policy not
                # yet in place counting most.
                wanted = known.get(c)
                if wanted is None:
                    wanted = self._wants(view, crisis)
                stake = 0.0
                for domain, direction in wanted:
                    stake += 0.4 if policies[domain] == direction else 1.0
                total += stake * (1.5 if filled == 2 else 1.0) + 0.1
            return total, self.rng.random()

        return max(decision.options, key=lambda p: score(int(p)))

    def _touching(self, view: dict[str, Any], place: int) -> tuple[int, ...]:
        """The crises a seat at ``place`` takes part in (with the connected seat), in the
        order a set of them gives (the scores add up in that order)."""
        seats = view["board_seats"]
        touched = set(seats[place]["crises"])
        if seats[place]["connected"] is not None:
            touched |= set(seats[seats[place]["connected"]]["crises"])
        self._touched[place] = tuple(touched)
        return self._touched[place]

    def _vote(self, view: dict[str, Any]) -> str:
        choice = self._pick_vote(view)
        self.mine[view["crisis"]] = choice
        return choice

    def _leans(self, view: dict[str, Any]) -> dict[int, float]:
        history = view["history"]
        tally = self._tally
        if tally is None or tally.read_entries > len(history):  # a first look, or a new game
            tally = self._tally = Leans(view["players"], self.seat, self.mine)
        tally.read(history)
        return dict(tally.lean)  # a copy: the tally goes on

    def _pick_vote(self, view: dict[str, Any]) -> str:
        crisis = view["crises"][view["crisis"]]
        _, faction, wants = self._card(view)
        self.votes_cast += 1
        colour = self._colour(view)
        if faction == NATIONALISTS and self.votes_cast <= COVER_VOTES:
            return YES if colour == REFORM else NO
        want_yes = wants.get(crisis["yes"]["domain"]) == REFORM
        want_no = wants.get(crisis["no"]["domain"]) == REPRESS
        if want_yes and want_no:
            # Both on the card: the one not yet in place.
            yes_done = view["policies"][crisis["yes"]["domain"]] == REFORM
            return NO if yes_done else YES
        if want_yes:
            return YES
        if want_no:
            return NO
        return YES if colour == REFORM else NO

    def _purge(self, view: dict[str, Any]) -> str:
        last = view["last_vote"]
        majority_reform = last.count(YES) >= 2
        lean = self._leans(view)
        voters = view["voters"]
        n = view["players"]
        others = [v for v in voters if v != self.seat]
        left = min(others, key=lambda v: (v - self.seat) % n)
        right = next(v for v in others if v != left)

        def dissent(v: int) -> tuple[float, float]:
            return (-lean[v] if majority_reform else lean[v], self.rng.random())

        target = max((left, right), key=dissent)
        return LEFT if target == left else RIGHT

    def _allies(self, view: dict[str, Any]) -> list[int]:
        """The seats this leader would name: leaning its way, as many as it expects allies."""
        name, _, _ = self._card(view)
        sign = 1.0 if name == GORBACHEV else -1.0
        lean = self._leans(view)
        expected = min(3, round((view["players"] - 2) * 3 / 12))
        ranked = sorted(
            (p for p in range(view["players"]) if p != self.seat and sign * lean[p] > 0),
            key=lambda p: (-sign * lean[p], p),
        )
        return ranked[:expected]

    def _offer(self, view: dict[str, Any]) -> str:
        """S5: a leader offered a coup names himself when he wants one; all others say no."""
        name, _, wants = self._card(view)
        if name not in view["asking"] or name not in (GORBACHEV, KRYUCHKOV):
            return DECLINE
        if view["coup_tokens"]["left"] == 0:
            return DECLINE  # a failure now would hand the Nationalists the win
        if all(view["policies"][d] == v for d, v in wants.items()):
            return DECLINE  # the end game already gives the win: no need to risk it
        closed = sum(c["closed"] for c in view["crises"])
        return name if 2 * closed >= len(view["crises"]) else DECLINE

    def _name(self, view: dict[str, Any], decision: Decision) -> Choice:
        for p in self._allies(view):
            if p in decision.options:
                return p
        return DONE

    def _coup_vote(self, view: dict[str, Any]) -> str:
        leader = view["coup_leader"]
        in_coup = self.seat == leader["seat"] or self.seat in view["named"]
        my_colour = faction_of(leader["card"]) == self._card(view)[1]
        return YES if in_coup == my_colour else NO


def make_bots(game: Game, rng: random.Random) -> list[GlasnostBot]:
    return [GlasnostBot(seat, rng) for seat in range(game.players)]
