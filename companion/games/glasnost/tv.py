"""Glasnost on the TV and the phones: its status in words, what a seat is doing, its picture.

Read by the whole table from across the room, so every line is a sentence
written from the public view alone, through the box's catalog (``t``); the
picture is drawn from the pieces of ``companion.web.pictures``.
"""

from __future__ import annotations

import math
from typing import Any

from companion.games.glasnost import board_svg, screens
from companion.games.glasnost.board import DOMAINS, NO, REFORM, YES, Board, Crisis
from companion.games.glasnost.rules import (
    DONE,
    GORBACHEV,
    KRYUCHKOV,
    LEFT,
    OBJECTIVES,
    faction_of,
)
from companion.ui.i18n import Translate
from companion.web.pictures import SMALLEST, Names, named, svg, text
from companion.web.tv import seat_option, seats_words

View = dict[str, Any]
COLOURS = {"reform": "#2e7d32", "repress": "#b71c1c", None: "#555"}

__all__ = [
    "ask_words",
    "doing_words",
    "end_words",
    "for_the_table",
    "option_words",
    "picture",
    "private_card",
    "reveal_words",
    "status_words",
]


def doing_words(d: Any, view: View, t: Translate) -> str | None:
    """What the seats are doing, the crisis named whole in the table's language."""
    if d.kind not in ("crisis_vote", "purge") or view["crisis"] is None:
        return None
    crisis = crisis_words(view["crises"][view["crisis"]], t)
    said = t("Voting on {crisis}.") if d.kind == "crisis_vote" else t("Purging at {crisis}.")
    return said.format(crisis=crisis)


def ask_words(d: Any, view: View, t: Translate) -> list[str] | None:
    """A seat's question on its phone, in sentences: the crisis named whole and what each
    answer sets, the leaders and seats of a coup (its page names the seat)."""
    kind = d.kind
    if kind == "sit":
        return [t("You are the chairman: take a seat on the board.")]
    if kind in ("crisis_vote", "purge") and view["crisis"] is not None:
        crisis = view["crises"][view["crisis"]]
        if kind == "purge":
            return [
                t("Purge at {crisis}: choose a fellow voter.").format(
                    crisis=crisis_words(crisis, t)
                )
            ]
        return [
            t("Vote on {crisis}.").format(crisis=crisis_words(crisis, t)),
            choices_words(crisis, t),
        ]
    if kind == "coup_offer":
        return coup_offer_words(view, t)
    if kind in ("coup_name", "coup_vote"):
        return coup_ask_words(kind, view, t)
    return None  # a peek: the room's own words for a phone (``companion.web.tv``)


def coup_offer_words(view: View, t: Translate) -> list[str]:
    """S5: the coup question, put to every seat alike, so that no one learns who was asked."""
    leaders = screens.offered(view)
    if len(leaders) == 1:
        may = t("If you hold {leader}, you may call a coup now.").format(leader=leaders[0])
    else:
        may = t("If you hold {a} or {b}, you may call a coup now.").format(
            a=leaders[0], b=leaders[1]
        )
    return [
        t("The coup question, put to every seat in secret."),
        may,
        t("Any other seat answers as it likes: only a leader's answer counts."),
    ]


def coup_ask_words(kind: str, view: View, t: Translate) -> list[str]:
    """A coup's leader naming the seats who join him, or every seat's vote on it."""
    leader, joined_seats = view["coup_leader"], list(view["named"])
    if kind == "coup_name":
        first = t("You are {leader}: name the seats in your coup, one at a time.")
        joined = t("With the leader so far: {seats}.") if joined_seats else None
        alone = t("Nobody is with the leader yet.")
    else:
        first = t("Vote on the coup of {leader}, seat {n}.")
        joined = t("In the coup with the leader: {seats}.") if joined_seats else None
        alone = t("The leader stands alone.")
    said = joined.format(seats=seats_words(joined_seats, t)) if joined else alone
    return [first.format(leader=leader["card"], n=leader["seat"] + 1), said]


