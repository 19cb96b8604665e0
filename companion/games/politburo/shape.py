"""The shape of a saved Politburo game and its invariants (see ``companion/games/shape.py``)."""

from __future__ import annotations

from typing import Any

from companion.games.politburo.rules import (
    MEMBERS,
    MINISTRIES,
    NO,
    REFORM,
    REPRESS,
    START_INFLUENCE,
    YES,
)
from companion.games.shape import (
    LOOKS,
    PER_SEAT,
    SEAT,
    SEATS,
    Bool,
    EmptyOr,
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


# -- invariants ------------------------------------------------------------------------
EXECUTING = ("execute", "replace", "replace_by", "purge")


def _members(record: dict[str, Any], facts: Facts) -> bool:
    """P1: one member card a seat, no card twice."""
    members = record["state"]["members"]
    return len(set(members)) == len(members)


def _influence(record: dict[str, Any], facts: Facts) -> bool:
    """The influence lost is what the seats no longer have (P1: from 3, never below 0)."""
    state = record["state"]
    return state["lost"] == sum(START_INFLUENCE - x for x in state["influence"])


def _ministries(record: dict[str, Any], facts: Facts) -> bool:
    """Each ministry stands where the rounds' changes moved it; one summary a round."""
    state = record["state"]
    rounds = [*state["history"], *([state["current"]] if state["current"] else [])]
    if len(state["history"]) != state["round"]:
        return False
    return all(
        state["ministries"][m] == sum(r["change"] for r in rounds if r["plan"] == m)
        for m in MINISTRIES
    )


def _executors(record: dict[str, Any], facts: Facts) -> bool:
    """P4: distinct executors, never the secretary; three while they execute."""
    state = record["state"]
    executors, phase = state["executors"], state["phase"]
    secretary = (state["first"] + state["round"]) % facts["players"]  # the last one's, over
    if len(set(executors)) != len(executors) or (phase != "over" and secretary in executors):
        return False
    if phase == "replace_by" and state["replacing"] not in executors:
        return False
    if phase in EXECUTING:
        return len(executors) == 3 and 1 <= state["execution"] <= 3
    return len(executors) < 3 if phase == "appoint" else True


def _votes(record: dict[str, Any], facts: Facts) -> bool:
    """One plan vote a seat while a plan is voted; a ballot open to execute or purge only."""
    state = record["state"]
    if state["phase"] in ("plan_vote", "casting") and len(state["votes"]) != facts["players"]:
        return False
    playing = state["phase"] != "over"
    if playing != (state["round"] < facts["players"]):
        return False
    return (state["phase"] in ("execute", "purge")) == (record["ballot"] is not None)


INVARIANTS = (
    LOOKS,
    Invariant("one member card a seat", _members),
    Invariant("the influence lost is the influence gone", _influence),
    Invariant("the ministries stand where the rounds moved them", _ministries),
    Invariant("distinct executors, never the secretary", _executors),
    Invariant("one vote a seat, the round within the game", _votes),
)

SHAPE = GameShape(
    invariants=INVARIANTS,
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
