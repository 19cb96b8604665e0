"""The demo's presses, as the README states them (the ``demo`` command).

Each row of the README's table is played (the demo's bots on the virtual box, seed 3)
and must take exactly the presses and moves it says. The demo's bots hold PEEK and take
the short way round a cursor, as a careful table does: a change that costs such a table
presses (a notice waiting for OK, a step at the hand-over, asking a seat that has looked)
shows here, and in the README. Every game of the registry has a row. In each, a
decision costs no more than passing a card: a secret choice or a look at a private card
three presses at most, its hand-over included (a reveal's one OK a screen is
``tests/test_reveals.py``'s).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from companion.demo import DemoRun, play
from companion.games import GAMES, game_class
from companion.table import Settings

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
ROW = re.compile(
    r"^  \| `(?P<game>\w+)(?: --players (?P<players>\d+))?(?: --option (?P<option>\w+=\w+))?`"
    r" \| (?P<presses>\d+) \| (?P<moves>\d+) \|$",
    re.MULTILINE,
)
ROWS = [
    (
        row["game"],
        int(row["players"]) if row["players"] else None,
        dict([row["option"].split("=")]) if row["option"] else {},
        int(row["presses"]),
        int(row["moves"]),
    )
    for row in ROW.finditer(README)
]
#: the most presses a decision of these screens takes, its hand-over included
MOST = {"choose": 3, "peek": 3}


def row_id(game: str, players: int | None, options: dict[str, str], *_: int) -> str:
    return "-".join([game, str(players or ""), *options.values()])


@functools.cache
def demo(game: str, players: int | None, option: tuple[tuple[str, str], ...]) -> DemoRun:
    seats = players or game_class(game).default_players()
    return play(Settings(game, seats, "en", dict(option)), seed=3)


def test_the_readme_has_a_row_for_every_game():
    assert len(ROWS) >= len(GAMES)
    assert {game for game, *_ in ROWS} == set(GAMES)


@pytest.mark.parametrize("row", ROWS, ids=[row_id(*row) for row in ROWS])
def test_a_demo_takes_the_presses_and_moves_the_readme_says(row):
    game, players, options, presses, moves = row
    run = demo(game, players, tuple(options.items()))
    assert run.table is not None and run.table.game is not None and run.table.game.over
    assert (run.presses, run.moves) == (presses, moves)


@pytest.mark.parametrize("row", ROWS, ids=[row_id(*row) for row in ROWS])
def test_a_secret_choice_or_a_look_costs_three_presses_at_most(row):
    game, players, options, *_ = row
    run = demo(game, players, tuple(options.items()))
    over = [(kind, screen, n) for kind, screen, n in run.costs if n > MOST.get(screen, n)]
    assert run.costs and over == []


def test_the_rows_ask_secret_choices_and_looks():
    """So that the rule above says something: the rows' games ask both."""
    asked = {
        screen
        for game, players, options, *_ in ROWS
        for _, screen, _ in demo(game, players, tuple(options.items())).costs
    }
    assert set(MOST) <= asked