def option_words(d: Any, view: View, option: Any, t: Translate) -> str | None:
    """Each answer on a phone, in words: a board seat with the crises it touches, a seat,
    a vote, a fellow voter to purge, a leader's coup."""
    if d.kind == "sit":
        return board_seat_words(view, int(option), t)
    if d.kind == "purge":
        left, right = screens.fellow_voters(view, d.seats[0])
        side = t("Seat {n}, on your left") if option == LEFT else t("Seat {n}, on your right")
        return side.format(n=(left if option == LEFT else right) + 1)
    if isinstance(option, int):
        return seat_option(option, t)
    words = {
        YES: t("Yes"),
        NO: t("No coup") if d.kind == "coup_offer" else t("No"),
        GORBACHEV: t("A coup by {leader}").format(leader=GORBACHEV),
        KRYUCHKOV: t("A coup by {leader}").format(leader=KRYUCHKOV),
        DONE: t("No one else: the coup goes to the vote"),
    }
    return words.get(option)


def board_seat_words(view: View, place: int, t: Translate) -> str:
    """A board seat (both seats of a connected pair) and the crises it touches, whole."""
    seats = view["board_seats"]
    partner = seats[place]["connected"]
    spaces = list(seats[place]["crises"])
    if partner is not None:
        spaces += [c for c in seats[partner]["crises"] if c not in spaces]
    crises = [crisis_words(view["crises"][c], t) for c in spaces]
    at = crises[0] if len(crises) == 1 else t("{a} and {b}").format(a=crises[0], b=crises[1])
    if partner is not None:
        pair = t("{some} and {last}").format(some=seats[place]["id"], last=seats[partner]["id"])
        return t("Board seats {ids}, at {crises}").format(ids=pair, crises=at)
    return t("Board seat {id}, at {crises}").format(id=seats[place]["id"], crises=at)


def choices_words(crisis: dict[str, Any], t: Translate) -> str:
    """What each answer to a crisis sets."""
    return t("Yes sets {yes}; no sets {no}.").format(
        yes=policy_words(crisis["yes"]["domain"], crisis["yes"]["direction"], t),
        no=policy_words(crisis["no"]["domain"], crisis["no"]["direction"], t),
    )


def crisis_words(crisis: View, t: Translate) -> str:
    """A crisis card's whole name in the table's language: a table's own board's name in it
    where the board gives one (its ``names``), else the catalog's (the box's own board has
    its names there), else the name as the board writes it."""
    return screens.own_name(crisis, t) or t(crisis["name"])


def policy_words(domain: str, direction: str | None, t: Translate) -> str:
    """A domain and its policy ("Economy: reform"), French spacing from the catalog."""
    policy = {REFORM: t("reform"), None: t("none")}.get(direction, t("repression"))
    return t("{domain}: {policy}").format(domain=screens.domain_name(domain, t), policy=policy)


def aims_words(card: str, t: Translate) -> str:
    """What an objective card wants, every domain named whole."""
    wants = OBJECTIVES[card]
    return ", ".join(policy_words(d, wants[d], t) for d in DOMAINS if d in wants)


def private_card(own: View, public: View, ui: Any, t: Translate) -> list[str]:
    """The seat's objective card said whole: its name, its faction, what it wants."""
    card = (own.get("objective") or {}).get("name")
    if card not in OBJECTIVES:
        return []
    return [
        t("Your card: {card}, {faction}.").format(
            card=card, faction=screens.faction_label(faction_of(card), t)
        ),
        t("It wants {aims}.").format(aims=aims_words(card, t)),
    ]


def opening_words(view: View, t: Translate) -> list[list[str]]:
    """Rule 3.2: where each shuffled crisis card goes, named by its board seats' numbers."""
    if view["options"].get("crises") != "shuffled":
        return []
    crises = view["crises"]
    said = []
    for k, crisis in enumerate(crises):
        seats = [view["board_seats"][q]["id"] - 1 for q in crisis["board_seats"]]
        said.append(
            [
                t("Crisis card {k} of {n}").format(k=k + 1, n=len(crises)),
                t("{crisis}: at {seats}.").format(
                    crisis=crisis_words(crisis, t),
                    seats=t("board {seats}").format(seats=seats_words(seats, t)),
                ),
            ]
        )
    return said


def side_words(view: View, crisis: int, vote: str, t: Translate) -> str:
    """The policy a crisis's outcome sets."""
    side = view["crises"][crisis][vote]
    return t("The policy is set: {policy}.").format(
        policy=policy_words(side["domain"], side["direction"], t)
    )


