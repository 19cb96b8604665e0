"""Seat names: what a name may hold, where it shows, and where it never goes."""

import json
import logging

import pytest

from companion.box import VirtualClock, open_box
from companion.demo import GAP, play
from companion.table import Settings
from companion.table.modes import Handoff, Notice
from companion.table.names import KEPT_GAMES, LONGEST, Recent, checked, drawable
from companion.ui.canvas import Screen, font, overflow
from companion.ui.i18n import translator
from companion.web.server import _answer
from tests.tables import started
from tests.webtables import direct, give_phones, play_out, web_table

EN = translator("en")


@pytest.mark.parametrize("name", ["Anna", "Élodie", "Борис", "Jean-Luc", "Zoë", "Łukasz", "ёжик"])
def test_a_name_in_latin_or_cyrillic_is_taken_as_typed(name):
    assert checked(f"  {name} ", EN) == (name, None)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Anna😀", "A name uses Latin or Cyrillic letters only."),
        ("<i>Anna", "A name uses Latin or Cyrillic letters only."),
        ("李雷", "A name uses Latin or Cyrillic letters only."),
        ("anna@home", "A name uses Latin or Cyrillic letters only."),
        ("Maximiliane", "A name has at most 10 characters."),
        (42, "A name is text."),
    ],
)
def test_a_name_the_panel_cannot_draw_is_refused_in_one_line(text, why):
    assert checked(text, EN) == (None, why)


def test_every_character_a_name_may_use_is_in_the_panel_font():
    face = font()
    missing = face.getmask("\U0001f600")  # a glyph Terminus does not have: its blank box

    def drawn(ch):
        mask = face.getmask(ch)
        return (mask.size, bytes(mask)) != (missing.size, bytes(missing))

    allowed = [chr(c) for c in range(0x3000) if drawable(chr(c))]
    assert "é" in allowed and "Ж" in allowed and "李" not in allowed
    assert [ch for ch in allowed if ch != " " and not drawn(ch)] == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_longest_name_fits_the_hand_over_line(lang):
    t = translator(lang)
    line = t("Box to {name} ({n})").format(name="Ж" * LONGEST, n=4)
    assert overflow(Screen("status", (line,), "keys")) == []
    assert len(line) <= 21


def test_recent_names_keep_the_last_ten_games_only(tmp_path):
    path = tmp_path / "journal.sqlite.names"
    recent = Recent(path)
    for game in range(KEPT_GAMES + 3):
        recent.keep({0: f"Old{game}", 1: "Anna"}, key=str(game))
    again = Recent(path)
    assert [key for key, _ in again.games] == [str(g) for g in range(12, 2, -1)]
    assert "Old2" not in path.read_text(encoding="utf-8")
    assert again.names()[:3] == ["Old12", "Anna", "Old11"]
    assert again.begin("12") == {0: "Old12", 1: "Anna"}
    assert again.names() == ["Old11", "Anna", *(f"Old{g}" for g in range(10, 2, -1))]


@pytest.mark.parametrize("text", ["not json", "[[1, 2]]", '{"a": 1}', "\x00\xff"])
def test_a_names_file_that_does_not_read_gives_no_names_and_no_error(tmp_path, text):
    path = tmp_path / "names"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    assert Recent(path).names() == []


def test_naming_at_the_hand_over_costs_one_press_and_skipping_costs_none():
    def run(names):
        box = open_box("virtual", clock=VirtualClock())
        try:
            return play(Settings("gulag", 5, "en"), seed=3, box=box, names=names)
        finally:
            box.close()

    plain = run(())
    named = run(("Anna", "Борис", "Élodie", "Zoë", "Mei"))
    assert plain.table.record.names.seats == {}
    assert sorted(named.table.record.names.seats.values()) == [
        "Anna",
        "Mei",
        "Zoë",
        "Élodie",
        "Борис",
    ]
    assert named.presses == plain.presses + 5  # one ▲ a named seat; the same game otherwise
    assert named.moves == plain.moves


