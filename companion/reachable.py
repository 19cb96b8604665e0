"""Every screen a person can reach from one decision, drawn as the table draws it.

A saved state can have its shape, keep its game's invariants and still hold
something the screens cannot draw: the first Down press, not the resume, would
then raise, and the box would die at every start. So before a resumed step is
trusted, ``companion.trust`` has every screen of its decision drawn here, in
each language, by the table's own screen code (``companion.table.screens``,
the box's prompts as ``companion.table.buttons`` chooses them) and the game's
screens (``companion.ui.contract.GameUI``), on the same views:

- the frame: the status line, the bar, the tracker; at the end, every page;
- for each seat asked: the hand-over, then its prompt, with PEEK held and not:
  the start-of-game look (and its "not looked yet"), the A/B choice and each
  answer's confirmation, or the cursor on every option it can reach, with its
  line and keys (and the log's label of each);
- a question asked in the open: the countdown, a claim on each seat, each answer;
- every press a seat can make on an open choice, played on a copy: the
  refusal shown for a refused option, the reveals after an accepted one.

Only text is drawn: what the canvas makes of a line is the same for any line.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, cast

from companion.box.clock import VirtualClock
from companion.errors import IllegalMove
from companion.games import Decision, Game, restore
from companion.table.answers import Port
from companion.table.buttons import Buttons
from companion.table.countdown import ClaimDesk
from companion.table.modes import Choose, Claim, Confirm, Countdown, Cursor, Mode, Peek
from companion.table.names import Naming
from companion.table.screens import offers as cursor_offers
from companion.table.screens import prompt_screen
from companion.table.watchers import Step
from companion.ui.contract import GameUI
from companion.ui.i18n import Translate


@dataclass
class _Keys:
    """The box's buttons as a screen reads them: PEEK held, or nothing."""

    peek: bool = False

    def is_down(self, button: str) -> bool:
        return self.peek and button == "peek"


@dataclass
class _Pen:
    """No seat named: the screens say "seat N"."""

    names: Naming = dataclasses.field(default_factory=Naming)


@dataclass
class _Sight:
    """The little of the table its screens read (``Port``): the game, its screens and
    language, who holds the box, whether PEEK is held; and the cursor's options."""

    game: Game
    ui: GameUI
    t: Translate
    holder: int | None = None
    inputs: _Keys = dataclasses.field(default_factory=_Keys)
    mode: Mode | None = None  # the countdown's screen, drawn by its desk
    clock: VirtualClock = dataclasses.field(default_factory=VirtualClock)
    shown: Any = None  # no picture on the panel: the screens are drawn
    record: _Pen = dataclasses.field(default_factory=_Pen)  # no names: "seat N"

    def now(self) -> Step:
        """The step's public view, as the table hands it to every screen."""
        return Step.of(self.game, self.ui, self.t, None)

    @property
    def box(self) -> _Sight:
        return self  # ``box.inputs``: the keys; ``box.clock``: the countdown's

    def offers(self, d: Decision) -> tuple[Any, ...]:
        return offers(self.game, d, self.ui)

    def decision(self) -> Decision | None:
        return self.game.decision


def draw_decision(game: Game, ui: GameUI, t: Translate, *, presses: bool = True) -> None:
    """Draw every screen of ``game``'s decision; with ``presses``, every open choice's
    outcome too (on copies: ``game`` is left as it was). Raises what a screen raises."""
    view = game.public_view()
    status = ui.status(view, t)
    ui.bar(view)
    ui.tracker(view, t)
    for seat in range(game.players):
        game.view(seat)
    d = game.decision
    if d is None:
        ui.final(view, t)
        return
    sight = _Sight(game, ui, t)
    port = cast(Port, sight)  # what ``prompt_screen`` and the box's prompts read of it
    for seat in d.seats:
        sight.holder = None  # "Box to seat N": nobody holds it yet
        _draw(sight, Buttons(port).ask(d, (seat,)), d, view, status)
        sight.holder = seat  # then the seat's own prompts, PEEK showing its own card
        first = Buttons(port).prompt(d, seat)
        for mode in _prompts(first, ui, d):
            _draw(sight, mode, d, view, status)
        if isinstance(first, Cursor):
            for option in first.options:
                ui.choice_label(d, view, option, str)  # the log's words
            if presses and game.saveable:
                _press_each(game, d, seat, first.options, ui, t)
    if ui.open_check(d, view, t) is not None:
        _countdown(sight, d, status)


def _countdown(sight: _Sight, d: Decision, status: str) -> None:
    """The question asked in the open: the countdown, then a claim on each seat, each answer
    (``companion.table.countdown``)."""
    buttons = sight.ui.choice_buttons(d)
    assert buttons is not None
    desk = ClaimDesk(cast(Port, sight))
    claims: list[Mode] = [Claim(at=k) for k in range(sight.game.players)]
    claims += [Claim(at=0, pending=choice) for choice in buttons]
    for mode in (Countdown(), *claims):
        sight.mode = mode
        desk.screen(status)


def _draw(sight: _Sight, mode: Mode | None, d: Decision, view: dict[str, Any], status: str) -> None:
    """One prompt as the table draws it, with PEEK held and not."""
    assert mode is not None
    for peek in (False, True):
        sight.inputs.peek = peek
        prompt_screen(cast(Port, sight), mode, d, view, status)


def _prompts(first: Mode, ui: GameUI, d: Decision) -> list[Mode]:
    """The prompt the seat first sees, and every one its presses reach from it."""
    match first:
        case Peek(seat):
            return [first, Peek(seat, looked=False, asked=True)]
        case Choose(seat):
            buttons = ui.choice_buttons(d)
            assert buttons is not None
            return [first, *(Confirm(seat, choice) for choice in buttons)]
        case Cursor(seat, options=options, at=at):
            if not 0 <= at < len(options):
                raise IndexError(f"the cursor starts at {at} of {len(options)} at {d.kind}")
            return [Cursor(seat, options, i) for i in range(len(options))]
    return [first]


def offers(game: Game, d: Decision, ui: GameUI) -> tuple[Any, ...]:
    """The cursor's options as the table orders them: the legal ones first."""
    return cursor_offers(cast(Port, _Sight(game, ui, str)), d)


def _press_each(
    game: Game, d: Decision, seat: int, options: tuple[Any, ...], ui: GameUI, t: Translate
) -> None:
    """OK on each option, on a copy: the refusal or the reveals the table would show."""
    record = game.to_record()
    before = game.public_view()
    for option in options:
        copy = restore(record)
        try:
            copy.act(seat, option)
        except IllegalMove as refused:
            ui.refusal(refused, t)
            continue
        ui.announcements(before, copy.public_view(), t)
