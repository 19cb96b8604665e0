"""Glasnost (4-12 players): seats around crises, secret votes, purges and coups.

Rulings applied (docs/rules/glasnost.md):

- S1 the board is data (``companion.games.glasnost.board``): the ``board``
  option takes a board description already read into a dict (a table's own
  file, read by ``companion.games.glasnost.command.load_board``); None means the bundled
  board, kept as a Python constant because this package does no I/O. Rule
  3.2 shuffles the crisis cards onto the crisis spaces; ``crises="fixed"``
  keeps them in the order the board lists them.
- S2 the objective deck of 14 named cards; Gorbachev, Kryuchkov and N-2
  cards drawn unseen are shuffled and dealt, one a seat.
- S3 policies start neutral; a unanimous vote or a successful purge sets the
  crisis's policy by majority, overriding any earlier one. Any such result
  counts as a policy change for the coup check, even when the domain already
  had that policy (the text: only an inconclusive vote has no coup).
- S4 the purge: the three voters choose at once, each "left" or "right" (the
  fellow voter next clockwise, or next counter-clockwise, among the three,
  as the red and black cards do), collected face down and then revealed
  attributably, as the rule requires. Purged by both: that seat token flips
  face down (both tokens of a connected pair) and the crisis takes the
  majority policy. A cycle: crisis closed, no policy, no coup check.
- S5 coups: after a reform Gorbachev is asked first, after a repression
  Kryuchkov; if the first declines or fails, the other. Rule 5.5 gives each
  faction 1/2/3 coup attempts (4-6/7-9/10-12 players): a leader whose
  faction has failed that many times is no longer asked (its failures are
  the coup tokens it has moved, ``coup_used``). To keep who holds
  Gorbachev or Kryuchkov secret, the question is put to EVERY seat at once as
  a secret decision, and to both leaders at once (one question a policy
  change): a seat answers the name of a leader offered (a coup by him) or
  "no". Only a leader's own answer naming himself counts; every other answer
  is forgotten unread, so the table cannot tell who was really asked, and a
  seat that names the leader it does not hold claims nothing. If both
  leaders go for a coup, the one rule 5.5 asks first goes first; if his coup
  fails, the other leader (attempts left) is asked once more, alone, since
  the failure changed what he knows. (The box asks it in the open, as the
  cards do: a countdown on which any seat may claim, every unclaimed seat
  answering "no"; see ``companion.table.countdown``.) A
  leader who performs a coup is revealed, names 0-3 other seats one at a
  time ("done" to stop), then every seat votes secretly; all Yes: the
  leader's faction wins at once. A failure moves a coup token (1/3/5 for
  4-6/7-9/10-12 players); a failure with none left: the Nationalists win at
  once (nobody, if no Nationalist card was dealt).
- S6 a face-down seat may be taken again. A player out of seat tokens takes
  the 5 of an unused party member set (12 sets, one per player at the
  start) while any is left; a connected pair needs two tokens. The game
  ends when the chairman (the player to move) has no legal seat.
- S7 end-game victory: every objective met, or failing anyone, at least one.

Rule 3.7 deals the objective cards face down; at the box each seat reads its
own card privately first (a "peek" decision per seat, clockwise from seat 1,
as in Gulag and Politburo), before the first chairman sits.

Where the text is silent: the first chairman is drawn at random and the
chairman rotates clockwise. A seat token that fills two crises at once
leads to two votes, in crisis-space order; the second is skipped if a purge
at the first emptied one of its seats. A connected pair is offered as one
seat (its lower-numbered board seat) and both its seats must be free. A
face-up token of yours at a crisis forbids its other seats even once that
crisis is voted (5.1 does not distinguish); face-down tokens forbid nothing
and are not returned. In views and decisions, board seats and crisis spaces
are 0-based indexes like player seats; messages show them from 1.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from companion.ballot import Ballot
from companion.games.base import Choice, Decision, Game, IllegalMove, Option, Result
from companion.games.frozen import FrozenDict, FrozenList, freeze
from companion.games.glasnost.board import (
    BOARD,
    DOMAINS,
    NO,
    REFORM,
    REPRESS,
    YES,
    Board,
    Crisis,
    parse_board,
)
from companion.games.glasnost.kinds import GlasnostKind, GlasnostPhase

REFORMISTS, REPRESSIONISTS, NATIONALISTS = "Reformists", "Repressionists", "Nationalists"
FACTIONS = (REFORMISTS, REPRESSIONISTS, NATIONALISTS)
GORBACHEV, KRYUCHKOV = "Gorbachev", "Kryuchkov"
LEFT, RIGHT = "left", "right"
COUP, DECLINE = "coup", "no"
DONE = "done"
#: the coup check's countdown at the box, in seconds, as the setup row offers them
COUNTDOWNS = ("5", "8", "10", "15", "20")
SETS = 12  # party member sets in the box
TOKENS_PER_SET = 5

E, M, S = DOMAINS
#: the phases that collect a secret ballot, and the kind of decision each asks
BALLOTS: dict[GlasnostPhase, GlasnostKind] = {
    "vote": "crisis_vote",
    "purge": "purge",
    "coup_offer": "coup_offer",
    "coup_vote": "coup_vote",
}


def _card(**policies: str) -> dict[str, str]:
    return dict(policies)


#: S2: the 14 objective cards. Two reforms: Reformists; two repressions:
#: Repressionists; one of each: Nationalists.
OBJECTIVES: dict[str, dict[str, str]] = {
    GORBACHEV: _card(economy=REFORM, military=REFORM, security=REFORM),
    KRYUCHKOV: _card(economy=REPRESS, military=REPRESS, security=REPRESS),
    "Ryzhkov": _card(economy=REFORM, military=REFORM),
    "Yakovlev": _card(economy=REFORM, security=REFORM),
    "Shevardnadze": _card(military=REFORM, security=REFORM),
    "Pavlov": _card(economy=REPRESS, military=REPRESS),
    "Pugo": _card(economy=REPRESS, security=REPRESS),
    "Yazov": _card(military=REPRESS, security=REPRESS),
    "Nazarbayev": _card(economy=REFORM, military=REPRESS),
    "Kravchuk": _card(economy=REFORM, security=REPRESS),
    "Shushkevich": _card(military=REFORM, economy=REPRESS),
    "Gamsakhurdia": _card(military=REFORM, security=REPRESS),
    "Yeltsin": _card(security=REFORM, economy=REPRESS),
    "Landsbergis": _card(security=REFORM, military=REPRESS),
}
#: the leader card of each coup direction
LEADER = {REFORM: GORBACHEV, REPRESS: KRYUCHKOV}
OTHER_LEADER = {GORBACHEV: KRYUCHKOV, KRYUCHKOV: GORBACHEV}


def faction_of(card: str) -> str:
    directions = set(OBJECTIVES[card].values())
    if directions == {REFORM}:
        return REFORMISTS
    if directions == {REPRESS}:
        return REPRESSIONISTS
    return NATIONALISTS


def coup_tokens_for(players: int) -> int:
    """S5: 1 / 3 / 5 coup tokens for 4-6 / 7-9 / 10-12 players."""
    return 1 if players <= 6 else 3 if players <= 9 else 5


def coup_attempts_for(players: int) -> int:
    """Rule 5.5: each faction has 1 / 2 / 3 coup attempts at 4-6 / 7-9 / 10-12 players."""
    return 1 if players <= 6 else 2 if players <= 9 else 3


@functools.cache
def bundled_board() -> Board:
    """The bundled board, validated once (a Board never changes, so every game shares it)."""
    return parse_board(BOARD)


def coup_options(leaders: list[str]) -> tuple[str, ...]:
    """S5: the answers to a coup question: each leader offered (Gorbachev first, as on the
    A and B buttons), then "no"."""
    return (*(x for x in (GORBACHEV, KRYUCHKOV) if x in leaders), DECLINE)


def end_game_winners(objectives: list[str], policies: dict[str, str | None]) -> list[int]:
    """S7: all objectives met; failing anyone, at least one met."""

    def met(card: str) -> int:
        return sum(policies.get(d) == v for d, v in OBJECTIVES[card].items())

    full = [i for i, c in enumerate(objectives) if met(c) == len(OBJECTIVES[c])]
    return full or [i for i, c in enumerate(objectives) if met(c) > 0]


@dataclass
class GlasnostState:
    objectives: list[str]
    layout: list[int]  # crisis space -> index of the crisis card on it
    chairman: int
    owner: list[int | None]  # board seat -> player whose token is there
    face_up: list[bool]  # board seat -> token face up (False: purged, or empty)
    tokens: list[int]  # player -> seat tokens in hand
    spare_sets: int
    coup_left: int
    phase: GlasnostPhase = "peek"
    peeked: int = 0  # seats that have read their objective card (clockwise from seat 1)
    turn: int = 0
    results: list[str | None] = field(default_factory=list)  # space -> yes/no/hushed
    policies: dict[str, str | None] = field(default_factory=dict)
    coup_used: dict[str, int] = field(default_factory=dict)
    pending: list[int] = field(default_factory=list)  # full crises still to vote
    crisis: int | None = None  # the crisis being resolved
    voters: list[int] = field(default_factory=list)
    last_vote: list[str] | None = None
    last_purge: list[list[int]] | None = None  # [voter, purged] pairs
    # the coup question: the leaders it offers (rule 5.5's order); during a coup, the one
    # still to ask if it fails
    leaders: list[str] = field(default_factory=list)
    leader: str | None = None  # performing the coup
    revealed: dict[str, int] = field(default_factory=dict)  # leader card -> seat
    named: list[int] = field(default_factory=list)
    last_coup: dict[str, Any] | None = None
    winners: list[int] | None = None
    outcome: str | None = None
    history: list[dict[str, Any]] = field(default_factory=list)


class Glasnost(Game):
    name = "glasnost"
    min_players = 4
    max_players = 12
    OPTIONS = {
        "crises": Option("shuffled", ("shuffled", "fixed")),
        "board": Option(None, None),  # board=FILE on the command line; None: the bundled board
        # S5 at the box: the seconds the coup check's countdown gives the table to claim
        # (``companion.table.countdown`` reads it; the rules never do)
        "countdown": Option("8", COUNTDOWNS),
    }
    FORMAT = 2  # 2: one coup question offers both leaders (``leaders``); the countdown option
    outcomes = ("instant", "nationalist instant", "end game")
    REFUSALS = {
        "partner": (
            "5.1",
            "5.1: board seat {place} is connected to board seat {partner}: "
            "choose board seat {partner} to take both",
        ),
        "face_up": ("5.1", "5.1: board seat {place} already has a face-up seat token"),
        "voted": ("5.1", "5.1: every crisis at board seat {place} has already been voted for"),
        "token_at": (
            "5.1",
            "5.1: seat {seat} already has a face-up seat token at {crisis} (crisis space {space})",
        ),
        "no_tokens": (
            "S6",
            "S6: seat {seat} has no seat tokens left and no party member set is unused",
        ),
        "name_self": ("S5", "S5: the leader names the others in the coup, not themself"),
        "named": ("S5", "S5: seat {seat} is already in the coup"),
        "purge": ("S4", "S4: a voter purges the fellow voter to the left or to the right"),
    }
    State = GlasnostState

    s: GlasnostState

    @functools.cached_property
    def board(self) -> Board:
        data = self.options["board"]
        return bundled_board() if data is None else parse_board(data)

    @functools.cached_property
    def crisis_seats(self) -> tuple[tuple[int, ...], ...]:
        return self.board.crisis_seats

    def setup(self) -> None:
        board = self.board
        layout = list(range(len(board.crises)))
        if self.options["crises"] == "shuffled":
            self.rng.shuffle(layout)  # rule 3.2
        # S2 / rule 3.7: the two leaders plus N-2 drawn unseen, shuffled, dealt.
        others = [c for c in OBJECTIVES if c not in (GORBACHEV, KRYUCHKOV)]
        self.rng.shuffle(others)
        hand = [GORBACHEV, KRYUCHKOV, *others[: self.players - 2]]
        self.rng.shuffle(hand)
        seats = len(board.seat_crises)
        self.s = GlasnostState(
            objectives=hand,
            layout=layout,
            chairman=self.rng.randrange(self.players),
            owner=[None] * seats,
            face_up=[False] * seats,
            tokens=[TOKENS_PER_SET] * self.players,
            spare_sets=SETS - self.players,
            coup_left=coup_tokens_for(self.players),
            results=[None] * len(board.crises),
            policies=dict.fromkeys(DOMAINS),
            coup_used={REFORMISTS: 0, REPRESSIONISTS: 0},
        )

    # -- facts derived from the state -----------------------------------------
    def crisis_card(self, space: int) -> Crisis:
        return self.board.crises[self.s.layout[space]]

    def _places(self, place: int) -> list[int]:
        """The board seats one placement covers: the seat, and its connected partner."""
        return list(self.board.covers[place])

    def _crises_of(self, place: int) -> list[int]:
        return list(self.board.covered_crises[place])

    def _full(self, space: int) -> bool:
        return all(self.s.face_up[q] for q in self.crisis_seats[space])

    def _sit_problem(self, player: int, place: int) -> IllegalMove | None:
        """Why ``player`` may not sit at ``place`` (rule 5.1, S6), or None."""
        s = self.s
        seat_id = self.board.seat_ids[place]
        partner = self.board.partner[place]
        if partner is not None and partner < place:
            return self.refused("partner", place=seat_id, partner=self.board.seat_ids[partner])
        places = self._places(place)
        if any(s.face_up[q] for q in places):
            return self.refused("face_up", place=seat_id)
        crises = self._crises_of(place)
        if all(s.results[c] is not None for c in crises):
            return self.refused("voted", place=seat_id)
        for c in crises:
            if any(s.face_up[q] and s.owner[q] == player for q in self.crisis_seats[c]):
                # spaces are numbered as the board data numbers its crises (and the drawing)
                crisis, space = self.crisis_card(c).name, self.board.crises[c].id
                return self.refused("token_at", seat=player + 1, crisis=crisis, space=space)
        if s.tokens[player] + TOKENS_PER_SET * s.spare_sets < len(places):
            return self.refused("no_tokens", seat=player + 1)
        return None

    def legal_places(self, player: int) -> tuple[int, ...]:
        """The board seats where ``_sit_problem`` finds nothing, from the board's seat tables."""
        return tuple(self._places_open_to(player))

    def _places_open_to(self, player: int) -> Iterator[int]:
        """``legal_places`` one by one, worked out as they are asked for: whether a turn can
        start at all needs only the first."""
        s = self.s
        board = self.board
        face_up, owner = s.face_up, s.owner
        # 5.1: the crises where the player has a face-up token, and those still open
        held = [q for q, up in enumerate(face_up) if up and owner[q] == player]
        mine = {c for q in held for c in board.seat_crises[q]}
        open_crises = {c for c, result in enumerate(s.results) if result is None}
        tokens = s.tokens[player] + TOKENS_PER_SET * s.spare_sets  # S6
        for p in board.placeable:
            covered = board.covers[p]
            if len(covered) > tokens or any(face_up[q] for q in covered):
                continue
            crises = board.covered_crisis_sets[p]
            if crises.isdisjoint(mine) and not crises.isdisjoint(open_crises):
                yield p

    def _holder(self, card: str) -> int:
        return self.s.objectives.index(card)

    def _left_right(self, voter: int) -> tuple[int, int]:
        """The fellow voters to the left (next clockwise) and to the right of ``voter``."""
        others = [v for v in self.s.voters if v != voter]
        left = min(others, key=lambda v: (v - voter) % self.players)
        right = next(v for v in others if v != left)
        return left, right

    # -- the contract ------------------------------------------------------------
    def _decide(self) -> Decision | None:
        s = self.s
        phase = s.phase
        if phase == "peek":
            return self._peek_decision()
        if phase == "sit":
            return Decision("sit", (s.chairman,), self.legal_places(s.chairman))
        if phase in BALLOTS:
            assert self.ballot is not None
            return Decision(BALLOTS[phase], self.ballot.pending, self.ballot.options, secret=True)
        if phase == "coup_name":
            assert s.leader is not None
            leader = s.revealed[s.leader]
            others = tuple(p for p in range(self.players) if p != leader and p not in s.named)
            return Decision("coup_name", (leader,), (*others, DONE))
        return None

    def _refusal(self, decision: Decision, seat: int, choice: Choice) -> IllegalMove:
        if (
            decision.kind == "sit"
            and isinstance(choice, int)
            and not isinstance(choice, bool)
            and 0 <= choice < len(self.board.seat_crises)
        ):
            problem = self._sit_problem(seat, choice)
            if problem:
                return problem
        if decision.kind == "coup_name" and isinstance(choice, int):
            if choice == seat:
                return self.refused("name_self")
            if choice in self.s.named:
                return self.refused("named", seat=choice + 1)
        if decision.kind == "purge":
            return self.refused("purge")
        return super()._refusal(decision, seat, choice)

    def _apply(self, seat: int, choice: Choice) -> None:
        phase = self.s.phase
        if phase == "peek":
            if self._peek_seen():
                self._start_turn()
        elif phase == "sit":
            self._sit(seat, int(choice))
        elif phase == "coup_name":
            self._name(str(choice) if choice == DONE else int(choice))
        else:
            assert self.ballot is not None
            self.ballot.cast(seat, choice)
            if not self.ballot.complete:
                return
            if phase == "vote":
                self._count_vote()
            elif phase == "purge":
                self._purge()
            elif phase == "coup_offer":
                self._answer_offer()
            elif phase == "coup_vote":
                self._count_coup()

    # -- the turn --------------------------------------------------------------
    def _start_turn(self) -> None:
        s = self.s
        if next(self._places_open_to(s.chairman), None) is not None:
            s.phase = "sit"
        else:
            s.history.append({"event": "no seat", "seat": s.chairman})
            self._end_game()

    def _sit(self, player: int, place: int) -> None:
        s = self.s
        places = self._places(place)
        for q in places:
            if s.tokens[player] == 0:  # S6: a fresh party member set
                s.tokens[player] += TOKENS_PER_SET
                s.spare_sets -= 1
            s.tokens[player] -= 1
            s.owner[q] = player
            s.face_up[q] = True
        s.history.append({"event": "sit", "seat": player, "board_seats": places})
        s.pending = [c for c in self._crises_of(place) if s.results[c] is None and self._full(c)]
        self._next_crisis()

    def _next_crisis(self) -> None:
        s = self.s
        while s.pending:
            c = s.pending.pop(0)
            if s.results[c] is None and self._full(c):
                s.crisis = c
                s.voters = sorted(p for q in self.crisis_seats[c] if (p := s.owner[q]) is not None)
                s.last_purge = None
                self.ballot = Ballot(s.voters, (YES, NO))
                s.phase = "vote"
                return
        s.crisis = None
        s.voters = []
        s.chairman = (s.chairman + 1) % self.players  # 5.6: clockwise
        s.turn += 1
        self._start_turn()

    def _count_vote(self) -> None:
        """5.2: the three votes revealed shuffled; unanimous: the policy; otherwise a purge."""
        s = self.s
        assert self.ballot is not None and s.crisis is not None
        votes = list(self.ballot.reveal(self.rng))
        self.ballot = None
        s.last_vote = votes
        yes = votes.count(YES)
        s.history.append({"event": "vote", "crisis": s.crisis, "voters": s.voters, "yes": yes})
        if yes in (0, len(votes)):
            self._resolve(YES if yes else NO)
        else:
            self.ballot = Ballot(s.voters, (LEFT, RIGHT))
            s.phase = "purge"

    def _purge(self) -> None:
        """S4 / 5.4: revealed attributably; purged by both or a cycle."""
        s = self.s
        assert self.ballot is not None and s.crisis is not None and s.last_vote is not None
        pairs = []
        for v in s.voters:
            left, right = self._left_right(v)
            pairs.append([v, left if self.ballot.choice_of(v) == LEFT else right])
        self.ballot = None
        s.last_purge = pairs
        targets = [t for _, t in pairs]
        purged = next((t for t in s.voters if targets.count(t) == 2), None)
        s.history.append({"event": "purge", "crisis": s.crisis, "purges": pairs, "purged": purged})
        if purged is None:
            s.results[s.crisis] = "hushed"
            self._next_crisis()
            return
        for q in self.crisis_seats[s.crisis]:
            if s.owner[q] == purged and s.face_up[q]:
                for r in self._places(q):
                    s.face_up[r] = False
        majority = YES if s.last_vote.count(YES) > s.last_vote.count(NO) else NO
        self._resolve(majority)

    def _resolve(self, vote: str) -> None:
        """5.3 / S3: the crisis takes the policy; then the coup check (S5)."""
        s = self.s
        assert s.crisis is not None
        s.results[s.crisis] = vote
        domain, direction = self.crisis_card(s.crisis).policy(vote)
        s.policies[domain] = direction
        first = LEADER[direction]
        self._offer([first, OTHER_LEADER[first]])

    # -- coups -----------------------------------------------------------------
    def _offer(self, leaders: list[str]) -> None:
        """S5: one question offers a coup to each of ``leaders`` (rule 5.5's order) whose
        faction has attempts left; with none, the turn goes on."""
        s = self.s
        s.named = []
        s.leader = None
        attempts = coup_attempts_for(self.players)  # 5.5: a faction's attempts, then no more
        s.leaders = [x for x in leaders if s.coup_used[faction_of(x)] < attempts]
        if not s.leaders:
            self._next_crisis()
            return
        # Every seat is asked the same way; only each leader's own answer will count.
        self.ballot = Ballot(range(self.players), coup_options(s.leaders))
        s.phase = "coup_offer"

    def _answer_offer(self) -> None:
        """The first leader, in rule 5.5's order, whose holder named him goes for his coup;
        those before him declined. Every other answer is forgotten unread."""
        s = self.s
        assert self.ballot is not None
        ballot = self.ballot
        claiming = [x for x in s.leaders if ballot.choice_of(self._holder(x)) == x]
        self.ballot = None
        leader = claiming[0] if claiming else None
        asked = s.leaders if leader is None else s.leaders[: s.leaders.index(leader)]
        for declined in asked:
            s.history.append({"event": "declined", "leader": declined})
        if leader is None:
            s.leaders = []
            self._next_crisis()
            return
        s.leaders = s.leaders[s.leaders.index(leader) + 1 :]  # asked again if this one fails
        s.leader = leader
        s.revealed[leader] = self._holder(leader)
        s.history.append({"event": "coup", "leader": leader, "seat": s.revealed[leader]})
        s.phase = "coup_name"

    def _name(self, choice: int | str) -> None:
        s = self.s
        if choice != DONE:
            s.named.append(int(choice))
        if choice == DONE or len(s.named) == 3:
            self.ballot = Ballot(range(self.players), (YES, NO))
            s.phase = "coup_vote"

    def _count_coup(self) -> None:
        s = self.s
        assert self.ballot is not None and s.leader is not None
        votes = list(self.ballot.reveal(self.rng))
        self.ballot = None
        faction = faction_of(s.leader)
        yes = votes.count(YES)
        success = yes == len(votes)
        s.last_coup = {
            "leader": s.leader,
            "seat": s.revealed[s.leader],
            "named": list(s.named),
            "votes": votes,
            "success": success,
        }
        s.history.append({"event": "coup vote", **s.last_coup})
        if success:  # 6.1
            self._finish(
                [i for i, c in enumerate(s.objectives) if faction_of(c) == faction], "instant"
            )
        elif s.coup_left > 0:
            s.coup_left -= 1
            s.coup_used[faction] += 1
            self._offer(s.leaders)  # S5: the other leader, asked once more
        else:  # 6.1: the Soviet Union falls
            nationalists = [i for i, c in enumerate(s.objectives) if faction_of(c) == NATIONALISTS]
            self._finish(nationalists, "nationalist instant")

    # -- the end ------------------------------------------------------------------
    def _end_game(self) -> None:
        self._finish(end_game_winners(self.s.objectives, self.s.policies), "end game")

    def _finish(self, winners: list[int], outcome: str) -> None:
        s = self.s
        s.winners = sorted(winners)
        s.outcome = outcome
        s.phase = "over"
        s.leader = None
        s.leaders = []
        s.pending = []

    # -- views ------------------------------------------------------------------
    @functools.cached_property
    def _crisis_cards(self) -> tuple[FrozenDict, ...]:
        """What a crisis space shows that never changes: its card (laid out at the start),
        its policies and its seats."""
        cards = []
        for space in range(len(self.board.crises)):
            card = self.crisis_card(space)
            cards.append(
                freeze(
                    {
                        "space": space,
                        "id": card.id,
                        "name": card.name,
                        # its names in other languages (a board that gives some): the
                        # screens choose the table's
                        **({"names": dict(card.names)} if card.names else {}),
                        "yes": {"domain": card.yes, "direction": REFORM},
                        "no": {"domain": card.no, "direction": REPRESS},
                        "board_seats": self.crisis_seats[space],
                    }
                )
            )
        return tuple(cards)

    @functools.cached_property
    def _board_seats(self) -> tuple[FrozenDict, ...]:
        board = self.board
        return tuple(
            freeze({"id": board.seat_ids[q], "crises": crises, "connected": board.partner[q]})
            for q, crises in enumerate(board.seat_crises)
        )

    def _crisis_view(self, space: int, result: str | None, players: tuple[int | None, ...]) -> Any:
        static = self._crisis_cards[space]
        policy = None
        if result in (YES, NO):
            domain, direction = self.crisis_card(space).policy(result)
            policy = FrozenDict({"domain": domain, "direction": direction})
        return FrozenDict(  # a dict, not keywords: twice as fast
            {
                **static,
                "players": FrozenList(players),
                "closed": result is not None,
                "result": result,
                "policy": policy,
            }
        )

    def _board_view(self) -> tuple[FrozenList, FrozenList]:
        """The crisis spaces and the board seats as all see them, frozen; kept while no seat
        token moves and no crisis closes (most moves are votes and coup questions). When
        they change, only the seats that changed and the spaces they touch are made anew."""
        s = self.s
        owner, face_up, results = s.owner, s.face_up, s.results
        known = self.__dict__.get("_board_view_")
        if known is not None:
            was_owner, was_up, was_results, crises, seats = known
            if was_owner == owner and was_up == face_up and was_results == results:
                return crises, seats
            moved = [
                q
                for q, (o, u) in enumerate(zip(owner, face_up, strict=True))
                if o != was_owner[q] or u != was_up[q]
            ]
            spaces = {c for q in moved for c in self.board.seat_crises[q]}
            spaces.update(c for c, r in enumerate(results) if r != was_results[c])
        else:
            moved = list(range(len(owner)))
            spaces = set(range(len(results)))
            crises, seats = FrozenList([None] * len(results)), FrozenList([None] * len(owner))
        crisis_list, seat_list = list(crises), list(seats)
        for space in spaces:
            static = self._crisis_cards[space]
            players = tuple(owner[q] if face_up[q] else None for q in static["board_seats"])
            crisis_list[space] = self._crisis_view(space, results[space], players)
        for q in moved:
            seat_list[q] = FrozenDict(
                {**self._board_seats[q], "owner": owner[q], "face_up": face_up[q]}
            )
        crises, seats = FrozenList(crisis_list), FrozenList(seat_list)
        self.__dict__["_board_view_"] = (list(owner), list(face_up), list(results), crises, seats)
        return crises, seats

    def _public_options(self) -> dict[str, Any]:
        return {k: v for k, v in self.options.items() if k != "board"}

    def _public(self) -> dict[str, Any]:
        """The public facts, frozen: a secret ballot's casts change none of them, so they are
        kept for every view until the ballot closes (``Game._kept``)."""
        s = self.s
        crises, board_seats = self._board_view()
        return {  # each value frozen as built (the view takes them as they are)
            "board": self.board.name,
            "phase": s.phase,
            "turn": s.turn + 1,
            "chairman": s.chairman if s.phase != "over" else None,
            "crises": crises,
            "board_seats": board_seats,
            "policies": FrozenDict(s.policies),
            "coup_tokens": FrozenDict(
                {
                    "total": coup_tokens_for(self.players),
                    "left": s.coup_left,
                    "used": FrozenDict(s.coup_used),
                }
            ),
            "tokens": FrozenList(s.tokens),
            "spare_sets": s.spare_sets,
            "crisis": s.crisis,
            "voters": FrozenList(s.voters),
            "last_vote": FrozenList(s.last_vote) if s.last_vote is not None else None,
            "last_purge": freeze(s.last_purge) if s.last_purge else None,
            "asking": FrozenList(s.leaders) if s.phase == "coup_offer" else None,
            "coup_leader": (
                FrozenDict({"card": s.leader, "seat": s.revealed[s.leader]})
                if s.phase in ("coup_name", "coup_vote") and s.leader
                else None
            ),
            "named": FrozenList(s.named),
            "last_coup": freeze(s.last_coup),
            "revealed": FrozenDict(s.revealed),
            "history": self._frozen_log("_history_log_", s.history),
        }

    def _revealed(self) -> dict[str, Any]:
        return {"objectives": list(self.s.objectives)}

    def _private(self, seat: int) -> dict[str, Any]:
        return {"objective": _objective_view(self.s.objectives[seat])}

    @property
    def result(self) -> Result | None:
        s = self.s
        if s.phase != "over" or s.winners is None or s.outcome is None:
            return None
        won = {faction_of(s.objectives[w]) for w in s.winners}
        measures = {f"{f} won": float(f in won) for f in FACTIONS}
        measures["instant"] = float(s.outcome != "end game")
        measures["crises with a policy"] = float(sum(r in (YES, NO) for r in s.results))
        measures["turns"] = float(s.turn + 1)
        return Result(frozenset(s.winners), s.outcome, measures)


@functools.cache
def _objective_view(card: str) -> FrozenDict:
    """An objective card as its holder's view shows it, frozen once: cards never change."""
    return freeze({"name": card, "faction": faction_of(card), "policies": OBJECTIVES[card]})
