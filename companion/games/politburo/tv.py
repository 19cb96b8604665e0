"""Politburo on the TV and the phones: its status in words, what a seat is doing, its picture.

Read by the whole table from across the room, so every line is a sentence
written from the public view alone, through the box's catalog (``t``); the
picture is drawn from the pieces of ``companion.web.pictures``.
"""

from __future__ import annotations

from typing import Any

from companion.games.politburo import screens
from companion.games.politburo.rules import (
    DONE,
    LEFT,
    MINISTRIES,
    NO,
    REFORM,
    REPRESS,
    YES,
    card_order,
)
from companion.ui.i18n import Translate
from companion.web.hand import peek_card as private_card
from companion.web.pictures import Names, bar, svg, text
from companion.web.tv import seat_option

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
    round_of = t("Round {round} of {rounds}").format(**view)
    if view["secretary"] is None:
        return round_of
    return round_of + " · " + t("Secretary: seat {n}").format(n=view["secretary"] + 1)


def for_the_table(kind: str, t: Translate) -> str | None:
    """A hand-over line that speaks to the seat holding the box, rewritten for the table."""
    return t("Reading a member card in secret.") if kind == "peek" else None


def ask_words(d: Any, view: View, t: Translate) -> list[str] | None:
    """A seat's question on its phone, in sentences (its page names the seat)."""
    kind = d.kind
    plan = view["plan"] or view["proposal"]
    ministry = screens.ministry_label(plan, t) if plan else ""
    said = {
        "propose": t("You are the secretary: choose the plan."),
        "plan_vote": t("Vote on the plan for {ministry}."),
        "plan_count": t("You are the secretary: how many thumbs up for {ministry}?"),
        "casting": t("You are the secretary: the vote on {ministry} is tied; you decide."),
        "replace": t("You are the secretary: replace an executor?"),
    }.get(kind)
    if said is not None:
        return [said.format(ministry=ministry)]
    if kind == "appoint":
        k = len(view["executors"]) + 1
        return [t("You are the secretary: appoint executor {k} of 3.").format(k=k)]
    if kind == "replace_by":
        return [t("You are the secretary: who replaces seat {n}?").format(n=view["replacing"] + 1)]
    if kind == "execute":
        return execute_words(d.seats[0], view, ministry, t)
    if kind == "point":
        return [t("The purge: point at one of the two other executors.")]
    return None  # a peek: the room's own words for a phone (``companion.web.tv``)


def option_words(d: Any, view: View, option: Any, t: Translate) -> str | None:
    """Each answer on a phone, in words: a seat, a plan, a count, a vote, a card, the
    executor pointed at (P7)."""
    if d.kind == "point":
        pointing = view["pointing"]
        target = pointing["targets"][pointing["executors"].index(d.seats[0])][option]
        side = t("Seat {n}, on your left") if option == LEFT else t("Seat {n}, on your right")
        return side.format(n=target + 1)
    if isinstance(option, int):
        return seat_option(option, t)
    if option in MINISTRIES:
        return t("The plan for {ministry}").format(ministry=screens.ministry_label(option, t))
    if option.isdigit():
        return t("Thumbs up: {n}").format(n=option)
    words = {
        YES: t("Yes"),
        NO: t("No"),
        REFORM: t("Reform"),
        REPRESS: t("Repress"),
        DONE: t("No one: the executors go on"),
    }
    return words.get(option)


def execute_words(seat: int, view: View, ministry: str, t: Translate) -> list[str]:
    """An executor's card to play: the execution, and the influence or (P6) its number."""
    k = view["execution"]
    lines = [
        t("You execute the plan for {ministry}, execution {k} of 3: reform or repress.").format(
            ministry=ministry, k=k
        )
    ]
    if k == 3:  # P6: the numbered cards are dealt by seat from the secretary's left
        order = card_order(view["executors"], view["secretary"], view["players"])
        lines.append(
            t("Your card is number {i}: the table sees it.").format(i=order.index(seat) + 1)
        )
    else:
        lines.append(influence_words(view, t))
    return lines


def influence_words(view: View, t: Translate) -> str:
    """Every seat's influence, said: "Influence: seat 1 has 3, seat 2 has 2, ..."."""
    each = [
        t("seat {n} has {amount}").format(n=seat + 1, amount=amount)
        for seat, amount in enumerate(view["influence"])
    ]
    return t("Influence: {list}.").format(list=", ".join(each))


def change_words(ministry: str, change: int, t: Translate) -> str:
    """A ministry's move on its track, in words (up is toward repression, P4)."""
    if change > 0:
        return t("{ministry} moves {n} toward repression.").format(ministry=ministry, n=change)
    if change < 0:
        return t("{ministry} moves {n} toward reform.").format(ministry=ministry, n=-change)
    return t("{ministry} does not move.").format(ministry=ministry)


