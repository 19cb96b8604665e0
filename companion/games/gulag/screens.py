"""Gulag's screens: what the box says at each step, read from the game's views only."""

from __future__ import annotations

from typing import Any

from companion.games import Decision, IllegalMove
from companion.games.gulag.rules import Gulag
from companion.ui import refusals
from companion.ui.canvas import Screen
from companion.ui.defaults import cards_label as cards_label
from companion.ui.defaults import cursor_start as cursor_start
from companion.ui.defaults import label_by_option
from companion.ui.defaults import open_check as open_check
from companion.ui.defaults import opening as opening
from companion.ui.defaults import option_detail as option_detail
from companion.ui.defaults import tracker as tracker
from companion.ui.i18n import Translate
from companion.ui.settings import setup_rows

TITLE = "Gulag"

#: setup rows: option key -> values (the first is the default); players come first
SETTINGS = setup_rows(Gulag)


def setting_label(key: str, t: Translate) -> str:
    return {"players": t("Players"), "deal": t("Deal"), "deck": t("Deck")}[key]


def setting_value(key: str, value: Any, t: Translate) -> str:
    if key == "deal":
        return t("by the box") if value == "box" else t("own cards")
    if key == "deck":
        return t("English") if value == "en" else t("French")
    return str(value)


def status(view: dict[str, Any], t: Translate) -> str:
    return t("Turn {turn}/{turns} Canal {canal}").format(**view)


def bar(view: dict[str, Any]) -> int:
    """The LED bar is the printed score track: one LED a Work card, 0 to 10."""
    return min(view["canal"], 10)


def seat_label(seat: int, t: Translate) -> str:
    return t("seat {n}").format(n=seat + 1)


def option_label(option: Any, t: Translate) -> str:
    labels = {
        "none": t("no one"),
        "red": t("red"),
        "black": t("black"),
        "work": t("Work"),
        "strike": t("Strike"),
    }
    return seat_label(option, t) if isinstance(option, int) else labels[option]


choice_label = label_by_option(option_label)


def role_of(decision: Decision, view: dict[str, Any], t: Translate) -> str:
    """What the seat asked is doing, for the hand-over screen."""
    return {
        "peek": t("Look at a card."),
        "pick_worker": t("Commissar: pick the team."),
        "pick_supervisor": t("Commissar: pick the team."),
        "task": t("Worker: play a card."),
        "supervise": t("Supervisor: give an order."),
        "reveal_role": t("Show your worker card."),
    }[decision.kind]


def candidates(decision: Decision, view: dict[str, Any]) -> list[Any]:
    """What the cursor runs through: every seat for picks, so refusals can be explained."""
    if decision.kind in ("pick_worker", "pick_supervisor"):
        return list(range(view["players"]))
    return list(decision.options)


def choice_buttons(decision: Decision) -> tuple[Any, Any] | None:
    """The options on the A and B buttons, for a secret choice."""
    return ("work", "strike") if decision.kind == "task" else None


def prompt(decision: Decision, view: dict[str, Any], t: Translate) -> list[str]:
    seat = decision.seats[0] + 1
    kind = decision.kind
    if kind in ("pick_worker", "pick_supervisor"):
        picked = " ".join(str(s + 1) for s in view["workers"])
        if kind == "pick_supervisor":
            question = t("{picked} and supervisor?").format(picked=picked)
        elif picked:
            question = t("{picked} and worker {n}?").format(picked=picked, n=2)
        else:
            question = t("worker {n}?").format(n=1)
        return [t("Seat {seat}, commissar:").format(seat=seat), question]
    if kind == "supervise":
        return [t("Seat {seat}, supervisor:").format(seat=seat), t("order a swap?")]
    if kind == "reveal_role":
        return [t("Seat {seat}: your worker").format(seat=seat), t("card is")]
    if kind == "task":
        return [t("Seat {seat}, worker:").format(seat=seat), t("play Work or Strike.")]
    if kind == "peek":
        right = (decision.seats[0] - 1) % view["players"] + 1
        return [
            t("Seat {seat}: hold PEEK").format(seat=seat),
            t("to see the card of"),
            t("seat {n} (your right).").format(n=right),
        ]
    raise KeyError(kind)


