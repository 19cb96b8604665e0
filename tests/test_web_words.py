"""The TV and the phones speak the catalog's words, whole, in the table's language.

Every game of the registry is played to its end on phones with the table's
translator swapped for a pseudo-locale that marks each catalog message ⟦so⟧:
whatever the TV or a phone shows outside a mark (numbers, cards and the games'
proper names aside) was never translated. Every message they used must have a
French translation of its own (gettext's fallback to English does not count), no
Cyrillic word stands without the word it means, and none of the box's 21-column
short forms reaches a page.
"""

import importlib
import json
import re
import typing
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.games import game_record
from companion.games.glasnost.board import BOARD
from companion.games.glasnost.rules import OBJECTIVES
from companion.games.politburo.rules import MEMBERS
from companion.games.registry import GAMES
from companion.table import Settings
from companion.table.phones import PhoneDesk
from companion.ui.i18n import folder_locale_dirs
from tests.conftest import alone, usual_table
from tests.test_i18n import CATALOG
from tests.webtables import direct, give_phones, play_out, web_table

MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
#: the games' proper names, which no catalog translates (people, and the cards' ranks)
NAMES = {*MEMBERS, *OBJECTIVES, "J", "Q", "K", "A"}
CYRILLIC = re.compile("[\u0400-\u04ff]+")
#: a Russian word beside the word it means: "Harvesting (Жатва)"
GLOSSED = re.compile("\\w+⟧? \\(([\u0400-\u04ff]+)\\)")
#: the box's 21-column forms: arrows for a track's move, ticks, "3/7", digits run together
SHORT_FORMS = re.compile(r"[↑↓✓✗]|\b\d+/\d+\b|\b\d:\d+ \d:\d+")


class Pseudo:
    """A translator that marks every message it is asked for and remembers them."""

    def __init__(self):
        self.asked = set()

    def __call__(self, message):
        self.asked.add(message)
        return f"⟦{message}⟧"


def unmarked(text):
    """What is left of ``text`` once every marked message (marks nest) is taken out."""
    while True:
        stripped = MARKED.sub(" ", text)
        if stripped == text:
            return text
        text = stripped


def shown(room, seats):
    """Every text the TV and the phones show now: the spectator state's strings (its
    picture's text too) and each phone's page."""
    state = json.loads(room.spectator)
    texts = []
    if state.get("game") is None:
        return texts
    texts += [state["title"], state["status"], *state["prompt"], *state["words"].values()]
    for event in state.get("events") or ():
        texts += [line for screen in event["screens"] for line in screen]
    if state.get("end"):
        texts += [
            state["end"]["headline"],
            *(line for page in state["end"]["pages"] for line in page),
        ]
    texts += re.findall(r">([^<]+)</text>", state["picture"])
    for seat in seats:
        phone = json.loads(room.phone_message(seat))
        texts += [*phone["private"], *phone["refused"]]
        if phone["ask"]:
            texts += [*phone["ask"]["prompt"], *phone["ask"]["options"]]
    return texts


def played(game, monkeypatch):
    """``game`` played out on phones under the pseudo-locale: what was shown, what was asked."""
    pseudo = Pseudo()
    monkeypatch.setattr("companion.table.loop.translator", lambda lang: pseudo)
    players = usual_table(game)
    table, room, player = web_table(Settings(game, players, "en", alone(game)))
    seats = range(players)
    give_phones(room, seats)
    texts = set()
    room.listeners.append(lambda: texts.update(shown(room, seats)))
    play_out(table, player, direct(room))
    texts.update(shown(room, seats))
    assert table.game.over
    return texts, pseudo.asked


@pytest.fixture(scope="module")
def french():
    """Every French message: the house's catalog, then each game folder's own."""
    found: dict[str, str] = {}
    folders = [Path(d) for d in folder_locale_dirs()]
    for path in [CATALOG, *(d / "fr" / "LC_MESSAGES" / "companion.po" for d in folders)]:
        if path.exists():
            with path.open("rb") as f:
                found.update({m.id: m.string for m in read_po(f) if m.id and m.id not in found})
    return found


@pytest.mark.parametrize("game", list(GAMES))
def test_every_word_on_the_tv_and_the_phones_comes_from_the_catalog(game, monkeypatch, french):
    texts, asked = played(game, monkeypatch)
    loose = {}
    for text in texts:
        words = set(re.findall(r"[^\W\d_]+", unmarked(text))) - NAMES
        words -= set(GLOSSED.findall(text))  # a Russian word beside its meaning
        if words:
            loose[text] = sorted(words)
    assert loose == {}
    untranslated = sorted(m for m in asked if not french.get(m))
    assert untranslated == []


@pytest.mark.parametrize("game", list(GAMES))
def test_no_russian_word_stands_alone_and_no_box_short_form_shows(game, monkeypatch):
    texts, _ = played(game, monkeypatch)
    alone_ = {t for t in texts if set(CYRILLIC.findall(t)) - set(GLOSSED.findall(t))}
    assert alone_ == set()
    short = {t for t in texts if SHORT_FORMS.search(unmarked(t)) or SHORT_FORMS.search(t)}
    assert short == set()


