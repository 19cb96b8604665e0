"""Gulag on the TV and the phones: its status in words, what a seat is doing, its picture.

Read by the whole table from across the room, so every line is a sentence
written from the public view alone, through the box's catalog (``t``); the
picture is drawn from the pieces of ``companion.web.pictures``.
"""

from __future__ import annotations

from typing import Any

from companion.games.gulag import screens
from companion.ui.i18n import Translate
from companion.web.pictures import (
    Names,
    around_the_table,
    bar,
    oval_table,
    svg,
    tags_on_discs,
    text,
)
from companion.web.tv import seat_option, seats_words

View = dict[str, Any]

__all__ = [
    "ask_words",
    "end_words",
    "for_the_table",
    "option_words",
    "picture",
    "private_card",
    "reveal_words",
    "status_words",
]


def status_words(view: View, ui: Any, t: Translate) -> str:
    """The OLED's status line said in words, for the room."""
    return t("Turn {turn} of {turns} · Canal {canal} of {canal_max}").format(**view)


def for_the_table(kind: str, t: Translate) -> str | None:
    """A hand-over line that speaks to the seat holding the box, rewritten for the table;
    None keeps the box's role line."""
    lines = {
        "peek": t("Looking at the card of the seat on their right."),
        "reveal_role": t("Showing a worker card to the table."),
    }
    return lines.get(kind)


def private_card(own: View, public: View, ui: Any, t: Translate) -> list[str]:
    """The seat's PEEK card said whole ("Seat 7, on your right, is black.")."""
    if own.get("right_card") is None:  # own role cards: the box knows no card
        return []
    return [
        t("Seat {n}, on your right, is {colour}.").format(
            n=own["right"] + 1, colour=ui.option_label(own["right_card"], t)
        )
    ]


def ask_words(d: Any, view: View, t: Translate) -> list[str] | None:
    """A seat's question on its phone, in a sentence (its page names the seat)."""
    kind, picked = d.kind, view["workers"]
    if kind == "pick_worker" and not picked:
        return [t("You are the commissar: choose the first worker.")]
    if kind == "pick_worker":
        return [
            t("You are the commissar: seat {n} works; choose the second worker.").format(
                n=picked[0] + 1
            )
        ]
    if kind == "pick_supervisor":
        return [
            t("You are the commissar: {seats} work; choose the supervisor.").format(
                seats=seats_words(list(picked), t)
            )
        ]
    if kind == "supervise":
        return [t("You are the supervisor: order one worker to swap their card, or no one.")]
    if kind == "task":
        return [t("You are a worker: play Work or Strike.")]
    if kind == "reveal_role":
        return [t("Turn your worker card face up for the table: which colour is it?")]
    return None  # a peek: the room's own words for a phone (``companion.web.tv``)


def option_words(d: Any, view: View, option: Any, t: Translate) -> str | None:
    """Each answer on a phone, in words: a seat, no one, a card to play or to show."""
    if isinstance(option, int):
        return seat_option(option, t)
    words = {
        "none": t("No one"),
        "work": t("Work"),
        "strike": t("Strike"),
        "red": t("Red"),
        "black": t("Black"),
    }
    return words.get(option)


def reveal_words(before: View | None, after: View, t: Translate) -> list[list[str]]:
    """A turn's end: the supervisor's order, the inspected cards (in the order the box
    shuffled them, never by seat) and the canal's growth."""
    if before is None or len(after["history"]) == len(before["history"]):
        return []
    turn = after["history"][-1]
    said = []
    if turn["ordered"] is not None:
        said.append(
            [t("The supervisor ordered seat {n} to swap their card.").format(n=turn["ordered"] + 1)]
        )
    cards = ", ".join(screens.option_label(c, t) for c in after["last_inspection"])
    grew = (
        t("The canal grows by {n} to {canal}.").format(n=turn["work"], canal=after["canal"])
        if turn["work"]
        else t("The canal does not grow.")
    )
    said.append(
        [
            t("Turn {turn}: the cards played are {cards}.").format(turn=turn["turn"], cards=cards),
            grew,
        ]
    )
    return said