def event_words(
    event: dict[str, Any], history: list[dict[str, Any]], view: View, t: Translate
) -> list[list[str]]:
    """One event of the history in sentences; a secret vote by its count only."""
    kind = event["event"]
    if kind == "vote":
        crisis = view["crises"][event["crisis"]]
        yes, votes = event["yes"], len(view["last_vote"])
        head = t("The vote on {crisis}: {yes} yes, {no} no.").format(
            crisis=crisis_words(crisis, t), yes=yes, no=votes - yes
        )
        if yes in (0, votes):
            return [[head, side_words(view, event["crisis"], YES if yes else NO, t)]]
        purgers = seats_words(list(event["voters"]), t)
        return [[head, t("Not unanimous: {seats} purge the dissident.").format(seats=purgers)]]
    if kind == "purge":
        lines = [
            t("Seat {a} purges seat {b}.").format(a=voter + 1, b=target + 1)
            for voter, target in event["purges"]
        ]
        if event["purged"] is None:
            return [[*lines, t("A cycle: the crisis is hushed up. No policy, no coup.")]]
        vote = next(h for h in reversed(history) if h["event"] == "vote")
        majority = YES if 2 * vote["yes"] > len(vote["voters"]) else NO
        turned = t("Seat {n}'s token is turned face down.").format(n=event["purged"] + 1)
        return [[*lines, turned, side_words(view, event["crisis"], majority, t)]]
    return coup_words(event, view, t)


def coup_words(event: dict[str, Any], view: View, t: Translate) -> list[list[str]]:
    """A coup called, declined or voted, and a seat that cannot sit (S5, S6)."""
    kind = event["event"]
    if kind == "coup":
        return [[t("Seat {n} calls a coup: {leader}.").format(n=event["seat"] + 1, **event)]]
    if kind == "declined":
        return [[t("{leader} declines: no coup.").format(**event)]]
    if kind == "coup vote":
        yes = event["votes"].count(YES)
        head = t("{leader}'s coup: {yes} yes, {no} no.").format(
            leader=event["leader"], yes=yes, no=len(event["votes"]) - yes
        )
        if event["success"]:
            return [[head, t("Every vote is yes: the coup succeeds.")]]
        if view["phase"] == "over":
            return [[head, t("No coup token is left: the USSR falls.")]]
        left = t("The coup fails; coup tokens left: {k}.").format(k=view["coup_tokens"]["left"])
        return [[head, left]]
    if kind == "no seat":
        return [[t("Seat {n} cannot sit: the game ends.").format(n=event["seat"] + 1)]]
    return []  # "sit": the chairman's own choice, on the board for all to see


def reveal_words(before: View | None, after: View, t: Translate) -> list[list[str]]:
    """The crises laid out at the start; then a move's events, and the call to vote."""
    if before is None:
        return opening_words(after, t)
    history = after["history"]
    said: list[list[str]] = []
    start = len(before["history"])
    for i in range(start, len(history)):
        event = history[i]
        if event["event"] == "declined" and i > start and history[i - 1]["event"] == "declined":
            said[-1] = [t("Both leaders decline: no coup.")]  # S5: one outcome
            continue
        said += event_words(event, history[:i], after, t)
    if after["phase"] == "vote" and (
        before["phase"] != "vote" or before["crisis"] != after["crisis"]
    ):
        crisis = after["crises"][after["crisis"]]
        said.append(
            [
                t("{crisis} is full: {seats} vote.").format(
                    crisis=crisis_words(crisis, t), seats=seats_words(after["voters"], t)
                ),
                choices_words(crisis, t),
            ]
        )
    return said


def end_words(view: View, t: Translate) -> list[list[str]]:
    """The end in sentences: why it ended, the policies, every seat's objective card."""
    outcome = view["result"]["outcome"]
    if outcome == "instant":
        why = t("A coup succeeded.")
    elif outcome == "nationalist instant":
        why = t("The USSR falls.")
    else:
        stuck = next(h["seat"] for h in reversed(view["history"]) if h["event"] == "no seat")
        why = t("Seat {n} cannot sit.").format(n=stuck + 1)
    policies = ", ".join(policy_words(d, view["policies"].get(d), t) for d in DOMAINS)
    cards = [
        t("Seat {n}, {card} ({faction}): {aims}.").format(
            n=seat + 1,
            card=card,
            faction=screens.faction_label(faction_of(card), t),
            aims=aims_words(card, t),
        )
        for seat, card in enumerate(view["objectives"])
    ]
    return [[why, t("Policies: {list}.").format(list=policies)], cards]


def status_words(view: View, ui: Any, t: Translate) -> str:
    """The OLED's status line said in words, for the room."""
    left = t("Coup tokens left: {n}").format(n=view["coup_tokens"]["left"])
    if view["chairman"] is None:
        return left
    return t("Chairman: seat {n}").format(n=view["chairman"] + 1) + " · " + left


