"""The TV and the phones speak the catalog's words, whole, in the table's language.

Every game of the registry is played to its end on phones with the table's
translator swapped for a pseudo-locale that marks each catalog message ⟦so⟧:
whatever the TV or a phone shows outside a mark (numbers, cards and the games'
proper names aside) was never translated. Every message they used must have a
French translation of its own (gettext's fallback to English does not count), no
Cyrillic word stands without the word it means, and none of the box's 21-column
short forms reaches a page.
"""

import base64
import importlib
import json
import random
import re
import typing
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.bots import make_bots
from companion.demo import GAP
from companion.games import game_record, new_game
from companion.games.glasnost.board import BOARD
from companion.games.glasnost.rules import OBJECTIVES
from companion.games.politburo.rules import MEMBERS
from companion.games.registry import GAMES
from companion.table import Settings
from companion.table.phones import PhoneDesk
from companion.ui.i18n import folder_locale_dirs
from companion.web.pictures import picture
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
    # the picture's texts as one: a sentence may run over lines there
    texts.append(" ".join(re.findall(r">([^<]+)</text>", state["picture"])))
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


#: ten-letter names, the longest a seat may carry, Latin and Cyrillic
LONG_NAMES = (
    "Maximilian",
    "Władysława",
    "Bartholomä",
    "Alexandria",
    "Christophe",
    "Константин",
    "Gwendolyne",
    "Evangeline",
    "Jacqueline",
    "Ferdinando",
    "Wilhelmina",
    "Анастасия",
)
SVG = "{http://www.w3.org/2000/svg}"


def mid_game(game, players):
    """The public view of ``game`` some forty moves in, its bots playing."""
    options = alone(game)
    g = new_game(game, players=players, seed=3, **options)
    bots = make_bots(g, "random", random.Random(3))
    for _ in range(40):
        if (d := g.decision) is None:
            break
        g.act(d.seats[0], bots[d.seats[0]].choose(g.view(d.seats[0]), d))
    return g.public_view()


def boxes(root, tag, rounded=False):
    """The (left, top, right, bottom) of every ``tag`` element drawn as a box (``rounded``:
    those with rounded corners only) or a disc."""
    found = []
    for el in root.iter(SVG + tag):
        if rounded and "rx" not in el.attrib:
            continue
        a = {
            k: float(v)
            for k, v in el.attrib.items()
            if k in ("x", "y", "width", "height", "cx", "cy", "r")
        }
        if tag == "circle":
            found.append((a["cx"] - a["r"], a["cy"] - a["r"], a["cx"] + a["r"], a["cy"] + a["r"]))
        else:
            x, y = a.get("x", 0.0), a.get("y", 0.0)
            found.append((x, y, x + a["width"], y + a["height"]))
    return found


def apart(a, b):
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize("game", list(GAMES))
def test_a_named_seat_is_named_in_the_tv_picture_escaped_and_inside_it(game):
    players = min(game_record(game).load("engine").max_players, len(LONG_NAMES))
    view = mid_game(game, players)
    names = dict(enumerate(LONG_NAMES[:players]))
    root = ET.fromstring(picture(view, str, names))
    _, _, width, height = map(float, root.attrib["viewBox"].split())
    said = " ".join(el.text or "" for el in root.iter(SVG + "text"))
    assert all(name in said for name in names.values())
    assert ET.fromstring(picture(view, str, {}))  # no names: as before
    marked = ET.fromstring(picture(view, str, {1: "<b>&amp;"}))  # escaped, never markup
    assert any(el.text and "<b>&amp;" in el.text for el in marked.iter(SVG + "text"))
    tags = boxes(root, "rect", rounded=True)  # the name tags: no other box is rounded
    discs = [d for d in boxes(root, "circle") if d[2] - d[0] == 88]  # the seats around a table
    for tag in tags:
        assert tag[0] >= 0 and tag[2] <= width and tag[1] >= 0 and tag[3] <= height
        assert [other for other in tags if other != tag and not apart(tag, other)] == []
    assert len(tags) in (0, players)
    # a tag sits on its own disc, never on another seat's
    for tag in tags:
        assert (
            sum(1 for d in discs if not apart(tag, (d[0] + 8, d[1] + 8, d[2] - 8, d[3] - 8))) <= 1
        )


def test_a_name_typed_on_a_phone_reaches_the_tvs_picture_and_its_summary():
    table, room, player = web_table(Settings("gulag", 5, "fr", alone("gulag")))
    give_phones(room, range(5))
    room.phones.name(3, "Élodie")
    player.wait(GAP)
    assert "Élodie" in json.loads(room.spectator)["picture"]
    play_out(table, player, direct(room))
    summary = json.loads(room.spectator)["end"]["summary"]  # the picture inside, as data
    drawn = base64.b64decode(re.search(r"base64,([^\"]+)", summary).group(1)).decode()
    assert "Élodie" in drawn
