"""Work done while the box waits for its first press, so that the first game's presses are
as quick as the later games'.

The first frame loads only what it draws with; the rest of what a game needs is
loaded on first use: each game's rules and screens, and every line of text the
first time it is drawn (``companion.ui.canvas`` keeps each drawn line). On a Pi
Zero that made the first presses of an evening the slow ones. ``warm_up`` hands
the loop small tasks, one per turn of the loop, each a few milliseconds here:
load a game's modules, then draw (for nobody: the images are thrown away) the
hand-over and prompt screens of the first moves of a throwaway game, seeded, so
that nothing of a real table is touched, dealt or shown.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterator
from functools import partial

from companion.games import GAMES, game_class, new_game
from companion.ui import game_ui
from companion.ui.canvas import Screen, render
from companion.ui.i18n import Translate, translator

#: moves of each throwaway game whose screens are drawn
MOVES = 12
#: modules the first game needs that the first frame leaves out: the journal's checksum
#: (``companion.trust``) hashes with hashlib, which loads OpenSSL, at the first step written
LATER = ("hashlib",)


def warm_up(lang: str = "en") -> Iterator[Callable[[], None]]:
    """The tasks, in order: the modules of ``LATER``, every game's modules, then their first
    screens in ``lang`` (the table's language at start)."""
    for module in LATER:
        yield partial(_import, module)
    for name in GAMES:
        yield partial(_load, name)
    t = translator(lang)
    for name in GAMES:
        yield partial(_draw_first_screens, name, t)


def _import(module: str) -> None:
    importlib.import_module(module)


def _load(name: str) -> None:
    game_class(name)
    game_ui(name)


def _draw_first_screens(name: str, t: Translate) -> None:
    cls = game_class(name)
    game = new_game(name, players=cls.min_players, seed=0)
    ui = game_ui(name)
    rng = random.Random(0)
    for _ in range(MOVES):
        d = game.decision
        if d is None:
            return
        view = game.public_view()
        status = ui.status(view, t)
        seat = d.seats[0]
        render(Screen(status, (t("Box to seat {n}.").format(n=seat + 1), ui.role_of(d, view, t))))
        render(Screen(status, tuple(ui.prompt(d, view, t)), t("Hold PEEK, then OK")))
        game.act(seat, rng.choice(d.options))
