"""The shape of a saved Glasnost game (see ``companion/games/shape.py``).

Its board may be the table's own: the number of crises and of board seats
are read from the record's board (``facts``) before the state is checked.
The invariants follow: one result a crisis, a face-up token always someone's,
the voters the seats of the crisis at stake.
"""

from __future__ import annotations

from typing import Any

from companion.games.glasnost.board import DOMAINS, NO, REFORM, REPRESS, YES, parse_board
from companion.games.glasnost.rules import (
    BALLOTS,
    COUNTDOWNS,
    COUP,
    DECLINE,
    FACTIONS,
    GORBACHEV,
    KRYUCHKOV,
    OBJECTIVES,
    SETS,
    TOKENS_PER_SET,
    bundled_board,
    coup_tokens_for,
)
from companion.games.shape import (
    LOOKS,
    PER_SEAT,
    SEAT,
    SEATS,
    Anything,
    Bool,
    DictOf,
    Facts,
    GameShape,
    Int,
    Invariant,
    ListOf,
    Maybe,
    OneOf,
    Record,
    Ref,
    exactly,
)

CRISIS = Int(0, Ref("crises", -1))
BOARD_SEAT = Int(0, Ref("seats", -1))
LEADER = OneOf(GORBACHEV, KRYUCHKOV)
VOTE = OneOf(YES, NO)
PAIRS = ListOf(exactly(SEAT, 2), 0, PER_SEAT)  # [voter, purged]
LONG = 10_000  # turns and history have no printed end; a bound keeps a damaged one small


def _board(record: dict[str, Any]) -> Any:
    data = record["options"]["board"]
    return bundled_board() if data is None else parse_board(data)


# -- invariants ------------------------------------------------------------------------
def _one_result_a_crisis(record: dict[str, Any], facts: Facts) -> bool:
    state = record["state"]
    return len(state["results"]) == facts["crises"] and sorted(state["layout"]) == list(
        range(facts["crises"])
    )


def _tokens_owned(record: dict[str, Any], facts: Facts) -> bool:
    """A face-up token is someone's, and a seat's tokens never outrun the sets it took."""
    state = record["state"]
    if any(
        up and owner is None for up, owner in zip(state["face_up"], state["owner"], strict=True)
    ):
        return False
    taken = SETS - state["spare_sets"]
    return taken >= facts["players"] and sum(state["tokens"]) <= TOKENS_PER_SET * taken


def _voters(record: dict[str, Any], facts: Facts) -> bool:
    """A vote or a purge is of an open crisis, by the three seats that sit at it."""
    state = record["state"]
    if state["phase"] not in ("vote", "purge"):
        return all(state["results"][c] is None for c in state["pending"])
    crisis = state["crisis"]
    if crisis is None or state["results"][crisis] is not None:
        return False
    seats = _board(record).crisis_seats[crisis]
    owners = sorted(state["owner"][q] for q in seats if state["face_up"][q])
    return len(seats) == len(owners) == len(set(owners)) and state["voters"] == owners


def _objectives(record: dict[str, Any], facts: Facts) -> bool:
    """One card a seat, both leaders dealt; a revealed leader is his card's holder."""
    objectives = record["state"]["objectives"]
    if len(set(objectives)) != len(objectives) or not {GORBACHEV, KRYUCHKOV} <= set(objectives):
        return False
    return all(objectives[seat] == card for card, seat in record["state"]["revealed"].items())


def _coups(record: dict[str, Any], facts: Facts) -> bool:
    """The coup tokens left and used add up to the table's; a coup names its leader."""
    state = record["state"]
    if state["coup_left"] + sum(state["coup_used"].values()) != coup_tokens_for(facts["players"]):
        return False
    if state["phase"] in ("coup_name", "coup_vote"):
        leader = state["leader"]
        if leader is None or leader not in state["revealed"]:
            return False
        named = state["named"]
        return len(set(named)) == len(named) <= 3 and state["revealed"][leader] not in named
    return True