def own_board():
    """The bundled board with its first crisis renamed, in English and in French."""
    data = json.loads(json.dumps(BOARD))
    data["crises"][0]["name"] = "The Kronstadt rebellion"
    data["crises"][0]["names"] = {"fr": "La révolte de Kronstadt"}
    return data


def tv_and_phones(lang, board):
    """What the TV and the phones show over a whole Glasnost game on ``board``."""
    options = {**alone("glasnost"), "board": board, "crises": "fixed"}
    table, room, player = web_table(Settings("glasnost", 8, lang, options))
    give_phones(room, range(8))
    texts = set()
    room.listeners.append(lambda: texts.update(shown(room, range(8))))
    play_out(table, player, direct(room))
    return " ".join(texts)


@pytest.mark.parametrize(
    ("lang", "named", "unnamed"),
    [
        ("fr", ["La révolte de Kronstadt", "Le mur de Berlin"], ["Kronstadt rebellion"]),
        ("en", ["The Kronstadt rebellion", "The Berlin Wall"], ["révolte"]),
    ],
)
def test_a_boards_own_names_show_in_the_tables_language(lang, named, unnamed):
    said = tv_and_phones(lang, own_board())
    for name in named:  # the board's own French name; the catalog's for the bundled names
        assert name in said
    for name in unnamed:
        assert name not in said


#: the box's words a phone has no use for: its keys, its cut-down words, its arrows
BOX_WORDS = re.compile(r"\b(PEEK|OK|infl\.|Eco|Mil|Sec)(?!\w)|[↑↓→←✓✗]")


def variants(game):
    """The bots' options, then each value of each of the game's options in turn: the kinds
    a game asks depend on them (Kolkhoz's real cards ask for every card played)."""
    base = alone(game)
    found = [base]
    for key, option in game_record(game).load("engine").OPTIONS.items():
        for value in option.values or ():
            if base.get(key, option.default) != value:
                found.append({**base, key: value})
    return found


def phone_questions(game, options, bots, monkeypatch):
    """Every question put to a phone in a game played on phones under the pseudo-locale:
    (decision, public view, the phone's offers), what the phones showed, what was asked."""
    pseudo = Pseudo()
    monkeypatch.setattr("companion.table.loop.translator", lambda lang: pseudo)
    asked = []
    question = PhoneDesk.question

    def spy(desk, d, view):
        asked.append((d, view, desk.options(d, view)))
        return question(desk, d, view)

    monkeypatch.setattr(PhoneDesk, "question", spy)
    players = usual_table(game)
    table, room, player = web_table(Settings(game, players, "en", options))
    give_phones(room, range(players))
    texts = set()
    room.listeners.append(lambda: texts.update(phone_texts(room, range(players))))
    play_out(table, player, direct(room), bots=bots)
    assert table.game.over
    return asked, texts, pseudo


def phone_texts(room, seats):
    texts = []
    for seat in seats:
        ask = json.loads(room.phone_message(seat))["ask"]
        if ask:
            texts += [*ask["prompt"], *ask["options"]]
    return texts


@pytest.mark.parametrize("game", list(GAMES))
def test_every_question_a_phone_is_asked_is_the_games_sentence_in_both_languages(
    game, monkeypatch, french
):
    """Every decision kind a game asks (but the start's look at a card, which the phone page
    words itself) has a phone sentence and a phone label for every option, from the game's
    ``tv``, never the box's prompt or labels; every word of them has its French."""
    tv = game_record(game).load("tv")
    kinds = set(
        typing.get_args(
            next(
                v
                for k, v in vars(importlib.import_module(f"companion.games.{game}.kinds")).items()
                if k.endswith("Kind")
            )
        )
    )
    seen, missing, texts, used = set(), set(), set(), set()
    for options in variants(game):
        for bots in ("random", "smart"):
            asked, shown_, pseudo = phone_questions(game, options, bots, monkeypatch)
            texts |= shown_
            used |= pseudo.asked
            for d, view, offered in asked:
                seen.add(d.kind)
                if d.kind == "peek":
                    continue
                ask = getattr(tv, "ask_words", lambda *_: None)
                if not ask(d, view, pseudo):
                    missing.add((d.kind, "question"))
                said = getattr(tv, "option_words", lambda *_: None)
                missing |= {(d.kind, repr(o)) for o, _ in offered if not said(d, view, o, pseudo)}
    assert seen == kinds
    assert sorted(missing) == []
    loose = {t for t in texts if set(re.findall(r"[^\W\d_]+", unmarked(t))) - NAMES}
    assert loose == set()
    boxed = {t for t in texts if BOX_WORDS.search(re.sub("[⟦⟧]", "", t)) or SHORT_FORMS.search(t)}
    assert boxed == set()
    assert sorted(m for m in used if not french.get(m)) == []
