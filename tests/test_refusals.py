"""Every refusal of every game, written in every language from its code and facts.

A game declares each refusal it can give (``REFUSALS``: a code, the rule it
cites, the log's English sentence); its ui module has the screen's text for
each code, and the French catalog a translation of each text. A refusal the
screen cannot write, or writes in English on a French table, fails here.
"""

import logging
import random
import string

import pytest

from companion.games import GAMES, IllegalMove, game_class, new_game, restore
from companion.ui import game_ui, refusals
from companion.ui.i18n import LANGUAGES, translator

#: a value for each fact a refusal can name, as a game gives it (a game's own below)
FACTS = {
    "seat": 3,
    "players": 7,
    "waiting": "2, 5",
    "kind": "vote",
    "choice": "'x'",
    "choices": "yes, no",
    "need": 2,
    "count": 4,
    "voters": 6,
    "place": 18,
    "partner": 17,
    "space": 10,
    "trick": 2,
    "suits": "hearts, diamonds, clubs, spades",
}
GAME_FACTS = {
    "gulag": {"card": "red"},
    "politburo": {"plan": "defence"},
    "glasnost": {"crisis": "The Baltic Way"},
    "kolkhoz": {"card": "6H", "suit": "hearts", "job": "Пахота"},
}


def fields(text: str) -> list[str]:
    return sorted({f for _, f, _, _ in string.Formatter().parse(text) if f})


def declared():
    """(game, code) for every refusal every game declares, the contract's included."""
    return [(name, code) for name in GAMES for code in game_class(name).refusals()]


def sample(name: str, code: str) -> IllegalMove:
    """The refusal ``code`` of a new game ``name``, with a value for each of its facts."""
    game = new_game(name, players=game_class(name).min_players, seed=1)
    _, text = game.refusals()[code]
    values = {**FACTS, **GAME_FACTS.get(name, {})}  # a game may need no facts of its own
    return game.refused(code, **{f: values[f] for f in fields(text)})


@pytest.mark.parametrize(("name", "code"), declared())
def test_every_refusal_is_written_in_every_language(name, code, caplog):
    refused = sample(name, code)
    ui = game_ui(name)
    text = ui.REFUSALS.get(code) or refusals.CONTRACT[code]
    assert set(fields(text)) <= {*refused.facts, "sign"}, "a text names only known facts"
    fr = translator("fr")
    assert fr(text) != text, f"no French for {text!r}"
    assert fields(fr(text)) == fields(text), "the French keeps the same facts"
    with caplog.at_level(logging.ERROR):
        shown = {lang: ui.refusal(refused, translator(lang)) for lang in LANGUAGES}
    assert caplog.records == []
    assert shown["fr"] != shown["en"]
    for lang, words in shown.items():
        assert "{" not in words, (lang, words)
        if refused.rule:
            assert words.startswith(refused.rule + (" :" if lang == "fr" else ":")), words


@pytest.mark.parametrize("name", list(GAMES))
def test_a_game_declares_each_refusal_once_with_its_rule(name):
    """The log's sentence names the rule its code cites (Kolkhoz's 2b quotes the rules text
    instead: "players follow suit if able"); the screen has no text for a code the game does
    not declare."""
    cls = game_class(name)
    for code, (rule, text) in cls.REFUSALS.items():
        assert text.startswith(f"{rule}: ") or not rule or rule == "2b", (code, text)
    assert set(game_ui(name).REFUSALS) <= set(cls.REFUSALS)


def test_a_refusal_is_a_value_error_with_its_english_sentence():
    game = new_game("gulag", players=7, seed=3)
    while game.decision.kind == "peek":
        game.act(game.decision.seats[0], "seen")
    commissar = game.decision.seats[0]
    before = game.to_record()
    with pytest.raises(ValueError, match="G3: the commissar never selects themself") as exc:
        game.act(commissar, commissar)
    assert (exc.value.code, exc.value.rule, exc.value.facts) == ("self_pick", "G3", {})
    assert game.to_record() == before
    with pytest.raises(IllegalMove) as exc:
        game.act((commissar + 1) % 7, 0)
    assert exc.value.code == "not_asked"
    assert exc.value.facts["seat"] == (commissar + 1) % 7 + 1
    assert str(exc.value).startswith(f"seat {(commissar + 1) % 7 + 1} is not asked now")


def test_a_code_without_a_screen_text_is_said_in_the_log(caplog):
    refused = IllegalMove("something new", "unheard_of", "", {})
    with caplog.at_level(logging.ERROR):
        assert refusals.render(refused, {}, translator("fr")) == "something new"
    assert "unheard_of" in caplog.text


@pytest.mark.parametrize("name", list(GAMES))
def test_every_refusal_met_in_random_games_is_written_in_french(name):
    """Random legal games, and at each decision every value the cursor offers that the
    rules refuse: each refusal is written, in French, from its code and facts."""
    cls = game_class(name)
    ui = game_ui(name)
    fr = translator("fr")
    codes = set()
    for seed in range(3):
        players = min(cls.max_players, cls.min_players + seed % 2)
        game = new_game(name, players=players, seed=seed)
        rng = random.Random(seed)
        while (d := game.decision) is not None:
            if not d.secret:
                view = game.view(d.seats[0])
                for option in ui.candidates(d, view):
                    if option in d.options:
                        continue
                    with pytest.raises(IllegalMove) as refused:
                        restore(game.to_record()).act(d.seats[0], option)
                    codes.add(refused.value.code)
                    assert ui.refusal(refused.value, fr) != str(refused.value)
            game.act(d.seats[0], rng.choice(d.options))
    assert codes <= set(cls.refusals())


def test_no_screen_reads_a_refusal_with_a_regular_expression():
    """The screens write refusals from codes and facts: nothing in companion/ui/ parses text."""
    import ast
    from pathlib import Path

    ui = Path(refusals.__file__).parent
    for path in sorted(ui.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            assert "re" not in names and "regex" not in names, path.name
