"""One record per game: each part it names loads, and is the part the house uses.

The rooms that show a game (screens, TV picture, learn pages) and those that
keep it (migrations) find it through its record alone, so a record that
points at the wrong place fails here, not at a table.
"""

import dataclasses
import random

import pytest

from companion.bots import make_bots, play_out
from companion.games import GAMES, Game, game_class, game_record, new_game
from companion.kiosk import learn
from companion.migrate import migrations
from companion.ui import game_ui
from companion.ui.contract import GameUI
from companion.web.pictures import picture


@pytest.mark.parametrize("name", list(GAMES))
def test_every_part_a_record_names_loads(name):
    record = GAMES[name]
    assert record.name == name
    engine = record.load("engine")
    assert issubclass(engine, Game) and engine.name == name
    assert game_class(name) is engine
    ui = record.load("ui")
    assert game_ui(name) is ui
    for hook in GameUI.__annotations__:
        assert hasattr(ui, hook), f"{name}'s screens have no {hook}"
    assert len(record.load("learn")) >= 3
    assert set(record.load("migrations")) == set(range(1, engine.FORMAT))
    tv = record.load("tv")
    assert callable(record.load("bots")) and callable(tv.picture)
    for hook in ("status_words", "for_the_table", "private_card"):
        assert callable(getattr(tv, hook)), f"{name}'s tv has no {hook}"


@pytest.mark.parametrize("name", list(GAMES))
def test_what_a_record_calls_hidden_is_held_seat_by_seat_in_the_state(name):
    game = new_game(name, players=game_class(name).min_players, seed=1)
    fields = {f.name for f in dataclasses.fields(game.s)}
    for field in game_record(name).hidden:
        assert field in fields
        assert len(getattr(game.s, field)) == game.players


@pytest.mark.parametrize("name", list(GAMES))
def test_the_journal_checks_a_saved_game_against_the_shape_its_record_names(name):
    from companion.games.shape import ShapeError, check_record, shape_of

    assert shape_of(name) is GAMES[name].load("state_shape")
    record = new_game(name, players=game_class(name).min_players, seed=3).to_record()
    check_record(record)  # a fresh game has its declared shape
    record["state"]["phase" if "phase" in record["state"] else next(iter(record["state"]))] = 12.5
    with pytest.raises(ShapeError):
        check_record(record)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_tv_picture_learn_pages_bots_and_migrations_come_from_the_record(name):
    """Each room reaches its part of the game through the record: the TV draws the game's
    own picture, the booth reads its pages, the bots are its own, the journal its steps."""
    game = new_game(name, players=game_class(name).min_players, seed=2)
    drawn = picture(game.public_view())
    assert drawn.startswith("<svg") and drawn == GAMES[name].load("tv").picture(
        game.public_view(), str
    )
    assert learn.pages_of(name) is GAMES[name].load("learn")
    assert migrations(name) is GAMES[name].load("migrations")
    bots = make_bots(game, "smart", random.Random(2))
    assert type(bots[0]).__module__ == f"companion.games.{name}.bots"
    assert play_out(game, bots).winners <= set(range(game.players))


@pytest.mark.parametrize("name", list(GAMES))
def test_the_setup_screen_offers_what_the_engine_declares_starting_at_its_defaults(name):
    """One default, one range: the setup rows are the engine's options, each starting at its
    default, and a game started without settings is the setup screen's first choice."""
    cls = game_class(name)
    rows = game_ui(name).SETTINGS
    assert next(iter(rows)) == "players"
    assert sorted(rows["players"]) == list(range(cls.min_players, cls.max_players + 1))
    on_screen = {key for key, option in cls.OPTIONS.items() if not option.command_line_only}
    assert set(rows) - {"players"} == on_screen
    for key in on_screen:
        assert rows[key][0] == cls.OPTIONS[key].default
        assert sorted(map(str, rows[key])) == sorted(map(str, cls.OPTIONS[key].values or ()))
    game = new_game(name, seed=1)
    assert game.players == rows["players"][0] == min(max(7, cls.min_players), cls.max_players)
    firsts = {key: rows[key][0] for key in on_screen}
    assert {key: game.options[key] for key in on_screen} == firsts


def test_kolkhoz_starts_with_the_tables_cards_and_glasnosts_board_is_for_the_command_line():
    assert new_game("kolkhoz", seed=1).options["deal"] == "cards"
    assert game_ui("kolkhoz").SETTINGS["deal"] == ("cards", "box")
    board = game_class("glasnost").OPTIONS["board"]
    assert board.command_line_only and "board" not in game_ui("glasnost").SETTINGS
