"""``companion simulate``: bot games in bulk, reproducible under a seed."""

import json

import pytest

from companion.cli import main
from companion.simulate import simulate


def run_json(capsys, *args):
    assert main(["simulate", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_same_seed_same_numbers(capsys):
    a = run_json(capsys, "gulag", "--players", "6", "--games", "150", "--seed", "4")
    b = run_json(capsys, "gulag", "--players", "6", "--games", "150", "--seed", "4")
    for stats in (a, b):
        stats.pop("seconds")
        stats.pop("games_per_second")
    assert a == b
    c = run_json(capsys, "gulag", "--players", "6", "--games", "150", "--seed", "5")
    assert c["measures"] != a["measures"] or c["outcomes"] != a["outcomes"]


def test_gulag_rates_add_up_and_the_canal_is_in_range(capsys):
    stats = run_json(capsys, "gulag", "--players", "6", "--games", "200", "--seed", "1")
    assert set(stats["outcomes"]) == {"red", "black", "draw"}
    assert sum(stats["outcomes"].values()) == pytest.approx(1.0)
    assert stats["outcomes"]["draw"] > 0  # 6 players can split 3 and 3
    assert 0 <= stats["measures"]["canal"] <= 12
    assert stats["games_per_second"] > 0


def test_the_text_report_names_every_rate(capsys):
    assert main(["simulate", "gulag", "--players", "5", "--games", "20"]) == 0
    out = capsys.readouterr().out
    for word in ("red", "black", "draw", "canal", "games per second"):
        assert word in out


def test_faction_bots_differ_from_random_bots():
    smart = simulate("gulag", 8, 300, seed=2, bots="smart")
    rand = simulate("gulag", 8, 300, seed=2, bots="random")
    assert smart["outcomes"] != rand["outcomes"]


def test_bad_arguments_get_a_clear_message(capsys):
    assert main(["simulate", "gulag", "--players", "3", "--games", "2"]) == 2
    assert "Gulag is for 5 to 10 players" in capsys.readouterr().err
    assert main(["simulate", "gulag", "--games", "0"]) == 2
    assert "--games must be from 1 to" in capsys.readouterr().err
    assert main(["simulate", "gulag", "--option", "deck=es"]) == 2
    assert "deck must be one of en, fr" in capsys.readouterr().err


def test_kolkhoz_is_simulated_on_the_tables_cards_by_default():
    """The default deal is the table's cards: the bots enter the cards of a twin the box deals
    from the game's own seed (its jobs are the game's), and every game ends with a winner."""
    cards = simulate("kolkhoz", None, 2, seed=4)
    assert cards["players"] == 4 and sum(cards["outcomes"].values()) == pytest.approx(1.0)
    assert sum(v for k, v in cards["measures"].items() if k.endswith(" won")) >= 1.0
