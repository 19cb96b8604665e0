"""The one seam for watchers: what the TV, a scoreboard or any listener hears of the table.

A watcher joins through ``Table.watch`` and is told of events; it never
answers, never holds a part of the table and never calls back into the game.
Every event of one step carries the same ``Step``: the public view worked out
once after the step (``companion.table.loop``), with what is needed to say it
in the table's language. Modelled on mopidy's ``CoreListener``: one method an
event, every one MAY be implemented, the defaults do nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from companion.ui.canvas import Screen
from companion.ui.contract import GameUI
from companion.ui.i18n import Translate
from companion.valueclass import valueclass

if TYPE_CHECKING:
    from companion.games import Game

View = dict[str, Any]


@valueclass(frozen=True, eq=False)
class Step:
    """What everybody may know after one step, worked out once and handed to every screen.

    ``view`` is the game's public view (None: no game on the table); ``own`` gives a
    seat's own view, for that seat's private screen only (its phone, its prompt).
    """

    view: View | None
    ui: GameUI
    t: Translate
    own: Callable[[int], View] | None = None
    source: Game | None = None  # the game it was worked out from (by identity: still it?)

    @property
    def public(self) -> View:
        """The public view of a step with a game on the table."""
        assert self.view is not None, "no game on the table"
        return self.view

    @classmethod
    def of(cls, game: Game | None, ui: GameUI, t: Translate, last: Step | None) -> Step:
        """The step of ``game`` now: ``last`` again while the game and its public view are
        the same objects (the game works its view out once a state and keeps it until the
        next move, wherever the move came from), else a new step."""
        view = None if game is None else game.public_view()
        if last is not None and last.source is game and last.view is view:
            same = last.ui is ui and last.t is t  # setup changes the game or the language
            return last if same else cls(view, ui, t, last.own, last.source)
        if game is None:
            return cls(None, ui, t)
        return cls(view, ui, t, game.view, game)


class Watcher(Protocol):
    """One listener of the table. Every method MAY be implemented; the defaults do nothing."""

    def began(
        self, key: str | None, resumed: bool, earlier: Sequence[Sequence[Screen]] = ()
    ) -> None:
        """A game starts or resumes (``key``: which game it is in the journal; ``earlier``:
        its reveals so far, each step's screens, when it resumes)."""
        return None

    def stepped(self, step: Step) -> None:
        """The table moved on (a move, an undo, a new game, setup): what everybody sees now."""
        return None

    def revealed(self, screens: Sequence[Screen]) -> None:
        """Results shown on the box as they happen (votes, cards, events)."""
        return None

    def ended(self, step: Step) -> None:
        """The game is over (told once, after the step that ended it)."""
        return None

    def held(self, seat: int | None) -> None:
        """The box changed hands: the seat that took it (None: nobody holds it)."""
        return None

    def connected(self, seats: frozenset[int]) -> None:
        """The seats served away from the box (pads, phones) are now ``seats``."""
        return None

    def named(self, names: Mapping[int, str]) -> None:
        """The seats' names (public labels; a seat without one is absent) are now ``names``."""
        return None


class Audience:
    """The watchers of one table, each event told to all; a step, its end, who holds the box
    and who is served away from it only when they changed since the last ``tell``."""

    def __init__(self) -> None:
        self.watchers: list[Watcher] = []
        self._step: Step | None = None
        self._ended: object = None  # the game whose end was told
        self._holder: int | None = -1  # no seat: the first tell says who holds the box
        self._seats: frozenset[int] | None = None
        self._names: dict[int, str] | None = None

    def __bool__(self) -> bool:
        return bool(self.watchers)

    def add(self, watcher: Watcher) -> None:
        """A new watcher hears the table as it is now, at the next ``tell``, as all do."""
        self.watchers.append(watcher)
        self._step, self._holder, self._seats, self._names = None, -1, None, None

    def began(
        self, key: str | None, resumed: bool, earlier: Sequence[Sequence[Screen]] = ()
    ) -> None:
        for watcher in self.watchers:
            watcher.began(key, resumed, earlier)

    def revealed(self, screens: Sequence[Screen]) -> None:
        if screens:
            for watcher in self.watchers:
                watcher.revealed(screens)

    def tell(
        self,
        step: Step,
        holder: int | None,
        served: Iterable[int],
        names: Mapping[int, str] | None = None,
    ) -> None:
        """The table after a refresh: its step, who holds the box, who is served away, and
        what the seats are called."""
        seats = frozenset(served)
        if step is not self._step:
            self._step = step
            for watcher in self.watchers:
                watcher.stepped(step)
            over = step.source is not None and step.source.over
            if over and step.source is not self._ended:
                self._ended = step.source
                for watcher in self.watchers:
                    watcher.ended(step)
        if holder != self._holder:
            self._holder = holder
            for watcher in self.watchers:
                watcher.held(holder)
        if seats != self._seats:
            self._seats = seats
            for watcher in self.watchers:
                watcher.connected(seats)
        if names is not None and names != self._names:
            self._names = dict(names)
            for watcher in self.watchers:
                watcher.named(self._names)
