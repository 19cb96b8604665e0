"""Secret ballots and shuffles: the one place where the table's randomness comes from.

At a real table every shuffle draws from the operating system's CSPRNG
(``random.SystemRandom``: the class ``secrets`` hands out, taken from ``random``
so that the box's first second does not load hmac and hashlib); tests and
simulations pass a seeded ``random.Random`` instead so that a game can be
replayed. Python's ``shuffle`` is Fisher-Yates with rejection sampling, so
every order is equally likely.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from companion.errors import IllegalMove

SYSTEM = "system"


def make_rng(seed: int | None) -> random.Random:
    """A seeded generator for replays, or the CSPRNG when ``seed`` is None (a real table)."""
    if seed is None:
        return random.SystemRandom()
    return random.Random(seed)


def rng_state(rng: random.Random) -> Any:
    """The generator's state as JSON-ready data (the CSPRNG has none to keep)."""
    if isinstance(rng, random.SystemRandom):
        return SYSTEM
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_state(state: Any) -> random.Random:
    if state == SYSTEM:
        return random.SystemRandom()
    try:
        version, internal, gauss = state
        rng = random.Random()
        rng.setstate((version, tuple(internal), gauss))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the saved random state is damaged: {exc}") from None
    return rng


def shuffled(items: Iterable[Any], rng: random.Random) -> list[Any]:
    """The items in uniformly random order, independent of the order they came in.

    Sorting first means the result depends only on which items there are, so
    two tables that differ only in who chose what reveal the same sequence.
    """
    out = sorted(items, key=repr)
    rng.shuffle(out)
    return out


class Ballot:
    """Collects one secret choice from each of a set of seats, then reveals them shuffled.

    While open it must know who chose what (a rule may act on one seat's
    choice, as Gulag's supervisor does); ``reveal`` forgets that link for good.
    """

    def __init__(self, seats: Iterable[int], options: Sequence[Any]) -> None:
        self.seats = frozenset(seats)
        if not self.seats:
            raise ValueError("a ballot needs at least one seat")
        self.options = tuple(options)
        self._choices: dict[int, Any] = {}
        self.revealed: tuple[Any, ...] | None = None

    @property
    def pending(self) -> tuple[int, ...]:
        return tuple(sorted(self.seats - set(self._choices)))

    @property
    def empty(self) -> bool:
        """Open and nobody has chosen yet: nothing secret to keep."""
        return not self._choices and self.revealed is None

    @property
    def complete(self) -> bool:
        # Every seat has chosen (choices are only ever of the ballot's seats): ``pending``
        # empty, without sorting it; asked on every cast.
        return len(self._choices) == len(self.seats)

    def cast(self, seat: int, choice: Any) -> None:
        if self.revealed is not None:
            raise IllegalMove("this ballot is already revealed")
        if isinstance(seat, bool):  # True == 1, but is no seat
            raise IllegalMove(f"there is no seat {seat!r}")
        if seat not in self.seats:
            raise IllegalMove(f"seat {seat + 1} has no vote in this ballot")
        if seat in self._choices:
            raise IllegalMove(f"seat {seat + 1} has already chosen in this ballot")
        if choice not in self.options:
            raise IllegalMove(
                f"{choice!r} is not a choice here ({', '.join(map(str, self.options))})"
            )
        self._choices[seat] = choice

    def choice_of(self, seat: int) -> Any:
        """One seat's choice, for a rule that acts on it before the reveal."""
        return self._choices[seat]

    def replace(self, seat: int, choice: Any) -> None:
        """Change a cast choice face down (Gulag's forced swap)."""
        if seat not in self._choices:
            raise IllegalMove(f"seat {seat + 1} has not chosen yet")
        self._choices[seat] = choice

    def reveal(self, rng: random.Random) -> tuple[Any, ...]:
        """The choices in uniformly random order; afterwards no seat links to a choice."""
        if not self.complete:
            waiting = ", ".join(str(s + 1) for s in self.pending)
            raise IllegalMove(f"the ballot still waits for seat {waiting}")
        if self.revealed is None:
            self.revealed = tuple(shuffled(self._choices.values(), rng))
            self._choices.clear()
        return self.revealed

    def counts(self) -> Counter[Any]:
        if self.revealed is None:
            raise IllegalMove("the ballot is not revealed yet")
        return Counter(self.revealed)