def for_the_table(kind: str, t: Translate) -> str | None:
    """A hand-over line that speaks to the seat holding the box, rewritten for the table."""
    lines = {
        "peek": t("Reading an objective card in secret."),
        "sit": t("The chairman takes a seat on the board."),
    }
    return lines.get(kind)


def picture(view: dict[str, Any], t: Translate, names: Names | None = None) -> str:
    """The board: crises on a ring with their number and name, closed ones ringed in their
    policy's colour, the players' tokens on the board seats (by seat number: a token has no
    room for a name, so the named seats are listed in the board's lower corners, "Anna
    (4)"), the domains' policies."""
    crises = sorted(view["crises"], key=lambda c: c["space"])
    count = len(crises)
    width, height = board_svg.WIDTH, board_svg.HEIGHT
    cx, cy = width / 2, height / 2
    body = []
    seats = view["board_seats"]
    board = board_of(view)
    spots = [board_svg.seat_xy(board, p) for p in range(len(seats))]
    for p, seat in enumerate(seats):
        for c in seat["crises"]:
            x, y = board_svg.crisis_xy(c, count)
            body.append(
                f'<line x1="{spots[p][0]:.0f}" y1="{spots[p][1]:.0f}" x2="{x:.0f}" y2="{y:.0f}" '
                'stroke="#999" stroke-width="2"/>'
            )
    for crisis in crises:
        x, y = board_svg.crisis_xy(crisis["space"], count)
        policy = crisis.get("policy") or {}
        ring = COLOURS.get(policy.get("direction")) if crisis["closed"] else None
        angle = math.atan2(y - cy, x - cx)
        lx = cx + (board_svg.RADIUS + 50) * math.cos(angle)
        ly = cy + (board_svg.RADIUS + 50) * math.sin(angle) + 8
        anchor = "middle" if abs(math.cos(angle)) < 0.3 else "start" if lx > cx else "end"
        body += [
            f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{board_svg.CRISIS_R}" fill="#b22222"/>',
            text(x, y + 9, str(crisis["id"]), 26, fill="#fff", text_anchor="middle"),
            text(lx, ly, crisis_words(crisis, t), 24, text_anchor=anchor),
        ]
        if ring:
            body.append(
                f'<circle cx="{x:.0f}" cy="{y:.0f}" r="{board_svg.CRISIS_R + 7}" fill="none" '
                f'stroke="{ring}" stroke-width="8"/>'
            )
    for p, seat in enumerate(seats):
        x, y = spots[p]
        taken = seat["owner"] is not None
        fill = "#1565c0" if taken and seat["face_up"] else "#455a64" if taken else "#fff"
        label = str(seat["owner"] + 1) if taken else ""
        body += [
            f'<circle cx="{x:.0f}" cy="{y:.0f}" r="20" fill="{fill}" stroke="#111"/>',
            text(x, y + 9, label, 26, fill="#fff", text_anchor="middle"),
        ]
    for i, domain in enumerate(sorted(view["policies"])):
        direction = view["policies"][domain]
        line = policy_words(domain, direction, t)
        body.append(text(20, 40 + 34 * i, line, 28, fill=COLOURS[direction]))
    return svg(width, height, body + names_legend(names or {}, t))


def names_legend(names: Names, t: Translate) -> list[str]:
    """The named seats, "Anna (4)", in the board's two lower corners (under the crisis
    labels, beside the lowest one), three rows of two in each: twelve seats at most."""
    columns = (20, 240, 790, 1010)
    return [
        text(columns[k // 3], 805 + 34 * (k % 3), named(seat, names, t), SMALLEST, 210)
        for k, seat in enumerate(sorted(names)[: 3 * len(columns)])
    ]


def board_of(view: dict[str, Any]) -> Board:
    """The board as the view describes it (crises by space, seats with their crises)."""
    crises = sorted(view["crises"], key=lambda c: c["space"])
    return Board(
        name=view["board"],
        crises=tuple(
            Crisis(c["id"], c["name"], c["yes"]["domain"], c["no"]["domain"]) for c in crises
        ),
        seat_crises=tuple(tuple(s["crises"]) for s in view["board_seats"]),
        partner=tuple(s["connected"] for s in view["board_seats"]),
        seat_ids=tuple(s["id"] for s in view["board_seats"]),
    )
