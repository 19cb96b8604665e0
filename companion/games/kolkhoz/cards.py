"""Kolkhoz's cards and book: the deck, the jobs, card facts, legal plays and the state.

Pure helpers shared by the rules (``companion.games.kolkhoz.rules``), its clerk
(``companion.games.kolkhoz.clerk``), its saved shape, screens and bots.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.games.kolkhoz.kinds import KolkhozPhase

YEARS = 5  # K1: the Пятилетка
THRESHOLD = 40  # work-hours to complete a job
HAND = 5  # K3: cards dealt each while the deck allows

SUITS = ("hearts", "diamonds", "clubs", "spades")
SUIT_BIT = {suit: 1 << i for i, suit in enumerate(SUITS)}
LETTER = {"hearts": "H", "diamonds": "D", "clubs": "C", "spades": "S"}
SUIT_OF_LETTER = {v: k for k, v in LETTER.items()}
WORKER_RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K")
JOB_RANKS = ("A", "2", "3", "4", "5")
#: K2: card values, which are also the rank order of workers.
VALUE = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10}
VALUE |= {"J": 11, "Q": 12, "K": 13}

JACK = VALUE["J"]  # no other rank has its value

WORKERS = tuple(r + LETTER[s] for s in SUITS for r in WORKER_RANKS)  # the 32 workers
JOB_CARDS = tuple(r + LETTER[s] for s in SUITS for r in JOB_RANKS)  # the 20 job cards

#: The jobs as the text names them: suit -> (Cyrillic, transliteration, English gloss).
JOBS = {
    "hearts": ("Пахота", "Pakhota", "Plowing"),
    "diamonds": ("Жатва", "Zhatva", "Harvesting"),
    "clubs": ("Мастерская", "Masterskaya", "Workshop"),
    "spades": ("Зерно", "Zerno", "Grain"),
}


# -- cards: pure helpers ----------------------------------------------------------
class _CardTable(dict[str, Any]):
    """A fact of every card worked out once, looked up by the card: the engine and its bot
    ask the suit or value of a card some twenty times a move. A string that is no card is
    worked out as asked, as it always was (``describe``), and not kept."""

    def __init__(self, describe: Callable[[str], Any]) -> None:
        super().__init__({card: describe(card) for card in (*WORKERS, *JOB_CARDS)})
        self.describe = describe

    def __missing__(self, card: str) -> Any:
        return self.describe(card)


#: ``suit_of(card)`` and the others below are the tables' lookups (a C call, no frame)
suit_of: Callable[[str], str] = _CardTable(lambda card: SUIT_OF_LETTER[card[-1]]).__getitem__
rank_of: Callable[[str], str] = _CardTable(lambda card: card[:-1]).__getitem__
#: K2: the face value of a worker (6-13) or a job card (Ace 1 to 5)
value_of: Callable[[str], int] = _CardTable(lambda card: VALUE[card[:-1]]).__getitem__


def hours_of(card: str, trump: str | None) -> int:
    """K2: work-hours of a worker; the trump Jack (Пьяница) adds nothing."""
    value = value_of(card)
    if value == JACK and suit_of(card) == trump:
        return 0
    return value


#: sort key: by suit in the text's order, then by rank
card_order: Callable[[str], tuple[int, int]] = _CardTable(
    lambda card: (SUITS.index(suit_of(card)), value_of(card))
).__getitem__


def is_card(choice: Any) -> bool:
    return isinstance(choice, str) and choice in WORKERS


def trick_strength(card: str, lead_suit: str, trump: str | None) -> int:
    """How strongly ``card`` bids for the trick: trump above the lead suit above the rest (which
    never wins), by value within each (values 1-13); the first of the strongest wins."""
    suit = suit_of(card)
    if suit == trump:
        return 40 + value_of(card)
    return 20 + value_of(card) if suit == lead_suit else 0


def trick_winner(cards: list[str], lead_suit: str, trump: str | None) -> int:
    """Index of the winning card: the highest trump if any, else the highest of the lead suit."""
    winner, best = 0, -1  # the first of the strongest, as ``max`` picks
    for i, card in enumerate(cards):
        strength = trick_strength(card, lead_suit, trump)
        if strength > best:
            winner, best = i, strength
    return winner


def legal_plays(
    hand: list[str], lead: str | None, trump: str | None, trump_broken: bool
) -> list[str]:
    """The cards of ``hand`` that may be played, in hand order.

    Following: cards of the ``lead`` suit if any, else any card. Leading
    (``lead`` is None): no trump until trump has been played this year,
    unless the hand holds nothing but trump.
    """
    if lead is not None:
        follow = [c for c in hand if suit_of(c) == lead]
        return follow or list(hand)
    if trump_broken:
        return list(hand)
    plain = [c for c in hand if suit_of(c) != trump]
    return plain or list(hand)


def hand_size(deck: int, players: int = 4) -> int:
    """K3: five cards each while the deck allows, else as many as it can deal equally."""
    return min(HAND, deck // players)


def deal_possible(supply: dict[str, int], places: Iterable[tuple[int, Iterable[str]]]) -> bool:
    """Whether ``supply`` unseen cards (suit -> count) can fill ``places`` exactly.

    Each place is (how many cards, the suits it may hold). With equal totals
    a filling exists if and only if every set of suits fits in the places
    that accept one of them (Hall's condition for transport problems).
    """
    rooms = [0] * (1 << len(SUITS))  # room, by the suits accepted (a bit a suit)
    for n, suits in places:
        if n < 0:
            return False
        accepted = 0
        for x in set(suits):
            accepted |= SUIT_BIT[x]
        rooms[accepted] += n
    counts = [supply.get(x, 0) for x in SUITS]
    if min(counts) < 0 or sum(counts) != sum(rooms):
        return False
    # Summed over subsets, a suit at a time: within[m] is the room of the places that
    # accept only suits of m, need[m] the cards of the suits of m.
    within = rooms
    need = [0] * len(rooms)
    for i, count in enumerate(counts):
        bit = 1 << i
        for m in range(len(rooms)):
            if m & bit:
                within[m] += within[m ^ bit]
                need[m] += count
    # The places that accept one of the chosen suits are all but those within the others.
    full = len(rooms) - 1
    total = within[full]
    return all(need[chosen] <= total - within[full ^ chosen] for chosen in range(1, full + 1))


# -- the state ----------------------------------------------------------------------
@dataclass
class KolkhozState:
    deck: list[str]
    piles: dict[str, list[str]]  # suit -> face-down job cards, top last
    year: int = 1
    planner: int = 0
    phase: KolkhozPhase = "trump"
    trump: str | None = None
    trump_broken: bool = False
    #: suit -> {"reward": card, "hours": int, "done": bool, "by": seat|None, "workers": [cards]}
    jobs: dict[str, dict[str, Any]] = field(default_factory=dict)
    hands: list[list[str]] = field(default_factory=list)
    hand_size: int = 0
    tricks: int = 0  # tricks to play this year (K3: hand size - 1)
    tricks_played: int = 0
    leader: int = 0
    turn: int = 0
    trick: list[dict[str, Any]] = field(default_factory=list)  # {"seat", "card"} in play order
    to_assign: list[str] = field(default_factory=list)  # trump cards awaiting the brigadier
    brigadier: int | None = None
    brigadiers: list[int] = field(default_factory=list)  # this year's, sorted
    #: tricks each seat has won this year; None for a year begun before the box counted them
    won: list[int] | None = field(default_factory=list)
    plots: list[dict[str, list[str]]] = field(default_factory=list)  # {"hidden", "shown"}
    north: list[str] = field(default_factory=list)
    unclaimed: list[str] = field(default_factory=list)  # job cards of failed jobs
    last_trick: dict[str, Any] | None = None
    history: list[dict[str, Any]] = field(default_factory=list)  # one summary a year
    #: the year's summary while its requisitions run; then it joins the history
    closing: dict[str, Any] | None = None
    failed: list[str] = field(default_factory=list)  # failed jobs still to requisition
    requisition: dict[str, Any] | None = None  # the one running
    revealing: list[int] = field(default_factory=list)  # its revealers still to go
    # -- the clerk (deal "cards") only: what the box knows of hands it never saw
    held: list[int] = field(default_factory=list)  # cards left in each hand
    suits_left: list[list[str]] = field(default_factory=list)  # suits each hand may still hold
    voids: list[dict[str, int]] = field(default_factory=list)  # suit -> trick it was not followed
    trump_only: list[int | None] = field(default_factory=list)  # trick of a trump lead, unbroken
    #: per seat, one entry per hidden plot card not yet entered: the suits it may be
    slots: list[list[list[str]]] = field(default_factory=list)
    entry: str | None = None  # the suit entered, its card to come


def lead_suit(s: KolkhozState) -> str | None:
    """The suit led in the trick on the table (None before its first card)."""
    return suit_of(s.trick[0]["card"]) if s.trick else None
