"""Every screen a person can reach from one decision, drawn as the table draws it.

A saved state can have its shape, keep its game's invariants and still hold
something the screens cannot draw: the first Down press, not the resume, would
then raise, and the box would die at every start. So before a resumed step is
trusted, ``companion.trust`` has every screen of its decision drawn here, in
each language, from the same hooks of the game's screens
(``companion.ui.contract.GameUI``) the table calls, on the same views:

- the frame: the status line, the bar, the tracker; at the end, every page;
- for each seat asked: the hand-over (``role_of`` on the public view), the
  private card PEEK shows at the seat's own prompt, then the prompt itself:
  the start-of-game look, the A/B choice (its two labels, and the countdown's
  question when it is asked in the open), or the cursor: every option it can
  reach, in the table's order (``Table.offers``: the legal ones first), with
  the prompt, the option's line and its label on the seat's own view, and the
  log's label on the public view;
- every press a seat can make on an open choice, played on a copy: the
  refusal shown for a refused option, the reveals after an accepted one.

Only text is drawn: what the canvas makes of a line is the same for any line.
"""

from __future__ import annotations

from typing import Any

from companion.errors import IllegalMove
from companion.games import Decision, Game, restore
from companion.games.base import same_choice
from companion.ui.contract import GameUI
from companion.ui.i18n import Translate


def draw_decision(game: Game, ui: GameUI, t: Translate, *, presses: bool = True) -> None:
    """Draw every screen of ``game``'s decision; with ``presses``, every open choice's
    outcome too (on copies: ``game`` is left as it was). Raises what a screen raises."""
    view = game.public_view()
    ui.status(view, t)
    ui.bar(view)
    ui.tracker(view, t)
    for seat in range(game.players):
        game.view(seat)
    d = game.decision
    if d is None:
        ui.final(view, t)
        return
    for seat in d.seats:
        own = game.view(seat)
        ui.role_of(d, view, t)
        ui.peek(own, t)  # PEEK held at the seat's own prompt
        buttons = ui.choice_buttons(d)
        if d.kind == "peek":
            ui.prompt(d, view, t)
        elif d.secret and buttons is not None:
            ui.prompt(d, view, t)
            for option in buttons:
                ui.option_label(option, t)
            ui.open_check(d, view, t)
        else:
            options = _cursor(game, d, ui, t, own, view)
            if presses and game.saveable:
                _press_each(game, d, seat, options, ui, t)


def offers(game: Game, d: Decision, ui: GameUI) -> tuple[Any, ...]:
    """The cursor's options as the table orders them: the legal ones first."""
    items = ui.candidates(d, game.view(d.seats[0]))
    legal = [x for x in items if any(same_choice(x, o) for o in d.options)]
    return (*legal, *(x for x in items if x not in legal))


def _cursor(
    game: Game, d: Decision, ui: GameUI, t: Translate, own: dict[str, Any], view: dict[str, Any]
) -> tuple[Any, ...]:
    """Every line the cursor shows, wherever Up and Down take it."""
    options = offers(game, d, ui)
    start = ui.cursor_start(d, options)
    if not 0 <= start < len(options):
        raise IndexError(f"the cursor starts at {start} of {len(options)} options at {d.kind}")
    for option in options:
        ui.prompt(d, own, t)
        ui.option_detail(d, own, option, t)
        ui.choice_label(d, own, option, t)
        ui.choice_label(d, view, option, str)  # the log's words
    return options


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
