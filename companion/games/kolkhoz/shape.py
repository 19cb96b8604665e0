"""The shape of a saved Kolkhoz game and its invariants (see ``companion/games/shape.py``).

The invariants say where the 52 cards are: each worker and each job card in
exactly one place (with the box dealing) or at most one known place with the
unknown ones still enough for the hands and hidden plot cards (at a real
table, where the box never sees a hand).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from companion.games.kolkhoz.cards import (
    HAND,
    JOB_CARDS,
    SUITS,
    THRESHOLD,
    WORKERS,
    YEARS,
    hours_of,
)
from companion.games.shape import (
    PER_SEAT,
    SEAT,
    SEATS,
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


# -- invariants ------------------------------------------------------------------------
def _clerk(record: dict[str, Any]) -> bool:
    return bool(record["options"]["deal"] == "cards")


def _years(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The summaries of the years ended (the last one's while its requisitions run)."""
    return [*state["history"], *([state["closing"]] if state["closing"] else [])]


def _requisitions(state: dict[str, Any], years: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The requisitions of ``years``, and the one running."""
    running = [state["requisition"]] if state["requisition"] is not None else []
    return [*(r for year in years for r in year["requisitions"]), *running]


def _placed(state: dict[str, Any], clerk: bool) -> list[str]:
    """Every card the box knows the place of, once a place (the year's summaries and the
    last trick are copies, not places)."""
    cards: list[str] = list(state["deck"]) + list(state["north"]) + list(state["unclaimed"])
    for hand in state["hands"]:
        cards += hand
    for plot in state["plots"]:
        cards += plot["hidden"] + plot["shown"]
    for pile in state["piles"].values():
        cards += pile
    for job in state["jobs"].values():
        cards += job["workers"]
        if not job["done"]:
            cards.append(job["reward"])  # a job done put its card in the brigadier's plot
    # once a trick is full its cards are at their jobs, the trump ones waiting to be
    cards += state["to_assign"]
    if state["phase"] != "assign":
        cards += [play["card"] for play in state["trick"]]
    requisition = state["requisition"]
    if clerk and requisition is not None and state["phase"] == "reveal":
        for revealed in requisition["revealed"]:  # the seat revealing: entered, not yet shown
            if revealed["seat"] == state["revealing"][0]:
                cards += revealed["cards"]
    return cards


def _cards_in_one_place(record: dict[str, Any], facts: Facts) -> bool:
    state, clerk = record["state"], _clerk(record)
    counts = Counter(_placed(state, clerk))
    if any(n > 1 for n in counts.values()) or not set(counts) <= {*WORKERS, *JOB_CARDS}:
        return False
    if not clerk:
        return len(counts) == len(WORKERS) + len(JOB_CARDS)
    if any(card not in counts for card in JOB_CARDS):  # the box holds every job card
        return False
    unseen = len(WORKERS) - sum(card in counts for card in WORKERS)
    return unseen >= sum(state["held"]) + sum(len(slots) for slots in state["slots"])


def _seat_lists(record: dict[str, Any], facts: Facts) -> bool:
    state, players = record["state"], facts["players"]
    per_seat = ["hands", "plots"] + (
        ["held", "suits_left", "voids", "trump_only", "slots"] if _clerk(record) else []
    )
    won = state["won"]
    return all(len(state[key]) == players for key in per_seat) and (
        won is None or len(won) == players
    )


def _year(record: dict[str, Any], facts: Facts) -> bool:
    """The planner rotates from seat 1 a year; the summaries are of the years past."""
    state = record["state"]
    over = state["phase"] in ("over", "plot")
    return state["planner"] == (state["year"] - 1) % facts["players"] and len(state["history"]) == (
        YEARS if over else state["year"] - 1
    )


def _trick(record: dict[str, Any], facts: Facts) -> bool:
    """The seat to play follows the trick's leader; the tricks are the hand's but one."""
    state = record["state"]
    return (
        state["tricks"] == max(state["hand_size"] - 1, 0)
        and state["tricks_played"] <= state["tricks"]
        and (
            state["phase"] != "play"
            or state["turn"] == (state["leader"] + len(state["trick"])) % facts["players"]
        )
    )


def _phase(record: dict[str, Any], facts: Facts) -> bool:
    """What each phase works on is there: four jobs in a year, a brigadier to assign."""
    state = record["state"]
    phase = state["phase"]
    if phase in ("trump", "play", "assign") and set(state["jobs"]) != set(SUITS):
        return False
    if (phase == "assign") != bool(state["to_assign"]):
        return False
    if phase == "assign" and (
        state["brigadier"] is None or len(state["trick"]) != facts["players"]
    ):
        return False
    if phase == "reveal" and (state["requisition"] is None or not state["revealing"]):
        return False
    return phase != "plot" or any(state["slots"])


def _year_cards(record: dict[str, Any], facts: Facts) -> bool:
    """While a year is played, its dealt cards are in the hands or played (in the trick, at
    a job, or waiting for one): nothing dealt goes elsewhere before the year's end; while
    its requisitions run, its tricks' cards are at the jobs (or the trump Jack north)."""
    state = record["state"]
    if state["phase"] == "reveal":  # every trick played: at the jobs, or the Jack north
        closing = [state["closing"]] if state["closing"] else []
        jacks = sum(x["seat"] is None for r in _requisitions(state, closing) for x in r["north"])
        at_jobs = sum(len(job["workers"]) for job in state["jobs"].values())
        return at_jobs + jacks == state["tricks"] * facts["players"]
    if state["phase"] not in ("trump", "play", "assign"):
        return True
    held = sum(state["held"]) if _clerk(record) else sum(map(len, state["hands"]))
    played = sum(len(job["workers"]) for job in state["jobs"].values()) + len(state["to_assign"])
    if state["phase"] == "play":
        played += len(state["trick"])
    return held + played == state["hand_size"] * facts["players"]


def _hours(record: dict[str, Any], facts: Facts) -> bool:
    """K4: while the year is played, a job's hours are its workers' (until it is done)."""
    state = record["state"]
    if state["phase"] not in ("trump", "play", "assign"):
        return True
    for job in state["jobs"].values():
        work = sum(hours_of(card, state["trump"]) for card in job["workers"])
        if job["done"] != (job["hours"] >= THRESHOLD) or not job["hours"] <= work:
            return False
        if not job["done"] and job["hours"] != work:
            return False
    return True


def _kept_cards(record: dict[str, Any], facts: Facts) -> bool:
    """K3: each year's end puts a seat's last card in its plot (a hand of h cards plays h - 1
    tricks); from there a card is shown or sent north, and the trump Jack goes north from its
    job: the workers in the plots (seen or not) and north are exactly these."""
    state = record["state"]
    years = _years(state)
    kept = sum(facts["players"] for year in years if year["hand_size"] > 0)
    requisitions = _requisitions(state, years)
    kept += sum(x["seat"] is None for r in requisitions for x in r["north"])  # the Jacks
    out = [c for c in state["north"] if c in WORKERS]
    for plot in state["plots"]:
        out += [c for c in plot["hidden"] + plot["shown"] if c in WORKERS]
    if state["phase"] == "reveal" and state["requisition"] is not None:
        revealing = state["revealing"][0]  # entered at a real table, not yet shown
        out += [
            c
            for r in state["requisition"]["revealed"]
            if r["seat"] == revealing
            for c in r["cards"]
        ]
    slots = sum(len(x) for x in state["slots"]) if _clerk(record) else 0
    return len(out) + slots == kept


def _north(record: dict[str, Any], facts: Facts) -> bool:
    """The cards north are those the requisitions sent there."""
    state = record["state"]
    requisitions = _requisitions(state, _years(state))
    sent = Counter(x["card"] for r in requisitions for x in r["north"])
    return sent == Counter(state["north"])


INVARIANTS = (
    Invariant("every card in exactly one place", _cards_in_one_place),
    Invariant("the year's dealt cards in the hands or played", _year_cards),
    Invariant("a job's hours are its workers' work", _hours),
    Invariant("a card a seat kept each year, in the plots or north", _kept_cards),
    Invariant("the cards north are those the requisitions sent", _north),
    Invariant("one hand, plot and count a seat", _seat_lists),
    Invariant("the planner and the summaries agree with the year", _year),
    Invariant("the tricks agree with the hand and the seat to play", _trick),
    Invariant("the phase has what it works on", _phase),
)

SHAPE = GameShape(
    invariants=INVARIANTS,
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
