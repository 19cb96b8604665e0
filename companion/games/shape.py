"""What a saved game may look like: a tiny declarative shape language and its validator.

A record read back from the journal is only JSON: it may be well formed and
still mean nothing (a canal of ``null``, a seat 12 at a table of 7, a phase
that does not exist). Each game declares the shape of its saved state once,
in ``companion/games/<name>/shape.py`` (``SHAPE``), and ``check`` walks a
record against it before the rules are asked to restore it, so that a wrong
record is refused with one sentence naming the field instead of breaking the
screens some moves later.

The language: ``Int`` and ``Float`` with ranges, ``Bool``, ``Str``, ``OneOf``
(an enumeration), ``Maybe`` (or null), ``ListOf`` (with lengths),
``DictOf`` (keys and values), ``Record`` (exact keys, some optional), ``EmptyOr``
(``{}`` or a whole record) and
``Anything``. A bound is a number or a ``Ref`` to a fact of the record
(``Ref("players", -1)``: the last seat), given to ``check`` in ``facts``.

A shape says what each value may be; what values must say together (every
card in exactly one place, one entry a seat, a seat that sits at its crisis)
is an ``Invariant``, declared beside the shape (``GameShape.invariants``) and
checked on a record that has its shape (``check_invariants``): a state that
breaks one is set aside with the invariant named.

Pure: no I/O; games and the journal both import it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

Facts = Mapping[str, int]


class ShapeError(ValueError):
    """A value that does not have its declared shape; the message names where."""


@dataclass(frozen=True)
class Ref:
    """A bound taken from the record itself: ``facts[name] * times + offset``."""

    name: str
    offset: int = 0
    times: int = 1

    def of(self, facts: Facts) -> int:
        return facts[self.name] * self.times + self.offset


Bound = int | float | Ref | None


def _bound(bound: Bound, facts: Facts) -> int | float | None:
    return bound.of(facts) if isinstance(bound, Ref) else bound


def _said(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class Shape:
    """One kind of value; ``check`` raises ``ShapeError`` naming ``at`` when it does not fit."""

    def check(self, value: Any, at: str, facts: Facts) -> None:
        raise NotImplementedError

    def fail(self, at: str, expected: str, value: Any) -> ShapeError:
        return ShapeError(f"{at}: expected {expected}, found {_said(value)}")


@dataclass(frozen=True)
class Anything(Shape):
    """Any JSON value (what another check reads, e.g. a board the game parses itself)."""

    def check(self, value: Any, at: str, facts: Facts) -> None:
        return None


@dataclass(frozen=True)
class Int(Shape):
    """A whole number (never a bool) from ``lo`` to ``hi``, both included."""

    lo: Bound = None
    hi: Bound = None

    def check(self, value: Any, at: str, facts: Facts) -> None:
        lo, hi = _bound(self.lo, facts), _bound(self.hi, facts)
        if (
            type(value) is not int
            or (lo is not None and value < lo)
            or (hi is not None and value > hi)
        ):
            raise self.fail(at, _range("a whole number", lo, hi), value)


@dataclass(frozen=True)
class Float(Shape):
    """A number (whole or not, never a bool) from ``lo`` to ``hi``."""

    lo: Bound = None
    hi: Bound = None

    def check(self, value: Any, at: str, facts: Facts) -> None:
        lo, hi = _bound(self.lo, facts), _bound(self.hi, facts)
        if (
            type(value) not in (int, float)
            or value != value  # NaN
            or (lo is not None and value < lo)
            or (hi is not None and value > hi)
        ):
            raise self.fail(at, _range("a number", lo, hi), value)


def _range(kind: str, lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f"{kind} from {lo} to {hi}"
    if lo is not None:
        return f"{kind} of at least {lo}"
    if hi is not None:
        return f"{kind} of at most {hi}"
    return kind


@dataclass(frozen=True)
class Bool(Shape):
    def check(self, value: Any, at: str, facts: Facts) -> None:
        if type(value) is not bool:
            raise self.fail(at, "true or false", value)


@dataclass(frozen=True)
class Str(Shape):
    """Any text up to ``longest`` characters."""

    longest: int = 200

    def check(self, value: Any, at: str, facts: Facts) -> None:
        if type(value) is not str or len(value) > self.longest:
            raise self.fail(at, f"text of at most {self.longest} characters", value)


class OneOf(Shape):
    """One of a few values, compared by type too (``1`` is not ``true``)."""

    def __init__(self, *values: Any) -> None:
        self.values = tuple(values)

    def check(self, value: Any, at: str, facts: Facts) -> None:
        if not any(type(value) is type(v) and value == v for v in self.values):
            raise self.fail(at, "one of " + ", ".join(_said(v) for v in self.values), value)

    def __repr__(self) -> str:
        return f"OneOf{self.values!r}"


@dataclass(frozen=True)
class Maybe(Shape):
    """``null`` or ``shape``."""

    shape: Shape

    def check(self, value: Any, at: str, facts: Facts) -> None:
        if value is not None:
            self.shape.check(value, at, facts)


@dataclass(frozen=True)
class ListOf(Shape):
    """A list of ``item``s, from ``shortest`` to ``longest`` of them."""

    item: Shape
    shortest: Bound = 0
    longest: Bound = 1000

    def check(self, value: Any, at: str, facts: Facts) -> None:
        lo, hi = _bound(self.shortest, facts), _bound(self.longest, facts)
        if type(value) is not list:
            raise self.fail(at, "a list", value)
        if (lo is not None and len(value) < lo) or (hi is not None and len(value) > hi):
            size = f"exactly {lo}" if lo == hi else _range("", lo, hi).strip()
            raise ShapeError(f"{at}: expected {size} items, found {len(value)}")
        for i, item in enumerate(value):
            self.item.check(item, f"{at}[{i}]", facts)


def exactly(item: Shape, count: Bound) -> ListOf:
    """A list of exactly ``count`` items."""
    return ListOf(item, count, count)


@dataclass(frozen=True)
class DictOf(Shape):
    """A mapping whose keys (text, as JSON has them) fit ``key`` and values fit ``value``."""

    key: Shape
    value: Shape
    longest: int = 100

    def check(self, value: Any, at: str, facts: Facts) -> None:
        if type(value) is not dict:
            raise self.fail(at, "a mapping", value)
        if len(value) > self.longest:
            raise ShapeError(f"{at}: expected at most {self.longest} entries, found {len(value)}")
        for k, v in value.items():
            self.key.check(k, f"{at} key", facts)
            self.value.check(v, f"{at}.{k}", facts)


@dataclass(frozen=True)
class Record(Shape):
    """A mapping with exactly these keys (those in ``optional`` may be missing)."""

    fields: Mapping[str, Shape]
    optional: Mapping[str, Shape] = field(default_factory=dict)

    def check(self, value: Any, at: str, facts: Facts) -> None:
        if type(value) is not dict:
            raise self.fail(at, "a mapping", value)
        missing = [k for k in self.fields if k not in value]
        if missing:
            raise ShapeError(f"{at}: {missing[0]!r} is missing")
        extra = [k for k in value if k not in self.fields and k not in self.optional]
        if extra:
            raise ShapeError(f"{at}: {_said(extra[0])} is not expected")
        for k, v in value.items():
            shape = self.fields.get(k) or self.optional[k]
            shape.check(v, f"{at}.{k}" if at else k, facts)


@dataclass(frozen=True)
class EmptyOr(Shape):
    """An empty mapping (nothing under way yet, or nothing left), or the whole ``record``:
    never a part of it, which the screens could not read."""

    record: Record

    def check(self, value: Any, at: str, facts: Facts) -> None:
        if value != {} or type(value) is not dict:
            self.record.check(value, at, facts)


def one_of(values: Iterable[Any]) -> OneOf:
    return OneOf(*values)


# -- what every saved record holds, whatever the game -----------------------------------
SEAT = Int(0, Ref("players", -1))
SEATS = ListOf(SEAT, 0, Ref("players"))
PER_SEAT = Ref("players")  # a list with one entry a seat: exactly(x, PER_SEAT)


@dataclass(frozen=True)
class RandomState(Shape):
    """The generator's state: version 3, 625 words (the last the position), no gauss
    pending or a number; or ``"system"`` at a real table."""

    def check(self, value: Any, at: str, facts: Facts) -> None:
        if value == "system":
            return
        if type(value) is not list or len(value) != 3:
            raise self.fail(at, "a random state", value)
        version, words, gauss = value
        OneOf(3).check(version, f"{at}[0]", facts)
        exactly(Int(0, 2**32 - 1), 625).check(words, f"{at}[1]", facts)
        if words[-1] > 624:
            raise ShapeError(f"{at}[1][624]: expected a position from 0 to 624")
        Maybe(Float()).check(gauss, f"{at}[2]", facts)


@dataclass(frozen=True)
class Invariant:
    """A truth of every state the rules can reach that no single value's shape can say.

    ``holds(record, facts)`` reads a record that has its shape (and the facts its bounds
    read), is pure, and answers True when the state keeps it; ``name`` is what the reason
    for setting a state aside says.
    """

    name: str
    holds: Callable[[dict[str, Any], Facts], bool]


def _looks_at_a_seat(record: dict[str, Any], facts: Facts) -> bool:
    state = record["state"]
    return state["phase"] != "peek" or state["peeked"] < facts["players"]


#: the games with a start-of-game look (each seat reads its secret card in turn, ``peeked``
#: of them so far) ask a seat of the table
LOOKS = Invariant("the start-of-game look asks a seat of the table", _looks_at_a_seat)


@dataclass(frozen=True)
class GameShape:
    """One game's declaration: its options, the facts its bounds read, its state, and the
    invariants its states keep."""

    options: Record
    state: Record
    #: facts beyond ``players`` read from the record (e.g. a board's seat count)
    facts: Mapping[str, Callable[[dict[str, Any]], int]] = field(default_factory=dict)
    invariants: tuple[Invariant, ...] = ()


def record_shape(name: str, players: tuple[int, int], shape: GameShape, fmt: int) -> Record:
    """The whole saved record of game ``name`` (format ``fmt``)."""
    return Record(
        {
            "game": OneOf(name),
            "format": OneOf(fmt),
            "players": Int(*players),
            "options": shape.options,
            "rng": RandomState(),
            "state": shape.state,
            "ballot": Maybe(
                Record({"seats": ListOf(SEAT, 1, PER_SEAT), "options": ListOf(Str(), 1, 20)})
            ),
        }
    )


def shape_of(game: str) -> GameShape:
    """The declared shape of ``game``'s saved state (its record's ``state_shape``)."""
    from companion.games import GAMES

    if game not in GAMES:
        raise ShapeError(f"no game called {_said(game)}")
    shape: GameShape = GAMES[game].load("state_shape")
    return shape


def check_record(record: Any) -> None:
    """Raise ``ShapeError`` unless ``record`` (at its game's current format) has its shape."""
    from companion.games import game_class

    if type(record) is not dict or record.get("game") not in _game_names():
        raise ShapeError(f"not a saved game record: {_said(record)}")
    name = record["game"]
    cls = game_class(name)
    shape = shape_of(name)
    players: int = record.get("players")  # type: ignore[assignment]
    Int(cls.min_players, cls.max_players).check(players, "players", {})
    record_shape(name, (cls.min_players, cls.max_players), shape, cls.FORMAT).check(
        record, "", _facts(record, shape)
    )


def _facts(record: dict[str, Any], shape: GameShape) -> dict[str, int]:
    facts: dict[str, int] = {"players": record["players"]}
    for fact, rule in shape.facts.items():
        facts[fact] = rule(record)
    return facts


def broken_invariants(record: dict[str, Any]) -> list[str]:
    """The names of the invariants of its game that ``record`` (which has its shape) breaks;
    an invariant that cannot even be read on it counts as broken."""
    shape = shape_of(record["game"])
    facts = _facts(record, shape)
    broken = []
    for invariant in shape.invariants:
        try:
            kept = invariant.holds(record, facts)
        except (LookupError, TypeError, ValueError, ArithmeticError):
            kept = False
        if not kept:
            broken.append(invariant.name)
    return broken


def check_invariants(record: dict[str, Any]) -> None:
    """Raise ``ShapeError`` naming every invariant of its game ``record`` breaks."""
    broken = broken_invariants(record)
    if broken:
        said = "; ".join(broken)
        raise ShapeError(f"the state breaks its invariant{'s' if len(broken) > 1 else ''}: {said}")


def _game_names() -> tuple[str, ...]:
    from companion.games import GAMES

    return tuple(GAMES)
