"""Screens: each game's public view drawn on the 128x64 canvas, in English or French.

Every game has a screens module in its folder, ``companion/games/<game>/screens.py``,
which its record in the one registry ``companion.games.GAMES`` returns as a ``GameUI``.
The table drives it through that protocol (``companion.ui.contract``), reading the
game's views only:

- ``TITLE``; ``SETTINGS``: option -> values, the first the default ("players"
  first), read from the engine's ``OPTIONS`` (``companion.ui.settings``);
  ``setting_label(key, t)``; ``setting_value(key, value, t)``.
- ``status(view, t)``: the top line (turn, score); ``bar(view)``: LEDs lit, 0-10.
- ``role_of(decision, view, t)``: what the seat asked is about to do (hand-over
  screen), naming what is at stake from the public view (Politburo: the
  ministry; Glasnost: the crisis).
- ``tracker(view, t)`` (optional): one more line for the hand-over screen, for a
  track the status line has no room for (Politburo: every seat's influence).
- ``prompt(decision, view, t)``: up to three lines that name the seat and the question.
- ``candidates(decision, view)``: what the Up/Down cursor runs through for an
  open choice (may include refused values, so the refusal is explained);
  ``option_label(option, t)``: how one value is shown.
- ``choice_buttons(decision)``: the two options on the A and B buttons for a
  secret choice, or None.
- ``announcements(before, after, t)``: screens the table must see after a move
  (reveals), each dismissed with OK.
- ``final(view, t)``: the pages of the last screen.
- ``refusal(refused, t)``: a refused move (``IllegalMove``: a code, its rule
  and facts) as shown on screen, written from the module's ``REFUSALS`` texts
  through ``companion.ui.refusals`` (short enough to fit, translated, still
  naming the rule); the log keeps the game's own English sentence.

Optional, with a default in ``companion.ui.defaults`` that the module imports:

- ``cards_label(cards)``: a list of cards in a private view as the game
  writes them (Kolkhoz: "Q♥ 3♣"), for a phone's page.
- ``peek(view, t)``: the private screen shown while PEEK is held, on a decision
  of kind "peek" and at the seat's own prompt (``view`` is that seat's);
  Kolkhoz shows the hand and the plot's hidden cards when the box deals.
- ``choice_label(decision, view, option, t)``: the cursor's label (and the
  log's) when the same value means different things in different decisions
  (Glasnost: an int is a board seat when sitting, a player when naming);
  ``defaults.label_by_option(option_label)`` makes the plain one.
- ``option_detail(decision, view, option, t)``: one line about the option
  under the cursor (or None), shown between the prompt's first line and the
  cursor.
- ``cursor_start(decision, options)``: the index the cursor starts on (the
  first option by default; Glasnost's seats: the middle one).
- ``opening(view, t)``: screens read before the first decision, each
  dismissed with OK (none by default; Glasnost: where the shuffled crisis
  cards go).

``t`` translates an English message (gettext); every literal passed to it
needs an entry in ``locale/fr/LC_MESSAGES/companion.po``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games import GAMES

if TYPE_CHECKING:
    from companion.ui.contract import GameUI


def game_ui(name: str) -> GameUI:
    """The ui module of game ``name`` (a name of the registry ``GAMES``)."""
    if name not in GAMES:
        raise ValueError(f"no game called {name!r} (games: {', '.join(GAMES)})")
    module: GameUI = GAMES[name].load("ui")
    return module