def end_words(view: View, t: Translate) -> list[list[str]]:
    """The end in sentences: the canal against its goal (G7), then every role card."""
    roles = view["roles"]
    red = [i for i, r in enumerate(roles) if r == "red"]
    black = [i for i, r in enumerate(roles) if r == "black"]
    canal, goal = view["canal"], 2 * len(red)
    if canal > goal:
        why = t("The canal reached {canal}, past its goal of {goal}: it is built.")
    elif canal < goal:
        why = t("The canal reached {canal}, short of its goal of {goal}: it failed.")
    elif view["result"]["outcome"] == "draw":
        why = t("The canal reached its goal of {goal} exactly: a draw.")
    else:
        why = t("The canal reached its goal of {goal} exactly: the smaller team wins.")
    goal_words = t("The goal is 2 for each red worker (G7).")
    return [
        [why.format(canal=canal, goal=goal), goal_words],
        [
            t("Red: {seats}.").format(seats=seats_list(red, t)),
            t("Black: {seats}.").format(seats=seats_list(black, t)),
        ],
    ]


def seats_list(seats: list[int], t: Translate) -> str:
    """Seats as a list for a sentence ("seats 1, 3 and 6"), or "nobody"."""
    return seats_words(seats, t) if seats else t("nobody")


def picture(view: dict[str, Any], t: Translate, names: Names | None = None) -> str:
    """The canal against its goal, the deck, and the table: who is commissar, supervisor
    and worker this turn; a named seat's name on a tag on its disc."""
    players = view["players"]
    body = [
        text(20, 50, t("Canal {canal} of {canal_max}").format(**view), 40),
        *bar(20, 70, 960, view["canal"], view["canal_max"], "#1565c0"),
        oval_table(players),
        text(
            500,
            412,
            t("Deck: {red} red, {black} black").format(**view["deck"]),
            30,
            fill="#fff",
            text_anchor="middle",
        ),
    ]
    team = set(view["workers"])
    roles_said = {
        "commissar": t("commissar"),
        "supervisor": t("supervisor"),
        "worker": t("worker"),
    }
    fills = {"commissar": "#b71c1c", "supervisor": "#f9a825", "worker": "#1565c0"}
    roles = view.get("roles")
    winners = set((view.get("result") or {}).get("winners") or ())
    for seat in range(players):
        x, y = around_the_table(players, seat)
        role = (
            "commissar"
            if seat == view["commissar"]
            else "supervisor"
            if seat == view["supervisor"]
            else "worker"
            if seat in team
            else ""
        )
        fill = fills.get(role, "#fff")
        if roles:  # the game is over: every role card is told (G7)
            fill = "#b71c1c" if roles[seat] == "red" else "#212121"
        ink = "#111" if fill in ("#fff", "#f9a825") else "#fff"
        if seat in winners:
            body.append(
                f'<circle cx="{x:.0f}" cy="{y:.0f}" r="54" fill="none" stroke="#f9a825" '
                'stroke-width="8"/>'
            )
        body += [
            f'<circle cx="{x:.0f}" cy="{y:.0f}" r="44" fill="{fill}" '
            'stroke="#111" stroke-width="2"/>',
            text(x, y + 12, str(seat + 1), 36, fill=ink, text_anchor="middle"),
        ]
        if roles:
            role_name = t("red") if roles[seat] == "red" else t("black")
            below = y + 76 if y >= 400 else y - 54
            body.append(text(x, below, role_name, 26, text_anchor="middle"))
        elif role:
            below = y + 76 if y >= 400 else y - 54
            body.append(text(x, below, roles_said[role], 26, text_anchor="middle"))
    body += tags_on_discs(players, names or {})
    return svg(1000, 660, body)