#: the engine's refusals (companion.games.gulag.rules) by code -> the screen's words, short
#: enough for the screen and still naming the rule and the seat
REFUSALS = {
    "self_pick": "G3: the commissar never selects themself.",
    "picked": "Seat {seat} is already selected.",
    "not_new": "G4: seat {seat} was selected last turn; {need} of 3 must be new.",
    "supervise": "G5: order one of the two workers, or no one.",
    "deck": "G1: only {count} {card} cards.",
}


def refusal(refused: IllegalMove, t: Translate) -> str:
    """The engine's refusal in the table's language, short enough to fit, naming the rule."""
    return refusals.render(refused, REFUSALS, t, _refusal_facts)


def _refusal_facts(facts: refusals.Facts, t: Translate) -> refusals.Facts:
    if "card" in facts:
        return {**facts, "card": option_label(facts["card"], t)}
    return facts


def peek(view: dict[str, Any], t: Translate) -> Screen:
    """The private card, shown only while PEEK is held."""
    card = view["right_card"]
    big = t("RED") if card == "red" else t("BLACK")
    return Screen(
        status(view, t),
        (t("Seat {n} is").format(n=view["right"] + 1),),
        t("Release to hide"),
        big=big,
    )


def announcements(before: dict[str, Any], after: dict[str, Any], t: Translate) -> list[Screen]:
    """What the table must see after a move: the order, the inspection.

    The order's screen keeps the header of the view before the move: the canal
    moves on the inspection's screen, which shows the turn it tells about."""
    if len(after["history"]) == len(before["history"]):
        return []
    turn = after["history"][-1]
    screens = []
    if turn["ordered"] is not None:
        screens.append(
            Screen(
                status(before, t),
                (
                    t("The supervisor"),
                    t("ordered seat {n}").format(n=turn["ordered"] + 1),
                    t("to swap the card."),
                ),
                t("OK: inspect"),
            )
        )
    cards = ", ".join(option_label(c, t) for c in after["last_inspection"])
    screens.append(
        Screen(
            status({**after, "turn": turn["turn"]}, t),
            (t("Cards: {cards}").format(cards=cards),),
            t("OK: next"),
            big=t("Canal ↑{n}").format(n=turn["work"]),
        )
    )
    return screens


def final(view: dict[str, Any], t: Translate) -> list[Screen]:
    result = view["result"]
    roles = view["roles"]
    red = [str(i + 1) for i, r in enumerate(roles) if r == "red"]
    black = [str(i + 1) for i, r in enumerate(roles) if r == "black"]
    headline = {
        "red": t("RED WIN"),
        "black": t("BLACK WIN"),
        "draw": t("DRAW"),
    }[result["outcome"]]
    canal, goal = view["canal"], 2 * len(red)
    # G7: the goal is 2 Work cards a red worker; the canal must pass it to be built
    if canal > goal:
        why = t("Canal built: {canal} > {goal}").format(canal=canal, goal=goal)
    elif canal < goal:
        why = t("Canal failed: {canal} < {goal}").format(canal=canal, goal=goal)
    elif result["outcome"] == "draw":
        why = t("Canal = {goal}: even").format(goal=goal)
    else:
        why = t("Canal = {goal}: fewer win").format(goal=goal)
    keys = t("▲▼ page  hold OK: new")
    return [
        Screen(t("Game over"), (why,), keys, big=headline),
        Screen(
            t("Game over"),
            (
                t("Red: {seats}").format(seats=" ".join(red) or "-"),
                t("Black: {seats}").format(seats=" ".join(black) or "-"),
                t("Goal: 2 × {red} red = {goal}").format(red=len(red), goal=goal),  # noqa: RUF001
            ),
            keys,
        ),
    ]
