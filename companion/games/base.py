"""The one contract every game follows.

The box, the bots, the simulator and the tests drive every game through this
interface alone: ``decision`` says what is asked of whom, ``act`` answers it,
and views are the only way out of the state. A game keeps its whole state in
one JSON-ready dataclass (``self.s``) so that it can be journalled and resumed
after a power cut, and draws all chance from ``self.rng``.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.ballot import Ballot, rng_from_state, rng_state
from companion.errors import IllegalMove, SettingsError
from companion.games.frozen import FrozenDict, FrozenList, freeze
from companion.games.kinds import Kind

__all__ = ["CONTRACT_REFUSALS", "Choice", "Decision", "Game", "IllegalMove", "Option", "Result"]

Choice = str | int
Fact = str | int

#: The refusals of the contract itself, shared by every game: code -> (rule, the log's
#: English sentence with {fact} fields). A game adds its own in ``REFUSALS``.
CONTRACT_REFUSALS: dict[str, tuple[str, str]] = {
    "over": ("", "the game is over: nothing more can be played"),
    "no_seat": ("", "there is no seat {seat} at a table of {players}"),
    "not_asked": ("", "seat {seat} is not asked now: {kind} waits for seat {waiting}"),
    "not_a_choice": ("", "{choice} is not a choice for {kind} (choices: {choices})"),
}


@dataclass(frozen=True)
class Decision:
    """What the game waits for: ``kind`` of choice, from which ``seats``, among ``options``.

    ``seats`` lists the seats that still have to answer. Several seats answer
    simultaneously; a ``secret`` decision is collected by a ballot and never
    shown to anyone but the seat making it.
    """

    kind: Kind
    seats: tuple[int, ...]
    options: tuple[Choice, ...]
    secret: bool = False

    def __init__(
        self, kind: Kind, seats: tuple[int, ...], options: tuple[Choice, ...], secret: bool = False
    ) -> None:
        # The fields in one write (the generated __init__ of a frozen dataclass sets each
        # through object.__setattr__): a decision is made on every move.
        self.__dict__.update(kind=kind, seats=seats, options=options, secret=secret)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seats": list(self.seats),
            "options": list(self.options),
            "secret": self.secret,
        }

    def frozen_json(self) -> FrozenDict:
        """``to_json()`` frozen, made once: every view of this decision's state shares it."""
        frozen: FrozenDict | None = self.__dict__.get("_json_")
        if frozen is None:  # most decisions are read once: no exception for the first
            seats, options = self.seats, self.options
            frozen = self.__dict__["_json_"] = FrozenDict(
                {
                    "kind": self.kind,
                    "seats": _LISTS.get(seats) or _frozen_list(seats),
                    "options": _LISTS.get(options) or _frozen_list(options),
                    "secret": self.secret,
                }
            )
        return frozen


#: the seats and options of recent decisions as frozen lists: most recur move after move
_LISTS: dict[tuple[Choice, ...], FrozenList] = {}


def _frozen_list(items: tuple[Choice, ...]) -> FrozenList:
    """``items`` (str or int: nothing to freeze inside) as a frozen list, kept in ``_LISTS``
    (emptied when full: a bound on what a long day keeps)."""
    if len(_LISTS) >= 4096:
        _LISTS.clear()
    frozen = _LISTS[items] = FrozenList(items)
    return frozen


@dataclass(frozen=True)
class Option:
    """One setting of a game: the value it takes unless told, and every value it may take.

    The setup screen offers ``values`` with the default first; ``values`` None is an
    option only the command line sets (a file it names, read there: Glasnost's board),
    never on the setup screen, checked by the game itself.
    """

    default: Any
    values: tuple[Any, ...] | None

    @property
    def command_line_only(self) -> bool:
        return self.values is None


#: a table of this many players unless told, where the game allows it (the setup's first)
USUAL_PLAYERS = 7