def vote_words(record: dict[str, Any], t: Translate) -> str:
    """A plan's vote: its count only, as the thumbs showed it (who voted what is not kept)."""
    ministry = screens.ministry_label(record["ministry"], t)
    if record["casting"] is not None:
        said = (
            t("The vote on the plan for {ministry} is tied: the secretary passes it.")
            if record["approved"]
            else t("The vote on the plan for {ministry} is tied: the secretary rejects it.")
        )
        return said.format(ministry=ministry)
    said = (
        t("The plan for {ministry} passes {yes} to {no}.")
        if record["approved"]
        else t("The plan for {ministry} is rejected {yes} to {no}.")
    )
    return said.format(ministry=ministry, yes=record["thumbs_up"], no=record["thumbs_down"])


def reveal_words(before: View | None, after: View, t: Translate) -> list[list[str]]:
    """The votes, executions and purge a move revealed, each screen in sentences."""
    was = None if before is None else before["current"]
    if was is None:
        return []
    ended = len(after["history"]) > len(before["history"])  # type: ignore[index]
    now = after["history"][-1] if ended else after["current"]
    said = [[vote_words(r, t)] for r in now["proposals"][len(was["proposals"]) :]]
    ministry = screens.ministry_label(now["plan"], t) if now["plan"] else ""
    if now["automatic"] and not was["automatic"]:
        said.append(
            [
                t(
                    "Two plans were rejected: the plan for {ministry} passes without a vote (P3)."
                ).format(ministry=ministry)
            ]
        )
    for ex in now["executions"][len(was["executions"]) :]:
        k, repress, reform = ex["number"], ex["repress"], ex["reform"]
        lines = [
            t("Execution {k} of 3: {repress} for repression, {reform} for reform.").format(
                k=k, repress=repress, reform=reform
            )
        ]
        if repress == 3 or reform == 3:
            lines.append(change_words(ministry, now["change"], t))
        elif k < 3:
            lines.append(t("Not unanimous: the plan is executed again."))
        else:
            lines += [change_words(ministry, now["change"], t), t("Not unanimous: a purge.")]
        said.append(lines)
    purge = now["purge"]
    if purge is not None and was["purge"] is None:
        said.append(purge_words(purge, after, t))
    return said


def purge_words(purge: dict[str, Any], after: View, t: Translate) -> list[str]:
    """The third execution's cards by seat (P6 makes them known), the pointing, the loss."""
    order = purge["executors"]
    lines = [
        t("Seat {n} played {card}.").format(n=seat + 1, card=screens.option_label(card, t))
        for seat, card in zip(order, purge["cards"], strict=True)
    ]
    lines += [
        t("Seat {a} points at seat {b}.").format(a=seat + 1, b=target + 1)
        for seat, target in zip(order, purge["pointed"], strict=True)
    ]
    lines.append(t("Seat {n} is the deviant.").format(n=purge["deviant"] + 1))
    lines += [t("Seat {n} loses 1 influence.").format(n=s + 1) for s in purge["losers"]]
    lines.append(influence_words(after, t))
    return lines


def end_words(view: View, t: Translate) -> list[list[str]]:
    """The end in sentences: the influence lost against half the table, then each seat's
    member card, its influence and whether its card is fulfilled (P8, P9)."""
    first = [
        t("Influence lost in purges: {lost}; half the table: {half}.").format(
            lost=view["lost"], half=screens.half_label(view["players"], t)
        ),
        influence_words(view, t),
    ]
    cards = [
        (
            t("Seat {n}, {member}: card fulfilled.")
            if ok
            else t("Seat {n}, {member}: card not fulfilled.")
        ).format(n=seat + 1, member=member)
        for seat, (member, ok) in enumerate(zip(view["members"], view["fulfilled"], strict=True))
    ]
    return [first, cards]


def picture(view: dict[str, Any], t: Translate, names: Names | None = None) -> str:
    """The ministries' repression tracks, and each seat's influence (the secretary starred);
    a named seat's name under its number, on two staggered rows so that ten names fit."""
    body = []
    for i, (ministry, level) in enumerate(sorted(view["ministries"].items())):
        y = 20 + 64 * i
        name = screens.ministry_label(ministry, t)
        body += [
            text(20, y + 34, t("{ministry}: {level}").format(ministry=name, level=level), 32),
            *bar(360, y + 8, 620, level, 10, "#b71c1c"),
        ]
    body.append(text(20, 260, t("Influence"), 32))
    winners = set((view.get("result") or {}).get("winners") or ())
    influence = view["influence"]
    top = max([*influence, 1])
    step = 940 // max(len(influence), 1)
    for seat, amount in enumerate(influence):
        x = 20 + step // 2 + seat * step
        height = 260 * amount / top
        mark = "★" if seat == view["secretary"] else ""
        colour = "#f9a825" if seat in winners else "#1565c0"
        body += [
            f'<rect x="{x - 30}" y="{590 - height:.0f}" width="60" height="{height:.0f}" '
            f'fill="{colour}"/>',
            text(x, 630, f"{seat + 1}{mark}", 32, text_anchor="middle"),
            text(x, 580 - height, str(amount), 28, text_anchor="middle"),
        ]
        who = (names or {}).get(seat)
        if who:  # a row holds every other seat: a name has two columns' room
            x = min(max(x, step), 1000 - step)
            body.append(
                text(x, 664 + 30 * (seat % 2), who, 24, 2 * step - 12, text_anchor="middle")
            )
    return svg(1000, 710 if names else 650, body)
