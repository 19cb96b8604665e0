"""The vote's screens: what the box says at each step, read from the game's views only."""

from __future__ import annotations

from typing import Any

from companion.games import Decision, IllegalMove
from companion.games.vote.rules import AGAIN, DONE, END, EVERY, PICK, Vote
from companion.ui import refusals
from companion.ui.canvas import BODY_LINES, Screen, wrap
from companion.ui.defaults import cards_label as cards_label
from companion.ui.defaults import cursor_start as cursor_start
from companion.ui.defaults import label_by_option
from companion.ui.defaults import open_check as open_check
from companion.ui.defaults import opening as opening
from companion.ui.defaults import option_detail as option_detail
from companion.ui.defaults import peek as peek
from companion.ui.defaults import tracker as tracker
from companion.ui.i18n import Translate
from companion.ui.settings import setup_rows

TITLE = "Vote"

#: setup rows: option key -> values (the first is the default); players come first
SETTINGS = setup_rows(Vote)


def setting_label(key: str, t: Translate) -> str:
    return {"players": t("Players"), "choice": t("Choice"), "reveal": t("Reveal")}[key]


def setting_value(key: str, value: Any, t: Translate) -> str:
    if key == "choice":
        return {
            "yes_no": t("Yes/No"),
            "success_fail": t("Success/Fail"),
            "approve_reject": t("Approve/Reject"),
            "abc": "A/B/C",
            "abcd": "A/B/C/D",
        }[value]
    if key == "reveal":
        return {"cards": t("shuffled cards"), "tally": t("tally only"), "open": t("open")}[value]
    return str(value)


def status(view: dict[str, Any], t: Translate) -> str:
    return t("Vote: round {round}").format(**view)


def bar(view: dict[str, Any]) -> int:
    """The LED bar shows the round: 1 to 10 LEDs, round 11 lights one again."""
    return (view["round"] - 1) % 10 + 1


def seat_label(seat: int, t: Translate) -> str:
    return t("seat {n}").format(n=seat + 1)


def option_label(option: Any, t: Translate) -> str:
    if isinstance(option, int):
        return seat_label(option, t)
    labels = {
        EVERY: t("every seat"),
        PICK: t("pick the seats"),
        DONE: t("done picking"),
        AGAIN: t("another round"),
        END: t("end the game"),
        "yes": t("Yes"),
        "no": t("No"),
        "success": t("Success"),
        "fail": t("Fail"),
        "approve": t("Approve"),
        "reject": t("Reject"),
    }
    return labels.get(option) or str(option).upper()  # A, B, C, D


choice_label = label_by_option(option_label)


def role_of(decision: Decision, view: dict[str, Any], t: Translate) -> str:
    """What the seat asked is doing, for the hand-over screen."""
    if decision.kind == "vote":
        return t("Vote in secret.")
    return t("Chair: set the round.") if decision.kind != "next" else t("Chair: go on?")


def candidates(decision: Decision, view: dict[str, Any]) -> list[Any]:
    """What the cursor runs through: every seat for a pick (a refused one says why); for a
    secret vote of more than two options, the options from the one the seat's cursor opens
    on (drawn by the game, V4), so the presses to any option are as many for every choice."""
    if decision.kind == "pick_voter":
        return [*range(view["players"]), DONE]
    options = list(decision.options)
    if decision.kind == "vote":
        start = view.get("start", 0)  # a public view (the TV) has none
        return options[start:] + options[:start]
    return options


def choice_buttons(decision: Decision) -> tuple[Any, Any] | None:
    """A and B for a vote of two options; with more, the cursor (pads serve two only)."""
    if decision.kind == "vote" and len(decision.options) == 2:
        return decision.options[0], decision.options[1]
    return None


def prompt(decision: Decision, view: dict[str, Any], t: Translate) -> list[str]:
    seat = decision.seats[0] + 1
    kind = decision.kind
    if kind == "who":
        return [t("Seat {seat}, chair:").format(seat=seat), t("who votes now?")]
    if kind == "pick_voter":
        picked = " ".join(str(s + 1) for s in view["voters"]) or "-"
        return [
            t("Seat {seat}, chair:").format(seat=seat),
            t("voters: {picked}").format(picked=picked),
            t("add a seat, or done"),
        ]
    if kind == "next":
        return [t("Seat {seat}, chair:").format(seat=seat), t("another round?")]
    if kind == "vote":
        first, second, *more = decision.options
        if more:
            return [t("Seat {seat}: vote").format(seat=seat), t("in secret, then OK.")]
        return [
            t("Seat {seat}: vote").format(seat=seat),
            t("A: {a}  B: {b}").format(a=option_label(first, t), b=option_label(second, t)),
        ]
    raise KeyError(kind)


#: the engine's refusals (companion.games.vote.rules) by code -> the screen's words
REFUSALS = {
    "picked": "V3: seat {seat} already votes.",
    "no_voter": "V3: pick a seat first.",
    "last_round": "V6: 99 rounds at most.",
}


def refusal(refused: IllegalMove, t: Translate) -> str:
    """The engine's refusal in the table's language, naming the rule."""
    return refusals.render(refused, REFUSALS, t)


def reveal_lines(line: dict[str, Any], choices: list[str], t: Translate) -> list[str]:
    """V5: a round's result as the reveal shows it, a sentence each (unwrapped): the cards in
    their shuffled order, the count of each option, or each option's seats."""
    if line["cards"] is not None:
        cards = ", ".join(option_label(c, t) for c in line["cards"])
        return [t("Cards: {cards}").format(cards=cards)]
    if line["open"] is not None:
        lines: list[str] = []
        for option in choices:
            chosen = zip(line["voters"], line["open"], strict=True)
            seats = [str(v + 1) for v, c in chosen if c == option]
            lines.append(f"{option_label(option, t)}: {' '.join(seats) or '-'}")
        return lines
    return [f"{option_label(o, t)}: {n}" for o, n in zip(choices, line["tally"], strict=True)]


def announcements(before: dict[str, Any], after: dict[str, Any], t: Translate) -> list[Screen]:
    """The round's reveal, a page of three lines at a time; at the end, the count of the
    rounds, which the table reads before the last screens."""
    if after["phase"] == "over" and before["phase"] != "over":
        rounds = len(after["history"])
        return [Screen(status(after, t), (t("{n} rounds voted").format(n=rounds),), t("OK"))]
    if len(after["history"]) == len(before["history"]):
        return []
    said = reveal_lines(after["history"][-1], list(after["choices"]), t)
    lines = [part for sentence in said for part in wrap(sentence)]
    pages = [lines[i : i + BODY_LINES] for i in range(0, len(lines), BODY_LINES)]
    return [Screen(status(after, t), tuple(page), t("OK: next")) for page in pages]


def final(view: dict[str, Any], t: Translate) -> list[Screen]:
    """The end: how many rounds were voted (a ballot box names no winner)."""
    keys = t("▲▼ page  hold OK: new")
    rounds = len(view["history"])
    return [Screen(t("Game over"), (t("{n} rounds voted").format(n=rounds),), keys, big=t("END"))]