def test_the_hand_over_names_the_seat_and_up_down_steps_through_recent_names():
    box = open_box("virtual", clock=VirtualClock())
    table, player = started(box, Settings("gulag", 5, "en", {"deal": "cards"}), 1)
    table.record.names.recent.keep({0: "Anna", 1: "Борис"}, key="older")
    player.wait(GAP)
    assert isinstance(table.mode, Handoff) and table.mode.seat == 0
    assert table.screen().body[0] == "Box to seat 1." and table.screen().keys == "OK  ▲▼: name"
    player.press("up")
    assert table.screen().body[0] == "Box to Anna (1)"
    player.press("up")
    assert table.screen().body[0] == "Box to Борис (1)"
    player.press("up")  # round to no name
    assert table.screen().body[0] == "Box to seat 1." and table.record.names.seats == {}
    player.press("down")
    assert table.record.names.seats == {0: "Борис"}
    player.press("ok")  # the seat takes the box, named
    assert not isinstance(table.mode, Handoff)
    box.close()


NAMES = {0: "Anna", 1: "Борис", 2: "Élodie", 3: "Zoë", 4: "Jean-Luc", 5: "Ольга"}


def test_a_gulag_game_with_six_named_phones_shows_the_names_and_never_logs_them(caplog):
    """Seven seats: six answer on phones they named, the seventh is named on the box."""
    caplog.set_level(logging.DEBUG, logger="companion")
    table, room, player = web_table(Settings("gulag", 7))
    table.record.names.recent.keep({6: "Mei"}, key="older")
    give_phones(room, range(6))
    for seat, name in NAMES.items():
        assert room.phones.name(seat, name) is None
    assert _answer(room, 0, json.dumps({"name": "Anna😀"})) == {
        "type": "name",
        "why": "A name uses Latin or Cyrillic letters only.",
    }
    player.wait(GAP)
    assert table.record.names.seats == NAMES  # the refused one changed nothing
    handed = []

    def until(table):
        while isinstance(table.mode, Notice):  # "Choose A or B first": a press fell in a guard
            player.wait(GAP)
            player.press("ok")
        if (
            isinstance(table.mode, Handoff)
            and table.mode.seat == 6
            and 6 not in table.record.names.seats
        ):
            player.wait(GAP)  # past the new screen's guard
            player.press("up")  # the box's seat picks the recent name
            handed.append(table.screen().body[0])
        return False

    play_out(table, player, direct(room), until=until)
    assert handed == ["Box to Mei (7)"]
    tv = json.loads(room.spectator)
    assert tv["names"] == {str(s + 1): n for s, n in {**NAMES, 6: "Mei"}.items()}
    phone = json.loads(room.phone_message(2))
    assert phone["names"]["3"] == "Élodie"
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "task recorded" in logged  # the game did log its moves
    assert not [n for n in (*NAMES.values(), "Mei") if n in logged]


def test_a_resumed_game_keeps_its_names_and_a_new_game_starts_without(tmp_path):
    from companion.store import Journal

    journal = Journal(tmp_path / "journal.sqlite")
    table, room, player = web_table(Settings("gulag", 5), journal=journal)
    give_phones(room, [0, 1])
    room.phones.name(0, "Anna")
    room.phones.name(1, "Борис")
    player.wait(GAP)
    assert table.record.names.seats == {0: "Anna", 1: "Борис"}
    journal.close()
    again, room, player = web_table(None, journal=Journal(tmp_path / "journal.sqlite"))
    assert again.record.names.seats == {0: "Anna", 1: "Борис"}
    assert json.loads(room.spectator)["names"] == {"1": "Anna", "2": "Борис"}
    again.start(Settings("gulag", 5))
    assert again.record.names.seats == {} and again.record.names.choices(0) == ["", "Anna", "Борис"]


def test_the_tv_sees_who_is_here_who_is_away_and_whose_turn_it_is():
    table, room, player = web_table(Settings("gulag", 5))
    give_phones(room, [0, 1])
    room.phones.name(1, "Борис")
    player.wait(GAP)

    def tv():
        return {s["seat"]: s for s in json.loads(room.spectator)["room"]}

    assert [tv()[n]["link"] for n in (1, 2, 3)] == ["here", "here", "box"]
    assert tv()[2]["name"] == "Борис" and tv()[3]["name"] == ""
    waiting = table.game.public_view()["waiting"]["seats"]
    assert [n for n, s in tv().items() if s["turn"]] == [seat + 1 for seat in waiting]
    room.phones.joined(1, -1)  # seat 2's link drops
    player.wait(2.0)
    assert tv()[2]["link"] == "here"  # a blip is not shown
    player.wait(4.0)
    assert tv()[2]["link"] == "away" and tv()[1]["link"] == "here"
    room.phones.joined(1, +1)
    player.wait(GAP)
    assert tv()[2]["link"] == "here"