@dataclass(frozen=True)
class Result:
    """How a game ended: the winning seats, a one-word outcome, and numbers for statistics.

    ``measures`` are averaged by the simulator over the games that report them,
    so a 0/1 measure reported only when it applies becomes a conditional rate.
    """

    winners: frozenset[int]
    outcome: str
    measures: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": sorted(self.winners),
            "outcome": self.outcome,
            "measures": dict(self.measures),
        }


_UNSET = object()
#: fills a view being built (a ``FrozenDict`` nobody holds yet) with parts frozen already
_join = dict.update
_put = dict.__setitem__


def same_choice(a: Choice, b: Choice) -> bool:
    """Equality that does not let ``True`` pass for ``1`` or ``"1"`` for ``1``."""
    return type(a) is type(b) and a == b


class Game:
    """Base of every game: validation, the act wrapper, save and restore.

    Subclasses define ``State`` (a dataclass of JSON types only: lists, not
    tuples; string keys), ``setup``, ``_decide``, ``_apply``, ``_public``,
    ``_private`` and ``result``, and may refine ``_refusal`` to name the rule a
    refused choice breaks, declaring each of its refusals in ``REFUSALS``.

    ``decision`` and the views are worked out once a state, when first read, and
    kept until the next move (``act`` forgets them): they are read several times
    a move (by the caller, by ``act``, by the table, the TV, the phones, the
    bots), the legal options behind a decision can cost a search, and a view no
    one reads is never built. The views are frozen (``companion.games.frozen``),
    so every reader may share them. The state must change only through ``act``.
    """

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    #: the game's settings, each with its default and its values (the setup screens show them)
    OPTIONS: ClassVar[dict[str, Option]] = {}
    #: every outcome a game can end in, so that statistics show the rare ones at 0%
    outcomes: ClassVar[tuple[str, ...]] = ()
    #: the game's own refusals: code -> (the rule cited, the log's English sentence); each
    #: is raised by ``refused`` with the facts its sentence names
    REFUSALS: ClassVar[dict[str, tuple[str, str]]] = {}
    #: the shape of ``State`` in saved records; bump it with a migration (companion/migrate.py)
    FORMAT: ClassVar[int] = 1
    State: ClassVar[type]

    s: Any
    ballot: Ballot | None

    def __init__(self, players: int, rng: random.Random, **options: Any) -> None:
        self.players = self.checked_players(players)
        self.options = self._checked_options(options)
        self.rng = rng
        self.ballot = None
        self.setup()

    @classmethod
    def default_players(cls) -> int:
        """The table size unless told: seven where the game allows it, else the nearest."""
        return min(max(USUAL_PLAYERS, cls.min_players), cls.max_players)

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        """Every option's default."""
        return {key: option.default for key, option in cls.OPTIONS.items()}

    @classmethod
    def checked_players(cls, players: Any) -> int:
        """``players`` if the game can be played by that many, else the range in words."""
        if not isinstance(players, int) or not (cls.min_players <= players <= cls.max_players):
            if cls.min_players == cls.max_players:
                seats = f"exactly {cls.min_players}"
            else:
                seats = f"{cls.min_players} to {cls.max_players}"
            raise SettingsError(f"{cls.name.capitalize()} is for {seats} players, not {players!r}")
        return players

    @classmethod
    def checked_settings(cls, players: Any, options: dict[str, Any]) -> dict[str, Any]:
        """The options merged with the defaults, once the player count and options are valid."""
        cls.checked_players(players)
        return cls._checked_options(options)

    @classmethod
    def _checked_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(options) - set(cls.OPTIONS))
        if unknown:
            known = ", ".join(sorted(cls.OPTIONS)) or "none"
            raise SettingsError(f"{cls.name} has no option {unknown[0]!r} (options: {known})")
        merged = {**cls.defaults(), **options}
        for key, option in cls.OPTIONS.items():
            allowed = option.values
            if allowed is not None and merged[key] not in allowed:
                raise SettingsError(
                    f"{cls.name} option {key} must be one of {', '.join(map(str, allowed))}, "
                    f"not {merged[key]!r}"
                )
        return merged

    # -- what subclasses provide -------------------------------------------
    def setup(self) -> None:
        raise NotImplementedError

    def _decide(self) -> Decision | None:
        """What the game waits for now (``decision`` keeps it until the next move)."""
        raise NotImplementedError

    def _apply(self, seat: int, choice: Choice) -> None:
        """Apply a choice already checked against ``decision``; must not raise."""
        raise NotImplementedError

    def _peek_decision(self) -> Decision:
        """Each seat in turn reads its own secret card privately (``s.peeked`` counts them)."""
        return Decision("peek", (self.s.peeked,), ("seen",), secret=True)

    def _peek_seen(self) -> bool:
        """One more seat has read its card; True once every seat has."""
        self.s.peeked += 1
        return bool(self.s.peeked == self.players)

    def _refusal(self, decision: Decision, seat: int, choice: Choice) -> IllegalMove:
        """Why ``choice`` is not among the options: the rule it breaks."""
        listed = ", ".join(map(str, decision.options))
        return self.refused("not_a_choice", choice=repr(choice), kind=decision.kind, choices=listed)

    @classmethod
    def refusals(cls) -> dict[str, tuple[str, str]]:
        """Every refusal this game can give: the contract's and its own."""
        return {**CONTRACT_REFUSALS, **cls.REFUSALS}

    def refused(self, code: str, **facts: Fact) -> IllegalMove:
        """The refusal ``code`` (declared in ``REFUSALS``) with its facts, ready to raise."""
        rule, text = self.REFUSALS.get(code) or CONTRACT_REFUSALS[code]
        return IllegalMove(text.format(**facts), code, rule, facts)

    def _public(self) -> dict[str, Any]:
        """The game's own public facts, each value built frozen (``FrozenDict``,
        ``FrozenList``, or a str, number, bool or None): ``public_view`` adds the common facts
        and takes the values as they are, so no walk over the view ever freezes it. Worked
        out once a state and kept across the casts and peeks (``_kept``), which must
        therefore change none of them."""
        raise NotImplementedError

    def _revealed(self) -> dict[str, Any]:
        """What the end of the game reveals (roles, cards), beside the result."""
        return {}

    def _private(self, seat: int) -> dict[str, Any]:
        """What ``seat`` alone knows, each value built frozen as in ``_public``."""
        return {}

    def _public_options(self) -> dict[str, Any]:
        return dict(self.options)

    @functools.cached_property
    def _options_view(self) -> FrozenDict:
        """The public options, frozen once: options never change during a game."""
        return freeze(self._public_options())  # type: ignore[no-any-return]

    @property
    def result(self) -> Result | None:
        raise NotImplementedError

    # -- what is worked out once a state ------------------------------------
    def _kept(self, key: str, build: Callable[[], Any]) -> Any:
        """``build()``, kept across the moves that change no public fact: the casts of a
        secret ballot (only the ballot changes) and the private reading of cards (only the
        count of seats that have read). What is kept is shared by the views of those
        moves, so it must be frozen (``companion.games.frozen``). The game's public facts
        (``_public``) are kept so ("facts")."""
        kept: dict[str, Any] | None = self.__dict__.get("_kept_")
        if kept is None:
            value = build()
            self.__dict__["_kept_"] = {key: value}
            return value
        value = kept.get(key, _UNSET)  # no exception: most moves miss
        if value is _UNSET:
            value = kept[key] = build()
        return value

    def _frozen(self, slot: str, value: Any) -> Any:
        """``value`` frozen for every view to share, frozen once: a record the state replaces
        but never changes (the last trick, the last coup); kept in the attribute ``slot``."""
        known: tuple[Any, Any] | None = self.__dict__.get(slot)
        if known is not None and known[0] is value:
            return known[1]
        frozen = freeze(value)
        self.__dict__[slot] = (value, frozen)
        return frozen

    def _frozen_copy(self, slot: str, items: list[Any]) -> FrozenList:
        """``items`` (a list of str or int the state changes in place) frozen for every view
        to share, and the same frozen list while it stays equal: most such lists change a few
        times a game, and comparing one costs a seventh of freezing it. Kept in ``slot``."""
        known: FrozenList | None = self.__dict__.get(slot)
        if known is not None and known == items:
            return known
        frozen = self.__dict__[slot] = FrozenList(items)
        return frozen

    def _frozen_log(self, slot: str, entries: list[Any]) -> FrozenList:
        """``entries`` frozen for every view to share: a log that is only appended to (a
        history), whose entries never change once in it. Each entry is frozen once; the
        frozen log is kept in the game's attribute ``slot``."""
        known: tuple[list[Any], FrozenList] | None = self.__dict__.get(slot)
        if known is not None and known[0] is entries:
            frozen = known[1]
            if len(frozen) == len(entries):
                return frozen
            if len(frozen) < len(entries):
                frozen = FrozenList([*frozen, *map(freeze, entries[len(frozen) :])])
                self.__dict__[slot] = (entries, frozen)
                return frozen
        frozen = FrozenList(map(freeze, entries))
        self.__dict__[slot] = (entries, frozen)
        return frozen

    # -- the contract --------------------------------------------------------
    @property
    def decision(self) -> Decision | None:
        """What is asked now, of whom, among which options; None when the game is over."""
        d = self.__dict__.get("_decision_", _UNSET)  # no exception: each state misses once
        if d is _UNSET:
            d = self.__dict__["_decision_"] = self._decide()
        return d  # type: ignore[no-any-return]

    @property
    def over(self) -> bool:
        return self.decision is None

    def public_view(self) -> dict[str, Any]:
        """What everybody may know: JSON-ready, and the only way out for shared facts.

        Worked out once a state, frozen, and the same object for every reader until the
        next move (the table, the TV, the phones, the bots and the journal all read it)."""
        view: FrozenDict | None = self.__dict__.get("_public_")
        if view is None:
            view = self.__dict__["_public_"] = self._public_view()
        return view

    def _public_view(self, seat: int | None = None) -> FrozenDict:
        """The public view, or ``seat``'s, built from its parts in one frozen dict: the common
        facts, the game's (worked out once a state and kept across the moves that change
        none, ``_kept``), at the end what the end reveals, and the seat's own."""
        d = self.decision
        view = FrozenDict(  # from a dict, not keywords: twice as fast
            {
                "game": self.name,
                "players": self.players,
                "options": self._options_view,
                "waiting": d.frozen_json() if d else None,
            }
        )
        # The game's facts are frozen as built: joined as they are, in one copy, with no walk.
        # A game may say "waiting" its own way (Kolkhoz).
        kept: dict[str, Any] | None = self.__dict__.get("_kept_")  # ``_kept``, inline
        facts = kept.get("facts") if kept is not None else None
        if facts is None:
            facts = self._public()
            if kept is None:
                self.__dict__["_kept_"] = {"facts": facts}
            else:
                kept["facts"] = facts
        _join(view, facts)
        if d is None:  # once a game: the end's facts are frozen here
            result = self.result
            assert result is not None
            _join(view, freeze(self._revealed()))
            _join(view, {"result": freeze(result.to_json())})
        if seat is not None:
            _put(view, "seat", seat)
            _join(view, self._private(seat))  # frozen as built, as the public facts are
        return view

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know: the public view and its own secrets, worked out once a
        state and seat, frozen and shared as ``public_view`` is."""
        if type(seat) is not int or not 0 <= seat < self.players:
            self.check_seat(seat)
        views: dict[int, FrozenDict] | None = self.__dict__.get("_views_")
        if views is None:
            views = self.__dict__["_views_"] = {}
        view = views.get(seat)
        if view is None:
            view = views[seat] = self._public_view(seat)
        return view

    def act(self, seat: int, choice: Choice) -> None:
        """Answer the current decision for ``seat``; ``IllegalMove`` changes nothing."""
        d = self.decision
        if d is None:
            raise self.refused("over")
        if not (type(seat) is int and 0 <= seat < self.players) and not self.is_seat(seat):
            raise self.refused("no_seat", seat=repr(seat), players=self.players)
        if seat not in d.seats:
            waiting = ", ".join(str(s + 1) for s in d.seats)
            raise self.refused("not_asked", seat=seat + 1, kind=d.kind, waiting=waiting)
        for option in d.options:  # same_choice, inline: this runs on every move
            if option == choice and type(option) is type(choice):
                break
        else:
            raise self._refusal(d, seat, choice)
        ballot = self.ballot
        self._apply(seat, choice)
        views = self.__dict__
        views.pop("_decision_", None)  # answered: the next one is worked out anew
        views.pop("_public_", None)  # and so are the views, when somebody reads them
        views.pop("_views_", None)
        # The same ballot still open and waiting: the move was a cast. A peek followed by
        # another: a seat read its card. Neither changes a public fact; any other move may.
        if ballot is not None and self.ballot is ballot and not ballot.complete:
            return
        if d.kind == "peek" and (after := self.decision) is not None and after.kind == "peek":
            return
        self.__dict__.pop("_kept_", None)

    def __getstate__(self) -> dict[str, Any]:
        """What a copy (``copy.deepcopy``, pickle) takes: the state, not what was worked out
        from it (the decision, the views), which the copy works out anew: a copy may be
        changed by hand (a test's what-if) before it is read."""
        # What is worked out is named ``_like_this_`` (the views, the decision, the frozen
        # parts a game keeps): none of it is copied.
        return {k: v for k, v in self.__dict__.items() if not (k[0] == "_" == k[-1])}

    def is_seat(self, seat: Any) -> bool:
        """Whether ``seat`` names a seat at this table (an int, and not a bool: True == 1)."""
        if type(seat) is not int and (not isinstance(seat, int) or isinstance(seat, bool)):
            return False
        return 0 <= seat < self.players

    def check_seat(self, seat: int) -> None:
        if not self.is_seat(seat):
            raise ValueError(f"there is no seat {seat!r} at a table of {self.players}")

    # -- save and restore ----------------------------------------------------
    @property
    def saveable(self) -> bool:
        """False while a secret ballot holds choices that still link to seats.

        A ballot just opened holds nothing secret: it is saved as its seats and
        options, so a power cut after the step that opened it loses nothing.
        """
        return self.ballot is None or self.ballot.empty

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record from which ``restore`` rebuilds exactly this game."""
        if not self.saveable:
            raise ValueError(
                "a secret ballot is open: the game can be saved only before or after it"
            )
        return {
            "game": self.name,
            "format": self.FORMAT,
            "players": self.players,
            "options": dict(self.options),
            "rng": rng_state(self.rng),
            "state": {f.name: _copied(getattr(self.s, f.name)) for f in _fields(self.State)},
            "ballot": None
            if self.ballot is None
            else {"seats": sorted(self.ballot.seats), "options": list(self.ballot.options)},
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Game:
        game = cls.__new__(cls)
        game.players = record["players"]
        game.options = cls._checked_options(record["options"])
        game.rng = rng_from_state(record["rng"])
        ballot = record.get("ballot")
        game.ballot = None if ballot is None else Ballot(ballot["seats"], ballot["options"])
        names = {f.name for f in dataclasses.fields(cls.State)}
        state = record["state"]
        if set(state) != names:
            raise ValueError(f"the saved {cls.name} state does not match this version")
        game.s = cls.State(**{name: _copied(value) for name, value in state.items()})
        return game


_ATOMS = frozenset({str, int, float, bool, type(None)})
_fields = functools.cache(dataclasses.fields)


def _copied(value: Any) -> Any:
    """A deep copy of a state's data, as ``dataclasses.asdict`` and ``copy.deepcopy`` make
    it but in one pass on exact types: the table saves (and its undo keeps) a record at every
    step, and the generic walk was a third of a kiosk day's CPU. Anything but a plain list,
    dict or scalar is copied by ``copy.deepcopy``, so a tuple stays a tuple (and fails the
    contract's JSON check) as before."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _copied(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else _copied(v) for v in value]
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)
