"""The shape of a saved vote and its invariants (see ``companion/games/shape.py``)."""

from __future__ import annotations

from typing import Any

from companion.games.shape import (
    PER_SEAT,
    SEATS,
    Facts,
    GameShape,
    Int,
    Invariant,
    ListOf,
    Maybe,
    OneOf,
    Record,
    exactly,
    one_of,
)
from companion.games.vote.rules import CHOICES, REVEALS, ROUNDS

OPTION = one_of(sorted({c for choices in CHOICES.values() for c in choices}))


def _rounds(record: dict[str, Any], facts: Facts) -> bool:
    """V6: one line a round revealed, in order; the round under way has none yet."""
    state = record["state"]
    history, phase = state["history"], state["phase"]
    done = state["round"] if phase in ("next", "over") else state["round"] - 1
    return len(history) == done and all(h["round"] == i + 1 for i, h in enumerate(history))


def _lines(record: dict[str, Any], facts: Facts) -> bool:
    """V5: each line counts one choice a voter among the game's, and shows what its reveal
    shows and nothing more."""
    choices = CHOICES[record["options"]["choice"]]
    reveal = record["options"]["reveal"]
    for h in record["state"]["history"]:
        voters = h["voters"]
        if len(h["tally"]) != len(choices) or sum(h["tally"]) != len(voters) or not voters:
            return False
        if (h["cards"] is not None) != (reveal == "cards"):
            return False
        if (h["open"] is not None) != (reveal == "open"):
            return False
        shown = h["cards"] if h["cards"] is not None else h["open"] or []
        if any(c not in choices for c in shown) or (shown and len(shown) != len(voters)):
            return False
    return all(s < len(choices) for s in record["state"]["starts"])


def _ballot(record: dict[str, Any], facts: Facts) -> bool:
    """V4: a ballot is open for the vote only, of the round's voters, distinct seats."""
    state, ballot = record["state"], record["ballot"]
    voters = state["voters"]
    if len(set(voters)) != len(voters):
        return False
    if state["phase"] == "vote":
        return ballot is not None and ballot["seats"] == sorted(voters) and bool(voters)
    return ballot is None and (state["phase"] in ("pick", "next", "over") or not voters)


def _seats(record: dict[str, Any], facts: Facts) -> bool:
    """V2: every seat named (voters, each line's voters) is one of the table's, and the round
    is within the game's bound."""
    state, players = record["state"], record["players"]
    named = [*state["voters"], *(s for h in state["history"] for s in h["voters"])]
    return all(0 <= s < players for s in named) and 1 <= state["round"] <= ROUNDS


INVARIANTS = (
    Invariant("every seat named is at the table, the round within its bound", _seats),
    Invariant("one history line a revealed round", _rounds),
    Invariant("each line counts its voters' choices as the reveal shows", _lines),
    Invariant("a ballot of the round's voters while they vote", _ballot),
)

SHAPE = GameShape(
    invariants=INVARIANTS,
    options=Record({"choice": one_of(CHOICES), "reveal": one_of(REVEALS)}),
    state=Record(
        {
            "starts": exactly(Int(0, 3), PER_SEAT),
            "round": Int(1, ROUNDS),
            "phase": OneOf("who", "pick", "vote", "next", "over"),
            "voters": SEATS,
            "history": ListOf(
                Record(
                    {
                        "round": Int(1, ROUNDS),
                        "voters": SEATS,
                        "tally": ListOf(Int(0, 12), 2, 4),
                        "cards": Maybe(ListOf(OPTION, 1, 12)),
                        "open": Maybe(ListOf(OPTION, 1, 12)),
                    }
                ),
                0,
                ROUNDS,
            ),
        }
    ),
)