def _phase(record: dict[str, Any], facts: Facts) -> bool:
    """A ballot is open in a ballot's phase only; the end names its winners."""
    state = record["state"]
    if (state["phase"] in BALLOTS) != (record["ballot"] is not None):
        return False
    return (state["phase"] == "over") == (state["winners"] is not None)


INVARIANTS = (
    LOOKS,
    Invariant("one result a crisis, each crisis card laid once", _one_result_a_crisis),
    Invariant("a face-up token is someone's, tokens within the sets taken", _tokens_owned),
    Invariant("the voters are the three seats at an open crisis", _voters),
    Invariant("one objective card a seat, both leaders dealt", _objectives),
    Invariant("the coup tokens add up, a coup names its leader", _coups),
    Invariant("a ballot is open in a ballot's phase only", _phase),
)

SHAPE = GameShape(
    invariants=INVARIANTS,
    options=Record(
        {
            "board": Anything(),
            "crises": OneOf("shuffled", "fixed"),
            "countdown": OneOf(*COUNTDOWNS),
        }
    ),
    facts={
        "crises": lambda record: len(_board(record).crises),
        "seats": lambda record: len(_board(record).seat_crises),
    },
    state=Record(
        {
            "objectives": exactly(OneOf(*OBJECTIVES), PER_SEAT),
            "layout": exactly(CRISIS, Ref("crises")),
            "chairman": SEAT,
            "owner": exactly(Maybe(SEAT), Ref("seats")),
            "face_up": exactly(Bool(), Ref("seats")),
            "tokens": exactly(Int(0, TOKENS_PER_SET), PER_SEAT),
            "spare_sets": Int(0, SETS),
            "coup_left": Int(0, SETS),
            "phase": OneOf(
                "peek", "sit", "vote", "purge", "coup_offer", "coup_name", "coup_vote", "over"
            ),
            "peeked": Int(0, PER_SEAT),
            "turn": Int(0, LONG),
            "results": ListOf(Maybe(OneOf(YES, NO, "hushed")), 0, Ref("crises")),
            "policies": DictOf(OneOf(*DOMAINS), Maybe(OneOf(REFORM, REPRESS)), len(DOMAINS)),
            "coup_used": DictOf(OneOf(*FACTIONS), Int(0, SETS), len(FACTIONS)),
            "pending": ListOf(CRISIS, 0, Ref("crises")),
            "crisis": Maybe(CRISIS),
            "voters": SEATS,
            "last_vote": Maybe(ListOf(VOTE, 0, PER_SEAT)),
            "last_purge": Maybe(PAIRS),
            "leaders": ListOf(LEADER, 0, 2),
            "leader": Maybe(LEADER),
            "revealed": DictOf(LEADER, SEAT, 2),
            "named": SEATS,
            "last_coup": Maybe(
                Record(
                    {
                        "leader": LEADER,
                        "named": SEATS,
                        "seat": SEAT,
                        "success": Bool(),
                        "votes": ListOf(OneOf(YES, NO, COUP, DECLINE), 0, PER_SEAT),
                    }
                )
            ),
            "winners": Maybe(SEATS),
            "outcome": Maybe(OneOf("instant", "nationalist instant", "end game")),
            "history": ListOf(
                Record(
                    {
                        "event": OneOf(
                            "sit", "no seat", "vote", "purge", "coup", "coup vote", "declined"
                        )
                    },
                    optional={
                        "board_seats": ListOf(BOARD_SEAT, 0, Ref("seats")),
                        "crisis": CRISIS,
                        "leader": LEADER,
                        "named": SEATS,
                        "purged": Maybe(SEAT),
                        "purges": PAIRS,
                        "seat": SEAT,
                        "success": Bool(),
                        "voters": SEATS,
                        "votes": ListOf(VOTE, 0, PER_SEAT),
                        "yes": Int(0, PER_SEAT),
                    },
                ),
                0,
                LONG,
            ),
        }
    ),
)
