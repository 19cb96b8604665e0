"""The shape of a saved Gulag game and its invariants (see ``companion/games/shape.py``)."""

from __future__ import annotations

from typing import Any

from companion.games.gulag.rules import BLACK, RED, STRIKE, WORK, deck_for
from companion.games.shape import (
    LOOKS,
    PER_SEAT,
    SEAT,
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

PICKS = ListOf(SEAT, 0, 3)
TURNS = Ref("players")  # G3: one turn a seat


# -- invariants ------------------------------------------------------------------------
def _roles(record: dict[str, Any], facts: Facts) -> bool:
    """G1: no more roles of a colour than the deck holds; the box deals every seat one."""
    roles, options = record["state"]["roles"], record["options"]
    deck = deck_for(facts["players"], options["deck"])
    if options["deal"] == "box" and None in roles:
        return False
    return all(roles.count(colour) <= deck[colour] for colour in (RED, BLACK))


def _turns(record: dict[str, Any], facts: Facts) -> bool:
    """One summary a turn played, in order, each by its commissar; the canal is their work."""
    state, players = record["state"], facts["players"]
    history = state["history"]
    if len(history) != state["turn"] or state["canal"] != sum(h["work"] for h in history):
        return False
    return all(h["turn"] == i + 1 and h["commissar"] == i % players for i, h in enumerate(history))


def _picks(record: dict[str, Any], facts: Facts) -> bool:
    """G3: the selected are distinct seats, never the commissar; as many as the phase says."""
    state = record["state"]
    picks, phase = state["picks"], state["phase"]
    if len(set(picks)) != len(picks) or state["turn"] % facts["players"] in picks:
        return False
    if phase in ("task", "supervise"):
        return len(picks) == 3
    return len(picks) < 3 if phase == "pick" else not picks


def _phase(record: dict[str, Any], facts: Facts) -> bool:
    """The turns run while the game does; a ballot is open for the task only."""
    state = record["state"]
    playing = state["phase"] in ("peek", "pick", "task", "supervise")
    if playing != (state["turn"] < facts["players"]):
        return False
    return (state["phase"] == "task") == (record["ballot"] is not None)


INVARIANTS = (
    LOOKS,
    Invariant("roles within the deck", _roles),
    Invariant("one summary a turn, the canal their work", _turns),
    Invariant("distinct selected seats, never the commissar", _picks),
    Invariant("the phase agrees with the turn and the ballot", _phase),
)

SHAPE = GameShape(
    invariants=INVARIANTS,
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
