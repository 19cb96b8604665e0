"""Kolkhoz (4 players): five years of tricks, jobs to fill, and a plot to hide from requisition.

Rulings applied (docs/rules/kolkhoz.md): K1 four players, five years, the planner
rotates to the left and declares trump after the job cards are revealed; K2
worker values 6-10, J 11, Q 12, K 13, the trump Jack adds 0, job cards Ace 1
to 5; K3 five cards each while the deck allows, else as many as it can
equally, one trick fewer than the hand size; K4 non-trump workers go to their
own suit's job, trump workers to any job, completion at 40 at once, nothing
more counts after; K5 requisition of each failed job, rewards included among
the candidates; K6 highest plot total wins, ties share.

Where the text is silent this engine decides (the box and the tests agree):

- The first planner is seat 1 (seat 0 in code); the planner rotates to seat + 1.
- Each year the planner deals first (starting at their left), then reveals the
  four job cards and declares trump, so the planner sees their hand when
  choosing: the text deals in the setup before the planning phase.
- A leader who holds only trump may lead it even before trump has been played;
  any trump played (led or not) counts as "played" for the rest of the year.
- Trick play is driven by the cards: the options of ``play`` are the card
  strings ("QH", "10S") the seat may legally play, so a real table can report
  the physical cards. Those options tell what is in a hand, so the public
  view's ``waiting`` leaves them out (``options`` None); the seat to play
  finds them in its own view.
- Assignment: a non-trump card has one job only, so it is assigned at once;
  the brigadier decides for each trump card in the order it was played, among
  all four jobs (a completed one included: it then counts for nothing, K4).
  Hours stop adding once a job is completed.
- The last card of each hand goes to the plot face down by itself: a hand of h
  cards plays h - 1 tricks (K3), so it is always forced.
- The Информатор makes every player reveal the plot cards of that job's suit
  (2d), not the whole plot (2b's looser wording); the Пьяница, when present,
  goes north and nobody reveals, whatever else worked there.
- Requisition takes the failed jobs in suit order (hearts, diamonds, clubs,
  spades); a revealer with no card of that suit sends nothing. Job cards of
  failed jobs are set aside ("unclaimed").
- End of year: the worker deck and the workers at the jobs (not sent north)
  are shuffled together into the next year's deck.
- Scoring: every plot card at its K2 value (workers 6-13, job cards 1-5),
  hidden and shown alike; cards sent north count for nobody.

Two ways to deal (option ``deal``):

- ``"box"`` (the default, for bots and the simulator): the box shuffles and
  deals the workers and knows every hand.
- ``"cards"``: a real table with real cards, the box as the planner's clerk.
  The box still holds and shuffles the four job piles and reveals the year's
  jobs; the planner shuffles and deals the workers, and the box says how
  many each (K3: it counts the workers still in play, knowing what went
  north and what lies in the plots). It never knows a hand. Each trick is
  entered after it is played, by the seat that led it (from the second
  trick on that is the last brigadier, who already holds the box): for each
  card in play order the suit (``suit``) then the card (``card``, among the
  workers of that suit). The box works out the winner itself (no press
  spent, no mistake made) and the trick then runs through the same code as
  a dealt game: winner, assignment, hours, completion. At the end of the
  year each seat that must reveal a failed job's suit enters those plot
  cards one by one (``reveal``, "none" when done), and the box says what
  goes north (the same requisition code). At the end of the game each seat
  enters its hidden plot cards (``suit`` then ``card``) so that the scores
  are the real ones.
- An entry that cannot be right is refused with the reason: a card already
  placed (played this year, face up in a plot, sent north), a suit a seat
  showed it had none of (it did not follow that suit earlier in the year),
  a seat that led trump before it was played holding another suit. Beyond
  these the box accepts an entry only if some deal of the unseen cards fits
  everything entered so far (a transport check on suit counts, Hall's
  condition over the 15 sets of suits), so the entries can never paint the
  table into a corner. It does not carry a year's voids into the plot card
  kept that year (a relaxation: it checks plot cards only against what their
  owner revealed since), so it may accept a plot card a perfect clerk would
  refuse; it never refuses a true one.
- So that a seed reveals the same job cards in both modes (the demo's twin
  game, the tests), the clerk draws the worker shuffle it never uses.
"""

from __future__ import annotations

import functools
from typing import Any

