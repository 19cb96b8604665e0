"""The shape of a saved Kolkhoz game (see ``companion/games/shape.py``)."""

from __future__ import annotations

from companion.games.kolkhoz_cards import HAND, JOB_CARDS, SUITS, WORKERS, YEARS
from companion.games.shape import (
    PER_SEAT,
    SEAT,
    SEATS,
    Bool,
    DictOf,
    GameShape,
    Int,
    ListOf,
    Maybe,
    OneOf,
    Record,
    Str,
    exactly,
)

WORKER = OneOf(*WORKERS)
JOB_CARD = OneOf(*JOB_CARDS)
CARD = OneOf(*WORKERS, *JOB_CARDS)
SUIT = OneOf(*SUITS)
WORKER_LIST = ListOf(WORKER, 0, len(WORKERS))
CARD_LIST = ListOf(CARD, 0, len(WORKERS) + len(JOB_CARDS))
PLAY = Record({"seat": SEAT, "card": WORKER})
HOURS = Int(0, 13 * len(WORKERS))
JOB = Record(
    {
        "reward": Maybe(JOB_CARD),
        "hours": HOURS,
        "done": Bool(),
        "by": Maybe(SEAT),
        "workers": WORKER_LIST,
    }
)
JOBS = DictOf(SUIT, JOB, len(SUITS))
TRICK = Record({"plays": ListOf(PLAY, 0, PER_SEAT), "winner": SEAT})
REQUISITION = Record(
    {
        "job": SUIT,
        "jack": Bool(),
        "queen": Bool(),
        "king": Bool(),
        "revealers": SEATS,
        "revealed": ListOf(Record({"seat": SEAT, "cards": WORKER_LIST}), 0, PER_SEAT),
        "north": ListOf(Record({"seat": Maybe(SEAT), "card": CARD}), 0, len(WORKERS)),
    }
)
YEAR = Record(
    {
        "year": Int(1, YEARS),
        "planner": SEAT,
        "trump": Maybe(SUIT),
        "hand_size": Int(0, HAND),
        "brigadiers": SEATS,
        "won": Maybe(exactly(Int(0, HAND), PER_SEAT)),
        "completed": DictOf(SUIT, Maybe(SEAT), len(SUITS)),
        "jobs": JOBS,
        "last_trick": Maybe(TRICK),
        "requisitions": ListOf(REQUISITION, 0, len(SUITS)),
    }
)

SHAPE = GameShape(
    options=Record({"deal": OneOf("box", "cards")}),
    state=Record(
        {
            "deck": WORKER_LIST,
            "piles": DictOf(SUIT, ListOf(JOB_CARD, 0, len(JOB_CARDS)), len(SUITS)),
            "year": Int(1, YEARS),
            "planner": SEAT,
            "phase": OneOf("trump", "play", "assign", "reveal", "plot", "over"),
            "trump": Maybe(SUIT),
            "trump_broken": Bool(),
            "jobs": JOBS,
            "hands": ListOf(WORKER_LIST, 0, PER_SEAT),
            "hand_size": Int(0, HAND),
            "tricks": Int(0, HAND),
            "tricks_played": Int(0, HAND),
            "leader": SEAT,
            "turn": SEAT,
            "trick": ListOf(PLAY, 0, PER_SEAT),
            "to_assign": WORKER_LIST,
            "brigadier": Maybe(SEAT),
            "brigadiers": SEATS,
            "won": Maybe(ListOf(Int(0, HAND), 0, PER_SEAT)),
            "plots": ListOf(Record({"hidden": CARD_LIST, "shown": CARD_LIST}), 0, PER_SEAT),
            "north": CARD_LIST,
            "unclaimed": ListOf(JOB_CARD, 0, len(JOB_CARDS)),
            "last_trick": Maybe(TRICK),
            "history": ListOf(YEAR, 0, YEARS),
            "closing": Maybe(YEAR),
            "failed": ListOf(SUIT, 0, len(SUITS)),
            "requisition": Maybe(REQUISITION),
            "revealing": SEATS,
            "held": ListOf(Int(0, HAND), 0, PER_SEAT),
            "suits_left": ListOf(ListOf(SUIT, 0, len(SUITS)), 0, PER_SEAT),
            "voids": ListOf(DictOf(SUIT, Int(0, HAND), len(SUITS)), 0, PER_SEAT),
            "trump_only": ListOf(Maybe(Int(0, HAND)), 0, PER_SEAT),
            "slots": ListOf(ListOf(ListOf(SUIT, 0, len(SUITS)), 0, 4 * YEARS), 0, PER_SEAT),
            "entry": Maybe(Str(20)),
        }
    ),
)
