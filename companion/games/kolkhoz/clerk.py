"""Kolkhoz's clerk: what the box knows of the cards it never sees (deal "cards").

At a real table the players deal real cards and enter each trick after it is
played; the box keeps the book (``companion.games.kolkhoz.rules``'s rules, deal
"cards"). These functions read that book, a ``KolkhozState``, and change
nothing: where each worker is known to be, the suits a hand or a hidden plot
card may still hold, and whether some deal of the unseen cards still fits
everything entered (``deal_possible``), so an entry that cannot be right is
refused and the entries never paint the table into a corner.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from companion.games.kolkhoz.cards import (
    JOBS,
    LETTER,
    SUITS,
    WORKER_RANKS,
    WORKERS,
    KolkhozState,
    deal_possible,
    lead_suit,
    suit_of,
)


def places(s: KolkhozState) -> dict[str, tuple[str, dict[str, str | int]]]:
    """Every worker whose place the box knows, with the place (a refusal's code and
    facts, for a card seen twice)."""
    where: dict[str, tuple[str, dict[str, str | int]]] = {}
    for card in s.north:
        where[card] = ("went_north", {})
    for seat, plot in enumerate(s.plots):
        for card in plot["shown"] + plot["hidden"]:
            where[card] = ("in_plot", {"seat": seat + 1})
    if s.requisition is not None:
        for r in s.requisition["revealed"]:
            for card in r["cards"]:
                where[card] = ("in_plot", {"seat": r["seat"] + 1})
    for suit, job in s.jobs.items():
        for card in job["workers"]:
            where[card] = ("this_year", {"job": JOBS[suit][0]})
    for p in s.trick:
        where[p["card"]] = ("in_trick", {"seat": p["seat"] + 1})
    return where


def unseen(s: KolkhozState, suit: str, placed: dict[str, Any] | None = None) -> list[str]:
    """The workers of ``suit`` whose place the box does not know (``placed``: what
    ``places`` says now, when the caller has it already)."""
    placed = places(s) if placed is None else placed
    return [r + LETTER[suit] for r in WORKER_RANKS if r + LETTER[suit] not in placed]


def possible(
    s: KolkhozState,
    suit: str,
    seat: int,
    *,
    hand_suits: list[str] | None = None,
    from_plot: bool = False,
    placed: dict[str, Any] | None = None,
) -> bool:
    """Whether a card of ``suit`` can come from ``seat``'s hand (or plot) and a deal still fit.

    ``hand_suits`` is what the hand may hold afterwards (a void shown, a
    trump lead); a plot card takes the place of the hidden card most
    constrained that may be of its suit (the slots of a seat are nested,
    older within newer, so that choice never loses a filling).
    """
    placed = places(s) if placed is None else placed
    supply = Counter(suit_of(c) for c in set(WORKERS) - set(placed))
    supply[suit] -= 1
    hands = [(s.held[i], list(s.suits_left[i])) for i in range(len(s.plots))]
    slots = [[list(x) for x in s.slots[i]] for i in range(len(s.plots))]
    if from_plot:
        fits = [x for x in slots[seat] if suit in x]
        if not fits:
            return False
        slots[seat].remove(min(fits, key=len))
    else:
        count, suits = hands[seat]
        if suit not in suits:
            return False
        hands[seat] = (count - 1, suits if hand_suits is None else hand_suits)
    return fills(supply, hands, slots)


def fills(
    supply: Counter[str], hands: list[tuple[int, list[str]]], slots: list[list[list[str]]]
) -> bool:
    places: list[tuple[int, Iterable[str]]] = list(hands)
    places += [(1, x) for seat_slots in slots for x in seat_slots]
    rest = sum(supply.values()) - sum(n for n, _ in places)
    places.append((rest, SUITS))  # the undealt deck: any suit
    return deal_possible(supply, places)


def after_play(s: KolkhozState, seat: int, suit: str) -> list[str]:
    """The suits ``seat``'s hand may hold after playing ``suit`` now (2b)."""
    lead = lead_suit(s)
    suits = list(s.suits_left[seat])
    if lead is not None and suit != lead:
        suits = [x for x in suits if x != lead]  # did not follow: holds none of the lead
    if lead is None and suit == s.trump and not s.trump_broken:
        suits = [x for x in suits if x == s.trump]  # led trump early: holds nothing else
    return suits


def entry_suits(s: KolkhozState) -> list[str]:
    placed = places(s)  # once for the four suits: nothing moves while they are asked
    if s.phase == "plot":
        seat = plot_seat(s)
        return [
            x
            for x in SUITS
            if unseen(s, x, placed) and possible(s, x, seat, from_plot=True, placed=placed)
        ]
    seat = s.turn
    return [
        x
        for x in SUITS
        if unseen(s, x, placed)
        and possible(s, x, seat, hand_suits=after_play(s, seat, x), placed=placed)
    ]


def reveal_options(s: KolkhozState) -> list[str]:
    assert s.requisition is not None
    suit, seat = s.requisition["job"], s.revealing[0]
    options = []
    if possible(s, suit, seat, from_plot=True):
        options = unseen(s, suit)
    supply = Counter(suit_of(c) for c in set(WORKERS) - set(places(s)))
    hands = [(s.held[i], list(s.suits_left[i])) for i in range(len(s.plots))]
    slots = [[list(x) for x in s.slots[i]] for i in range(len(s.plots))]
    slots[seat] = [[y for y in x if y != suit] for x in slots[seat]]
    if fills(supply, hands, slots):
        options.append("none")
    return options


def plot_seat(s: KolkhozState) -> int:
    return next(i for i in range(len(s.plots)) if s.slots[i])


def may_hold(s: KolkhozState, seat: int, suit: str) -> bool:
    return any(suit in x for x in s.slots[seat])