from companion.ballot import shuffled
from companion.games.base import Choice, Decision, Game, IllegalMove, Option, Result
from companion.games.frozen import FrozenDict, FrozenList, freeze
from companion.games.kolkhoz import clerk
from companion.games.kolkhoz.cards import (
    JOB_RANKS,
    JOBS,
    LETTER,
    SUITS,
    THRESHOLD,
    VALUE,
    WORKERS,
    YEARS,
    KolkhozState,
    card_order,
    hand_size,
    hours_of,
    is_card,
    lead_suit,
    legal_plays,
    suit_of,
    trick_winner,
    value_of,
)


class Kolkhoz(Game):
    name = "kolkhoz"
    min_players = 4
    max_players = 4
    OPTIONS = {"deal": Option("cards", ("cards", "box"))}
    outcomes = ("single", "shared")
    REFUSALS = {
        "not_held": ("", "seat {seat} does not hold {card}"),
        "follow": ("2b", "players follow suit if able: seat {seat} holds {suit}, the suit led"),
        "trump_lead": (
            "2b",
            "players may not lead trump ({suit}) until it has been played, "
            "and seat {seat} holds other suits",
        ),
        "not_a_card": ("", "{choice} is not a worker card: cards are written like 6H, 10S, QD, KC"),
        "assign": ("K4", "K4: the trump worker {card} goes to a job: {suits}, not {choice}"),
        "trump": ("K1", "K1: the planner declares one of the four suits as trump, not {choice}"),
        "not_a_suit": ("", "a suit is one of {suits}, not {choice}"),
        "suit_placed": ("", "every {suit} worker is placed already: none can be played"),
        "plot_suit": ("", "seat {seat} showed no {suit} left in the plot: no deal fits"),
        "trump_only": (
            "2b",
            "seat {seat} led trump in trick {trick} before it was played: no other suit left",
        ),
        "void": (
            "2b",
            "follow suit: seat {seat} did not follow {suit} in trick {trick}, so holds none",
        ),
        "early_trump": (
            "2b",
            "no trump lead before trump is played: seat {seat} holds another suit",
        ),
        "must_follow": (
            "2b",
            "follow suit: seat {seat} must hold {suit}, no deal fits otherwise",
        ),
        "no_deal": ("", "seat {seat} cannot hold {suit}: no deal of the unseen cards fits"),
        "plot_more": (
            "",
            "seat {seat}'s plot must hold another of its cards: no deal fits without",
        ),
        "went_north": ("", "{card} is seen twice: it went north"),
        "in_plot": ("", "{card} is seen twice: it is in seat {seat}'s plot"),
        "this_year": ("", "{card} is seen twice: it was played this year ({job})"),
        "in_trick": ("", "{card} is seen twice: it was played in this trick by seat {seat}"),
        "entry_suit": ("", "the suit entered is {suit}: Back to change it"),
        "job_suit": ("K5", "K5: only {suit} cards are revealed for {job}"),
        "plot_full": ("", "seat {seat}'s plot cannot hold another {suit} card"),
    }
    FORMAT = 2  # 2: tricks won per seat this year (``won``)
    State = KolkhozState

    s: KolkhozState

    @functools.cached_property
    def clerk(self) -> bool:
        """True at a real table: the players deal real cards and the box only keeps the book."""
        return bool(self.options["deal"] == "cards")

    def setup(self) -> None:
        n = self.players
        deck = shuffled(WORKERS, self.rng)  # drawn in both modes: the same seed, the same jobs
        self.s = KolkhozState(
            deck=[] if self.clerk else deck,
            piles={
                suit: shuffled([r + LETTER[suit] for r in JOB_RANKS], self.rng) for suit in SUITS
            },
            plots=[{"hidden": [], "shown": []} for _ in range(n)],
            slots=[[] for _ in range(n)] if self.clerk else [],
        )
        self._start_year()

    def _start_year(self) -> None:
        """Deal (K3), reveal one job card a suit, and wait for the planner's trump."""
        s = self.s
        n = self.players
        s.hand_size = hand_size(self._deck_count(), n)
        s.tricks = max(s.hand_size - 1, 0)
        s.hands = [[] for _ in range(n)]
        if self.clerk:
            s.held = [s.hand_size] * n
            s.suits_left = [list(SUITS) for _ in range(n)]
            s.voids = [{} for _ in range(n)]
            s.trump_only = [None] * n
        else:
            for i in range(s.hand_size * n):
                s.hands[(s.planner + 1 + i) % n].append(s.deck.pop())
            for hand in s.hands:
                hand.sort(key=card_order)
        s.jobs = {
            suit: {
                "reward": s.piles[suit].pop(),
                "hours": 0,
                "done": False,
                "by": None,
                "workers": [],
            }
            for suit in SUITS
        }
        s.trump = None
        s.trump_broken = False
        s.last_trick = None  # last year's is in the history
        s.tricks_played = 0
        s.trick = []
        s.to_assign = []
        s.brigadier = None
        s.brigadiers = []
        s.won = [0] * n
        s.leader = s.turn = (s.planner + 1) % n  # the player to the planner's left leads
        s.phase = "trump"

    # -- facts derived from the state ---------------------------------------------
    @property
    def lead_suit(self) -> str | None:
        return lead_suit(self.s)

    def _legal(self, seat: int) -> list[str]:
        s = self.s
        return legal_plays(s.hands[seat], self.lead_suit, s.trump, s.trump_broken)

    def _deck_count(self) -> int:
        """Workers in the worker deck now: neither in a hand, a plot, a trick, a job nor north."""
        s = self.s
        if not self.clerk:
            return len(s.deck)
        placed = sum(1 for card in clerk.places(self.s) if card in WORKERS)
        elsewhere = placed + sum(s.held) + sum(len(x) for x in s.slots)
        return len(WORKERS) - elsewhere

    # -- the contract ------------------------------------------------------------
    def _decide(self) -> Decision | None:
        s = self.s
        if s.phase == "trump":
            return Decision("trump", (s.planner,), SUITS)
        if s.phase == "play" and not self.clerk:
            return Decision("play", (s.turn,), tuple(self._legal(s.turn)))
        if s.phase in ("play", "plot"):
            seat = s.leader if s.phase == "play" else clerk.plot_seat(self.s)
            if s.entry is None:
                return Decision("suit", (seat,), tuple(clerk.entry_suits(self.s)))
            return Decision("card", (seat,), tuple(clerk.unseen(self.s, s.entry)))
        if s.phase == "assign":
            assert s.brigadier is not None
            return Decision("assign", (s.brigadier,), SUITS)
        if s.phase == "reveal":
            return Decision("reveal", (s.revealing[0],), tuple(clerk.reveal_options(self.s)))
        return None

    def _refusal(self, decision: Decision, seat: int, choice: Choice) -> IllegalMove:
        s = self.s
        kind = decision.kind
        if kind == "play" and is_card(choice):
            card = str(choice)
            if card not in s.hands[seat]:
                return self.refused("not_held", seat=seat + 1, card=card)
            lead = self.lead_suit
            if lead is not None:
                return self.refused("follow", seat=seat + 1, suit=lead)
            return self.refused("trump_lead", suit=str(s.trump), seat=seat + 1)
        if kind in ("card", "reveal") and is_card(choice):
            return self._card_refusal(decision, str(choice))
        if kind == "reveal" and choice == "none":
            return self.refused("plot_more", seat=s.revealing[0] + 1)
        if kind in ("play", "card", "reveal"):  # a hand's options stay out of the message
            return self.refused("not_a_card", choice=repr(choice))
        if kind == "assign":
            card, suits = s.to_assign[0], ", ".join(SUITS)
            return self.refused("assign", card=card, suits=suits, choice=repr(choice))
        if kind == "trump":
            return self.refused("trump", choice=repr(choice))
        if kind == "suit" and choice in SUITS:
            return self._suit_refusal(str(choice))
        if kind == "suit":
            return self.refused("not_a_suit", suits=", ".join(SUITS), choice=repr(choice))
        return super()._refusal(decision, seat, choice)

    def _suit_refusal(self, suit: str) -> IllegalMove:
        s = self.s
        if not clerk.unseen(self.s, suit):
            return self.refused("suit_placed", suit=suit)
        if s.phase == "plot":
            return self.refused("plot_suit", seat=clerk.plot_seat(self.s) + 1, suit=suit)
        seat = s.turn
        lead = self.lead_suit
        if suit != s.trump and (trick := s.trump_only[seat]) is not None:
            return self.refused("trump_only", seat=seat + 1, trick=trick)
        if suit in s.voids[seat]:
            return self.refused("void", seat=seat + 1, suit=suit, trick=s.voids[seat][suit])
        if lead is None and suit == s.trump and not s.trump_broken:
            return self.refused("early_trump", seat=seat + 1)
        if lead is not None and suit != lead:
            return self.refused("must_follow", seat=seat + 1, suit=lead)
        return self.refused("no_deal", seat=seat + 1, suit=suit)

    def _card_refusal(self, decision: Decision, card: str) -> IllegalMove:
        s = self.s
        where = clerk.places(self.s).get(card)
        if where is not None:
            code, facts = where
            return self.refused(code, card=card, **facts)
        if decision.kind == "card" and s.entry is not None and suit_of(card) != s.entry:
            return self.refused("entry_suit", suit=s.entry)
        if decision.kind == "reveal" and s.requisition is not None:
            job = s.requisition["job"]
            if suit_of(card) != job:
                return self.refused("job_suit", suit=job, job=JOBS[job][0])
            return self.refused("plot_full", seat=s.revealing[0] + 1, suit=job)
        return super()._refusal(decision, 0, card)

    def _apply(self, seat: int, choice: Choice) -> None:
        s = self.s
        if s.phase == "trump":
            s.trump = str(choice)
            s.phase = "play"
        elif s.phase == "play" and not self.clerk:
            self._play(seat, str(choice))
        elif s.phase in ("play", "plot") and s.entry is None:
            s.entry = str(choice)
        elif s.phase == "play":
            s.entry = None
            self._play(s.turn, str(choice))
        elif s.phase == "plot":
            s.entry = None
            self._plot_card(clerk.plot_seat(self.s), str(choice))
        elif s.phase == "assign":
            self._assign(s.to_assign.pop(0), str(choice))
            if not s.to_assign:
                self._finish_trick()
        elif s.phase == "reveal":
            self._reveal_entry(str(choice))

    def _play(self, seat: int, card: str) -> None:
        s = self.s
        n = self.players
        if self.clerk:
            s.suits_left[seat] = clerk.after_play(self.s, seat, suit_of(card))
            lead = self.lead_suit
            if lead is not None and suit_of(card) != lead:
                s.voids[seat].setdefault(lead, s.tricks_played + 1)
            if lead is None and suit_of(card) == s.trump and not s.trump_broken:
                s.trump_only[seat] = s.tricks_played + 1
            s.held[seat] -= 1
        else:
            s.hands[seat].remove(card)
        s.trick.append({"seat": seat, "card": card})
        if suit_of(card) == s.trump:
            s.trump_broken = True
        if len(s.trick) < n:
            s.turn = (seat + 1) % n
            return
        cards = [p["card"] for p in s.trick]
        winner = s.trick[trick_winner(cards, suit_of(cards[0]), s.trump)]["seat"]
        s.brigadier = winner
        if winner not in s.brigadiers:
            s.brigadiers = sorted([*s.brigadiers, winner])
        if s.won is not None:
            s.won[winner] += 1
        # K4: a non-trump worker has one job only, its own suit's.
        for card in cards:
            if suit_of(card) != s.trump:
                self._assign(card, suit_of(card))
        s.to_assign = [c for c in cards if suit_of(c) == s.trump]
        if s.to_assign:
            s.phase = "assign"
        else:
            self._finish_trick()

    def _assign(self, card: str, suit: str) -> None:
        """K4: the worker joins the job; at 40 hours the job card goes to the brigadier's plot."""
        s = self.s
        job = s.jobs[suit]
        job["workers"].append(card)
        self.__dict__.pop("_jobs_view_", None)  # the jobs' view is made anew (``_jobs_view``)
        if job["done"]:
            return
        job["hours"] += hours_of(card, s.trump)
        if job["hours"] >= THRESHOLD:
            assert s.brigadier is not None
            job["done"] = True
            job["by"] = s.brigadier
            s.plots[s.brigadier]["shown"].append(job["reward"])
            self._plots_changed()

    def _finish_trick(self) -> None:
        s = self.s
        s.last_trick = {"plays": [dict(p) for p in s.trick], "winner": s.brigadier}
        s.trick = []
        s.tricks_played += 1
        assert s.brigadier is not None
        s.leader = s.turn = s.brigadier  # the brigadier leads the next trick
        if s.tricks_played < s.tricks:
            s.phase = "play"
        else:
            self._end_year()

    def _end_year(self) -> None:
        """The last card to the plot, then the requisitions (K5) in suit order."""
        s = self.s
        for seat, hand in enumerate(s.hands):
            if self.clerk:  # K3: forced, one card left, unseen
                s.slots[seat].extend(list(SUITS) for _ in range(s.held[seat]))
                s.held[seat] = 0
                s.suits_left[seat] = []
            s.plots[seat]["hidden"].extend(hand)  # K3: forced, one card left
            hand.clear()
        self._plots_changed()
        s.closing = {
            "year": s.year,
            "planner": s.planner,
            "trump": s.trump,
            "hand_size": s.hand_size,
            "brigadiers": list(s.brigadiers),
            "won": None if s.won is None else list(s.won),
            "completed": {suit: s.jobs[suit]["by"] for suit in SUITS if s.jobs[suit]["done"]},
            # as they stood before requisition
            "jobs": {
                suit: {**job, "workers": list(job["workers"])} for suit, job in s.jobs.items()
            },
            "last_trick": s.last_trick,
            "requisitions": [],
        }
        s.failed = [suit for suit in SUITS if not s.jobs[suit]["done"]]
        self._requisitions()

    def _requisitions(self) -> None:
        """Run the requisitions in suit order; stop where the table must enter a plot's cards."""
        s = self.s
        assert s.closing is not None
        while s.failed:
            if s.requisition is None:
                s.requisition = self._requisition_start(s.failed[0])
                s.revealing = list(s.requisition["revealers"])
            suit = s.requisition["job"]
            while s.revealing:
                seat = s.revealing[0]
                if self.clerk and clerk.may_hold(self.s, seat, suit):
                    s.phase = "reveal"
                    return
                if not self.clerk:
                    self._reveal(seat, [c for c in s.plots[seat]["hidden"] if suit_of(c) == suit])
                self._requisition_north(seat)
                s.revealing.pop(0)
            s.closing["requisitions"].append(s.requisition)
            s.requisition = None
            s.failed.pop(0)
        self._close_year()

    def _requisition_start(self, suit: str) -> dict[str, Any]:
        """K5: the Jack goes north if it worked here; else who reveals (everyone with the Queen)."""
        s = self.s
        job = s.jobs[suit]
        trump = s.trump
        assert trump is not None
        special = {r: r + LETTER[trump] in job["workers"] for r in ("J", "Q", "K")}
        record: dict[str, Any] = {
            "job": suit,
            "jack": special["J"],
            "queen": special["Q"],
            "king": special["K"],
            "revealers": [],
            "revealed": [],
            "north": [],
        }
        if special["J"]:
            jack = "J" + LETTER[trump]
            job["workers"].remove(jack)
            self.__dict__.pop("_jobs_view_", None)  # the jobs' view is made anew
            s.north.append(jack)
            record["north"].append({"seat": None, "card": jack})
            return record
        record["revealers"] = list(range(self.players)) if special["Q"] else list(s.brigadiers)
        return record

    def _reveal(self, seat: int, cards: list[str]) -> None:
        """The seat's hidden cards of the failed job's suit, face up (2d)."""
        s = self.s
        assert s.requisition is not None
        plot = s.plots[seat]
        plot["hidden"] = [c for c in plot["hidden"] if c not in cards]
        self._plots_changed()
        if cards:
            s.requisition["revealed"].append({"seat": seat, "cards": cards})

    def _requisition_north(self, seat: int) -> None:
        """K5: the plot's highest card of the suit goes north; the two highest with the King."""
        s = self.s
        record = s.requisition
        assert record is not None
        suit = record["job"]
        plot = s.plots[seat]
        self._plots_changed()
        for r in record["revealed"]:
            if r["seat"] == seat:
                r["cards"] = sorted(r["cards"], key=card_order)
                plot["shown"].extend(r["cards"])
        candidates = sorted(
            (c for c in plot["shown"] if suit_of(c) == suit), key=value_of, reverse=True
        )
        for card in candidates[: 2 if record["king"] else 1]:
            plot["shown"].remove(card)
            s.north.append(card)
            record["north"].append({"seat": seat, "card": card})

    def _reveal_entry(self, choice: str) -> None:
        """The clerk: one revealed plot card entered, or "none" when the seat has shown them all."""
        s = self.s
        record = s.requisition
        assert record is not None
        suit, seat = record["job"], s.revealing[0]
        if choice != "none":
            slots = [x for x in s.slots[seat] if suit in x]
            s.slots[seat].remove(min(slots, key=len))
            self._plots_changed()
            mine = next((r for r in record["revealed"] if r["seat"] == seat), None)
            if mine is None:
                record["revealed"].append({"seat": seat, "cards": [choice]})
            else:
                mine["cards"].append(choice)
            if clerk.may_hold(self.s, seat, suit):
                return  # more may follow
        s.slots[seat] = [[x for x in slot if x != suit] for slot in s.slots[seat]]
        self._plots_changed()
        self._requisition_north(seat)
        s.revealing.pop(0)
        self._requisitions()

    def _plot_card(self, seat: int, card: str) -> None:
        """The clerk, at the end: a hidden plot card entered for the final count."""
        s = self.s
        fits = [x for x in s.slots[seat] if suit_of(card) in x]
        s.slots[seat].remove(min(fits, key=len))
        s.plots[seat]["hidden"].append(card)
        self._plots_changed()
        if not any(s.slots):
            s.phase = "over"

    def _close_year(self) -> None:
        """The reshuffle, the next planner, or the end of the Пятилетка."""
        s = self.s
        assert s.closing is not None
        s.history.append(s.closing)
        s.closing = None
        if not self.clerk:  # at a real table the planner shuffles the real cards
            workers: list[str] = list(s.deck)
            for suit in SUITS:
                workers.extend(s.jobs[suit]["workers"])
            s.deck = shuffled(workers, self.rng)
        for suit in SUITS:
            if not s.jobs[suit]["done"]:
                s.unclaimed.append(s.jobs[suit]["reward"])
        s.jobs = {}
        s.brigadier = None
        if s.year == YEARS:
            s.phase = "plot" if self.clerk and any(s.slots) else "over"
            s.trump = None
            return
        s.year += 1
        s.planner = (s.planner + 1) % self.players
        self._start_year()

    # -- views ----------------------------------------------------------------------
    def _scores(self) -> list[int]:
        return [sum(value_of(c) for c in p["hidden"] + p["shown"]) for p in self.s.plots]

    def _public(self) -> dict[str, Any]:
        s = self.s
        d = self.decision
        clerk = self.clerk
        # Each value frozen as it is made: the view takes them as they are (base.Game).
        return {
            "deal": self.options["deal"],
            "phase": s.phase,
            "waiting": _public_waiting(d),
            "year": s.year,
            "years": YEARS,
            "planner": s.planner if s.phase not in ("over", "plot") else None,
            "trump": s.trump,
            "trump_broken": s.trump_broken,
            "jobs": self._jobs_view(),
            "hand_size": s.hand_size,
            "hand_counts": FrozenList(s.held if clerk else [len(hand) for hand in s.hands]),
            "tricks": s.tricks,
            "tricks_played": s.tricks_played,
            "leader": s.leader if s.phase == "play" else None,
            "turn": s.turn if s.phase == "play" else None,
            "lead_suit": self.lead_suit,
            "trick": self._frozen_log("_trick_log_", s.trick),  # a new list each trick
            "to_assign": self._frozen_copy("_to_assign_", s.to_assign),
            "brigadier": s.brigadier,
            "brigadiers": self._frozen_copy("_brigadiers_", s.brigadiers),
            "won": None if s.won is None else self._frozen_copy("_won_", s.won),
            "last_trick": self._frozen("_last_trick_", s.last_trick),
            "plots": self._plots_view(),
            "north": self._frozen_copy("_north_", s.north),
            "unclaimed": self._frozen_copy("_unclaimed_", s.unclaimed),
            "deck": self._deck_count(),
            "history": self._frozen_log("_history_log_", s.history),
            "entry": s.entry,
            "requisition": None if s.requisition is None else freeze(s.requisition),
            "revealing": s.revealing[0] if s.phase == "reveal" else None,
            "to_enter": (
                FrozenList([len(x) for x in s.slots]) if clerk and s.phase == "plot" else None
            ),
        }

    def _plots_view(self) -> FrozenList:
        """The plots as all see them (the cards shown, how many hidden), frozen, kept until
        they change (``_plots_changed``): a few times a year (a job done, a requisition)."""
        known: FrozenList | None = self.__dict__.get("_plots_view_")
        if known is not None:
            return known
        s = self.s
        view = self.__dict__["_plots_view_"] = FrozenList(
            [
                FrozenDict(
                    {
                        "shown": FrozenList(p["shown"]),
                        "hidden": len(p["hidden"]) + (len(s.slots[i]) if self.clerk else 0),
                    }
                )
                for i, p in enumerate(s.plots)
            ]
        )
        return view

    def _plots_changed(self) -> None:
        """A card came into a plot, left it or was shown (or, at a real table, a card the box
        cannot see was entered): the plots' view is made anew."""
        self.__dict__.pop("_plots_view_", None)

    def _jobs_view(self) -> FrozenDict:
        """The year's jobs, frozen, kept while they stay as they are: every change to a job
        adds or takes away a worker (K4, K5), which forgets this view, and a new year brings
        new jobs (a new dict)."""
        jobs = self.s.jobs
        known = self.__dict__.get("_jobs_view_")
        if known is not None and known[0] is jobs:
            return known[1]  # type: ignore[no-any-return]
        # A worker joins or leaves one job at a time: the others' views are kept.
        kept = self.__dict__.get("_job_views_")
        if kept is None or kept[0] is not jobs:
            kept = self.__dict__["_job_views_"] = (jobs, {})
        views: dict[str, FrozenDict] = kept[1]
        for suit, job in jobs.items():
            old = views.get(suit)
            if (
                old is None
                or old["hours"] != job["hours"]
                or old["done"] != job["done"]
                or old["by"] != job["by"]
                or old["workers"] != job["workers"]
            ):
                views[suit] = FrozenDict(
                    {
                        "name": JOBS[suit][0],
                        "gloss": JOBS[suit][2],
                        "reward": job["reward"],
                        "points": VALUE[job["reward"][:-1]],
                        "hours": job["hours"],
                        "threshold": THRESHOLD,
                        "done": job["done"],
                        "by": job["by"],
                        "workers": FrozenList(job["workers"]),
                    }
                )
        view = FrozenDict({suit: views[suit] for suit in jobs})
        self.__dict__["_jobs_view_"] = (jobs, view)
        return view

    def _revealed(self) -> dict[str, Any]:
        return {"scores": self._scores()}

    def _private(self, seat: int) -> dict[str, Any]:
        plot = self.s.plots[seat]
        private: dict[str, Any] = {
            "hand": FrozenList(self.s.hands[seat]),
            "plot": self._own_plot_view(seat, plot),
        }
        d = self.decision
        if d is not None and seat in d.seats:
            private["waiting"] = d.frozen_json()  # the seat to play sees its legal cards
        return private

    def _own_plot_view(self, seat: int, plot: dict[str, list[str]]) -> FrozenDict:
        """The seat's own plot, hidden cards too, frozen and kept while it stays as it is (it
        changes a few times a year)."""
        kept: dict[int, FrozenDict] | None = self.__dict__.get("_own_plots_")
        if kept is None:
            kept = self.__dict__["_own_plots_"] = {}
        view = kept.get(seat)
        if view is None or view["hidden"] != plot["hidden"] or view["shown"] != plot["shown"]:
            hidden, shown = FrozenList(plot["hidden"]), FrozenList(plot["shown"])
            view = kept[seat] = FrozenDict({"hidden": hidden, "shown": shown})
        return view

    @property
    def result(self) -> Result | None:
        if not self.over:
            return None
        scores = self._scores()
        best = max(scores)
        winners = frozenset(i for i, sc in enumerate(scores) if sc == best)  # K6
        measures: dict[str, float] = {}
        for i, sc in enumerate(scores):
            measures[f"seat {i + 1} won"] = float(i in winners)
            measures[f"seat {i + 1} score"] = float(sc)
        measures["jobs completed"] = float(sum(len(h["completed"]) for h in self.s.history))
        measures["cards sent north"] = float(len(self.s.north))
        return Result(winners, "single" if len(winners) == 1 else "shared", measures)


def _public_waiting(d: Decision | None) -> FrozenDict | None:
    """The decision for all to see; the legal cards of the seat to play are part of its hand."""
    if d is None:
        return None
    if d.kind == "play":  # one a seat, made once: a play is asked of one seat
        waiting = _PLAY_WAITING.get(d.seats)
        if waiting is None:
            waiting = _PLAY_WAITING[d.seats] = FrozenDict({**d.frozen_json(), "options": None})
        return waiting
    return d.frozen_json()


#: the public "waiting" of a play (its options hidden), by the seats asked: four at most
_PLAY_WAITING: dict[tuple[int, ...], FrozenDict] = {}
