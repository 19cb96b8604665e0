"""The shape of a saved Gulag game (see ``companion/games/shape.py``)."""

from __future__ import annotations

from companion.games.gulag import BLACK, RED, STRIKE, WORK
from companion.games.shape import (
    PER_SEAT,
    SEAT,
    GameShape,
    Int,
    ListOf,
    Maybe,
    OneOf,
    Record,
    Ref,
    exactly,
)

PICKS = ListOf(SEAT, 0, 3)
TURNS = Ref("players")  # G3: one turn a seat

SHAPE = GameShape(
    options=Record({"deck": OneOf("en", "fr"), "deal": OneOf("box", "cards")}),
    state=Record(
        {
            "roles": exactly(Maybe(OneOf(RED, BLACK)), PER_SEAT),
            "turn": Int(0, TURNS),
            "canal": Int(0, Ref("players", times=2)),  # two Work cards a turn at most
            "phase": OneOf("peek", "pick", "task", "supervise", "reveal_roles", "over"),
            "peeked": Int(0, PER_SEAT),
            "picks": PICKS,
            "previous": PICKS,
            "ordered": Maybe(SEAT),
            "last_inspection": Maybe(ListOf(OneOf(WORK, STRIKE), 0, 2)),
            "history": ListOf(
                Record(
                    {
                        "turn": Int(1, TURNS),
                        "commissar": SEAT,
                        "workers": exactly(SEAT, 2),
                        "supervisor": SEAT,
                        "ordered": Maybe(SEAT),
                        "work": Int(0, 2),
                    }
                ),
                0,
                TURNS,
            ),
        }
    ),
)
