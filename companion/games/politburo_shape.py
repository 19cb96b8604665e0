"""The shape of a saved Politburo game (see ``companion/games/shape.py``)."""

from __future__ import annotations

from companion.games.politburo import MEMBERS, MINISTRIES, NO, REFORM, REPRESS, START_INFLUENCE, YES
from companion.games.shape import (
    PER_SEAT,
    SEAT,
    SEATS,
    Bool,
    EmptyOr,
    GameShape,
    Int,
    ListOf,
    Maybe,
    OneOf,
    Record,
    Ref,
    exactly,
)

MINISTRY = OneOf(*MINISTRIES)
CARD = OneOf(REPRESS, REFORM)
SWING = Int(-1000, 1000)  # a ministry's track has no printed end
COUNT = Int(0, PER_SEAT)
EXECUTORS = ListOf(SEAT, 0, 3)

PROPOSAL = Record(
    {
        "ministry": MINISTRY,
        "approved": Bool(),
        "casting": Maybe(OneOf(YES, NO)),
        "yes": Maybe(SEATS),
        "no": Maybe(SEATS),
        "thumbs_up": COUNT,
        "thumbs_down": COUNT,
    }
)
EXECUTION = Record(
    {"executors": EXECUTORS, "number": Int(1, 3), "reform": Int(0, 3), "repress": Int(0, 3)},
    optional={"cards": ListOf(CARD, 0, 3)},
)
PURGE = Record(
    {
        "cards": ListOf(CARD, 0, 3),
        "deviant": SEAT,
        "executors": EXECUTORS,
        "losers": SEATS,
        "lost": Int(0, PER_SEAT),
        "pointed": ListOf(SEAT, 0, PER_SEAT),
    }
)
ROUND_FIELDS = {
    "round": Int(1, PER_SEAT),
    "secretary": SEAT,
    "proposals": ListOf(PROPOSAL, 0, 20),
    "plan": Maybe(MINISTRY),
    "executions": ListOf(EXECUTION, 0, 3),
    "purge": Maybe(PURGE),
    "change": Int(-3, 3),
    "automatic": Bool(),
}

SHAPE = GameShape(
    options=Record({"vote": OneOf("count", "each")}),
    state=Record(
        {
            "members": exactly(OneOf(*MEMBERS), PER_SEAT),
            "first": SEAT,
            "influence": exactly(Int(0, START_INFLUENCE), PER_SEAT),
            "ministries": Record(dict.fromkeys(MINISTRIES, SWING)),
            "lost": Int(0, Ref("players", times=START_INFLUENCE)),
            "round": Int(0, PER_SEAT),
            "phase": OneOf(
                "peek",
                "propose",
                "plan_vote",
                "casting",
                "replace_by",
                "replace",
                "appoint",
                "execute",
                "purge",
                "over",
            ),
            "peeked": Int(0, PER_SEAT),
            "proposal": Maybe(MINISTRY),
            "thumbs": Maybe(COUNT),
            "votes": ListOf(Maybe(OneOf(YES, NO)), 0, PER_SEAT),
            "rejected": ListOf(MINISTRY, 0, len(MINISTRIES)),
            "plan": Maybe(MINISTRY),
            "executors": EXECUTORS,
            "execution": Int(0, 3),
            "fresh": SEATS,
            "replacing": Maybe(SEAT),
            "current": EmptyOr(Record(ROUND_FIELDS)),
            "history": ListOf(Record(ROUND_FIELDS), 0, PER_SEAT),
        }
    ),
)
