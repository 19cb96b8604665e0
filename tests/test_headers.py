"""A header never shows a result before its reveal screen.

A move that brings several reveal screens (Gulag: the supervisor's order, then
the inspection; Politburo: the purge's cards, pointing and losses; Glasnost:
the votes, then the policy) keeps the status line of the view before the move
on every screen but the last, so the canal, a ministry's level or a policy does
not change on the header while the table is still reading what leads up to it.
"""

import random

import pytest

from companion.bots import make_bots, next_move
from companion.games import GAMES as REGISTRY
from companion.games import new_game
from companion.ui import game_ui
from companion.ui.i18n import translator
from tests.conftest import alone, table_sizes

GAMES = tuple(REGISTRY)


def reveals(name, players, seed):
    """(status before the move, the move's reveal screens) for every move of a bot game."""
    ui = game_ui(name)
    t = translator("en")
    options = alone(name)  # the box deals, as before
    game = new_game(name, players=players, seed=seed, **options)
    bots = make_bots(game, "smart", random.Random(seed))
    while (move := next_move(game, bots)) is not None:
        before = game.public_view()
        game.act(*move)
        screens = ui.announcements(before, game.public_view(), t)
        if screens:
            yield ui.status(before, t), screens


@pytest.mark.parametrize("name", GAMES)
def test_every_reveal_screen_but_the_last_keeps_the_header_of_before_the_move(name):
    several = 0
    sizes = table_sizes(name)
    for players, seed in {(sizes[0], 1), (sizes[len(sizes) // 2], 3), (sizes[-1], 2)}:
        for status, screens in reveals(name, players, seed):
            if len(screens) > 1:
                several += 1
                assert [s.status for s in screens[:-1]] == [status] * (len(screens) - 1)
    assert several > 0  # the games do reach reveals of several screens


def test_gulag_the_canal_moves_on_the_inspection_not_on_the_order_before_it():
    seen = 0
    for status, screens in reveals("gulag", 7, 3):
        if len(screens) == 2:  # an order, then the inspection
            order, inspection = screens
            seen += 1
            assert order.status == status
            canal = int(status.rsplit(" ", 1)[1])
            work = int(inspection.big.rsplit("↑", 1)[1])
            turn = status.split()[1]
            assert inspection.status == f"Turn {turn} Canal {canal + work}"
    assert seen > 0
