"""The vote on the TV and the phones: the round, the history of its results, the table.

Written from the public view alone, through the box's catalog (``t``); the picture
is drawn from the pieces of ``companion.web.pictures``.
"""

from __future__ import annotations

from typing import Any

from companion.ui.i18n import Translate
from companion.web.pictures import (
    Names,
    around_the_table,
    oval_table,
    svg,
    tags_on_discs,
    text,
    wrapped,
)
from companion.web.tv import seat_option, seats_words

View = dict[str, Any]


def status_words(view: View, ui: Any, t: Translate) -> str:
    """The OLED's status line said in words, for the room."""
    return t("Round {round} of the vote").format(**view)


def for_the_table(kind: str, t: Translate) -> str | None:
    """A hand-over line rewritten for the table; None keeps the box's role line."""
    return {"vote": t("Voting in secret.")}.get(kind)


def private_card(own: View, public: View, ui: Any, t: Translate) -> list[str]:
    """No private card: a seat's vote is its own until the reveal."""
    return []


def ask_words(d: Any, view: View, t: Translate) -> list[str] | None:
    """A seat's question on its phone, in sentences (its page names the seat)."""
    if d.kind == "who":
        return [t("You chair the round: who votes now?")]
    if d.kind == "pick_voter":
        voters = list(view["voters"])
        so_far = (
            t("Voting so far: {seats}.").format(seats=seats_words(voters, t))
            if voters
            else t("No seat votes yet.")
        )
        return [t("You chair the round: pick the seats who vote, one at a time."), so_far]
    if d.kind == "next":
        return [t("You chair the game: another round, or the end?")]
    if d.kind == "vote":
        return [t("Vote in secret: nobody sees your choice before the reveal.")]
    return None


def option_words(d: Any, view: View, option: Any, t: Translate) -> str | None:
    """Each answer on a phone, in words: a seat, the chair's choices, a vote's option."""
    from companion.games.vote.rules import AGAIN, DONE, END, EVERY, PICK

    if isinstance(option, int):
        return seat_option(option, t)
    words = {
        EVERY: t("Every seat votes"),
        PICK: t("Pick the seats who vote"),
        DONE: t("Done picking"),
        AGAIN: t("Another round"),
        END: t("End the game"),
        "yes": t("Yes"),
        "no": t("No"),
        "success": t("Success"),
        "fail": t("Fail"),
        "approve": t("Approve"),
        "reject": t("Reject"),
    }
    return words.get(option) or t("Option {letter}").format(letter=str(option).upper())


def history_lines(view: View, ui: Any, t: Translate) -> list[str]:
    """One line a round, the latest first, as its reveal showed it."""
    lines = []
    for line in reversed(view["history"]):
        said = " · ".join(ui.reveal_lines(line, list(view["choices"]), t))
        lines.append(t("Round {n}: {said}").format(n=line["round"], said=said))
    return lines


def picture(view: dict[str, Any], t: Translate, names: Names | None = None) -> str:
    """The table, the round's voters marked (a named seat's name on a tag on its disc),
    and the history of the results."""
    from companion.games.vote import screens

    players = view["players"]
    voters = set(view["voters"]) if view["phase"] == "vote" else set()
    body = [text(20, 50, status_words(view, screens, t), 40), oval_table(players)]
    for seat in range(players):
        x, y = around_the_table(players, seat)
        fill = "#1565c0" if seat in voters else "#fff"
        ink = "#fff" if seat in voters else "#111"
        body += [
            f'<circle cx="{x:.0f}" cy="{y:.0f}" r="44" fill="{fill}" '
            'stroke="#111" stroke-width="2"/>',
            text(x, y + 12, str(seat + 1), 36, fill=ink, text_anchor="middle"),
        ]
    body += tags_on_discs(players, names or {})
    rows: list[str] = []  # the newest results, whole, in the three rows above the table
    for line in history_lines(view, screens, t):
        cut = wrapped(line, 960)
        if len(rows) + len(cut) > 3:
            break
        rows += cut
    body += [text(20, 100 + 34 * i, row) for i, row in enumerate(rows)]
    return svg(1000, 660, body)


def reveal_words(before: View | None, after: View, t: Translate) -> list[list[str]]:
    """A round's result in sentences for the room: the cards in their shuffled order, the
    count of each option, or (an open vote) who chose what; never more than the reveal."""
    from companion.games.vote import screens

    if before is None or len(after["history"]) == len(before["history"]):
        return []
    line = after["history"][-1]
    n = line["round"]
    if line["cards"] is not None:
        cards = ", ".join(screens.option_label(c, t) for c in line["cards"])
        return [[t("Round {n}: the cards are {cards}.").format(n=n, cards=cards)]]
    counts = ", ".join(
        t("{option} {count}").format(option=screens.option_label(o, t), count=k)
        for o, k in zip(after["choices"], line["tally"], strict=True)
    )
    said = [t("Round {n}: {counts}.").format(n=n, counts=counts)]
    if line["open"] is not None:
        for seat, choice in zip(line["voters"], line["open"], strict=True):
            option = screens.option_label(choice, t)
            said.append(t("Seat {n} chose {option}.").format(n=seat + 1, option=option))
    return [said]
