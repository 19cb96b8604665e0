"""The shape of a saved Glasnost game (see ``companion/games/shape.py``).

Its board may be the table's own: the number of crises and of board seats
are read from the record's board (``facts``) before the state is checked.
"""

from __future__ import annotations

from typing import Any

from companion.games.glasnost import (
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
)
from companion.games.glasnost_board import DOMAINS, NO, REFORM, REPRESS, YES, parse_board
from companion.games.shape import (
    PER_SEAT,
    SEAT,
    SEATS,
    Anything,
    Bool,
    DictOf,
    GameShape,
    Int,
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


SHAPE = GameShape(
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
