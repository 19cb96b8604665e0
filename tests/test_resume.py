"""No crash loop, whatever a saved state holds; and what the journal cannot read is named.

The resume room (``companion.table.resume``) marks the step each start resumes; a start
that never reached a quiet moment stopped the box, so the next one resumes the step
before, and a game that stopped the box at two starts is set aside. An exception of the
rules or the screens after a resume sets the step aside and plays on from the one before,
on a real box; in the test suite it goes through (``COMPANION_STRICT``).
"""

import json
import os
import random
import sqlite3
import sys

import pytest

from companion import store
from companion.bots import make_bots, next_move
from companion.box.terminal import oled_art
from companion.demo import GAP, Player
from companion.errors import JournalError
from companion.games import game_class, new_game
from companion.store import Journal, checksum
from companion.table.modes import Announce, Handoff, Notice
from companion.table.resume import STRICT
from companion.ui import game_ui
from companion.ui.canvas import Screen, render, wrap
from tests.test_cli_errors import one_line
from tests.test_store import in_setup, journal_with_game, said, sql, started
from tests.test_terminal import Pty


class OneFault:
    """A screen function that raises once, when armed: a fault no check before play sees."""

    def __init__(self, monkeypatch, module, name):
        self.real = getattr(module, name)
        self.armed = False
        self.fired = 0
        monkeypatch.setattr(module, name, self)

    def __call__(self, *args, **kwargs):
        if self.armed:
            self.armed = False
            self.fired += 1
            raise IndexError("list index out of range")
        return self.real(*args, **kwargs)


def press_ok(table, box):
    player = Player(box, table, box.clock)
    player.wait(GAP)
    player.press("ok")
    return player


# -- an exception in play after a resume ---------------------------------------------------
def test_an_exception_in_play_after_a_resume_sets_the_step_aside_and_plays_on(
    tmp_path, monkeypatch, caplog
):
    monkeypatch.delenv(STRICT)  # the box as it runs: the catch is on
    path = tmp_path / "journal.sqlite"
    records = journal_with_game(path)
    box, table = started(path)
    try:
        assert table.resumed and table.game.to_record() == records[-1]
        fault = OneFault(monkeypatch, game_ui("gulag"), "status")
        fault.armed = True
        player = press_ok(table, box)  # the next screen drawn raises
        assert fault.fired == 1
        assert table.game.to_record() == records[-2]  # the step before, checked again
        bad = sql(path, "SELECT n, bad FROM steps WHERE bad IS NOT NULL")
        assert [n for n, _ in bad] == [12] and "IndexError" in bad[0][1]
        assert table.screen().body == ("The box stopped at", "step 12: resumed at", "step 11.")
        player.press("ok")  # read: the game plays on from step 11
        while table.journal.n < 13:
            if isinstance(table.mode, Handoff | Notice):
                player.press("ok")
            else:
                player.answer_as(make_bots(table.game, "random", random.Random(1)))
        assert json.loads(sql(path, "SELECT record FROM steps WHERE n = 13")[0][0]) == (
            table.game.to_record()
        )
    finally:
        box.close()
    box, table = started(path)  # the next start resumes the new step, quietly
    try:
        assert table.resumed and table.journal.n == 13 and table.journal.news == []
    finally:
        box.close()


def test_in_the_test_suite_an_exception_after_a_resume_goes_through(tmp_path, monkeypatch):
    assert os.environ.get(STRICT) == "1"  # tests/conftest.py
    path = tmp_path / "journal.sqlite"
    records = journal_with_game(path)
    box, table = started(path)
    try:
        fault = OneFault(monkeypatch, game_ui("gulag"), "status")
        fault.armed = True
        with pytest.raises(IndexError):
            press_ok(table, box)
        assert sql(path, "SELECT bad FROM steps WHERE bad IS NOT NULL") == []
        assert table.game.to_record() == records[-1]
    finally:
        box.close()


def test_an_exception_once_a_step_is_saved_is_not_the_resumed_steps_fault(tmp_path, monkeypatch):
    """The window closes with the next step saved: a later fault stops the box as any bug
    does (and systemd starts it again), it sets no saved step aside."""
    monkeypatch.delenv(STRICT)
    path = tmp_path / "journal.sqlite"
    journal_with_game(path)
    box, table = started(path)
    try:
        player = press_ok(table, box)
        bots = make_bots(table.game, "random", random.Random(1))
        while table.journal.n < 13:
            if isinstance(table.mode, Handoff | Notice):
                player.press("ok")
            else:
                player.answer_as(bots)
        fault = OneFault(monkeypatch, game_ui("gulag"), "status")
        fault.armed = True
        with pytest.raises(IndexError):
            player.press("ok")
        assert sql(path, "SELECT bad FROM steps WHERE bad IS NOT NULL") == []
    finally:
        box.close()


# -- starts that stop the box ------------------------------------------------------------------
def test_a_start_that_stopped_the_box_resumes_the_step_before_and_two_set_the_game_aside(
    tmp_path, caplog
):
    path = tmp_path / "journal.sqlite"
    records = journal_with_game(path)
    box, table = started(path)  # the first frame is drawn and the step marked: then it dies
    box.close()
    assert sql(path, "SELECT game_id, n FROM starts") == [(1, 12)]
    box, table = started(path)
    try:
        assert table.resumed and table.game.to_record() == records[-2]
        screen, log_lines = said(table, caplog)
        assert screen == "The box stopped at step 12: resumed at step 11."
        assert "stopped after resuming it" in log_lines[-1]
        assert sql(path, "SELECT n FROM steps WHERE bad IS NOT NULL") == [(12,)]
    finally:
        box.close()  # and it dies again, before its first quiet moment
    assert sql(path, "SELECT n FROM starts") == [(12,), (11,)]
    caplog.clear()
    box, table = started(path)
    try:
        assert not table.resumed and in_setup(table.mode)
        screen, log_lines = said(table, caplog)
        assert screen == "The saved game stopped the box twice: kept aside."
        assert "the box stopped at each of its last 2 starts" in log_lines[-1]
        assert sql(path, "SELECT finished FROM games") == [(store.SET_ASIDE,)]
        assert sql(path, "SELECT * FROM starts") == []
    finally:
        box.close()


def test_a_start_that_handled_a_press_stopped_nothing(tmp_path, caplog):
    """The control: a press handled and the loop idle is a quiet moment; a later crash
    resumes the same step again, with nothing to say."""
    path = tmp_path / "journal.sqlite"
    records = journal_with_game(path)
    for _ in range(3):
        box, table = started(path)
        try:
            assert table.resumed and table.game.to_record() == records[-1]
            assert table.journal.news == []
            press_ok(table, box)
            assert sql(path, "SELECT * FROM starts") == []
        finally:
            box.close()


# -- the reproduction: a real start on a plausible step that breaks a screen --------------------
def glasnost_one_result_short(path):
    """A Glasnost game at a board seat to choose, whose newest step lacks the last entry of
    ``state.results`` and carries the checksum of what it holds: at step 16 of seed 0 the
    seat under the cursor's first Down touches that missing crisis."""
    game = new_game("glasnost", players=5, seed=0)
    bots = make_bots(game, "random", random.Random(0))
    records = [game.to_record()]
    while len(records) < 16:
        game.act(*next_move(game, bots))
        if game.saveable and not game.over:
            records.append(game.to_record())
    assert game.decision.kind == "sit"
    journal = Journal(path)
    settings = {"game": "glasnost", "players": 5, "lang": "en", "options": records[0]["options"]}
    journal.begin("glasnost", settings, records[0])
    for record in records[1:]:
        journal.step(record)
    journal.close()
    broken = json.loads(json.dumps(records[-1]))
    broken["state"]["results"].pop()
    text = json.dumps(broken, sort_keys=True)
    n = len(records)
    sql(path, "UPDATE steps SET record = ?, checksum = ? WHERE n = ?", text, checksum(text), n)
    return records, n


def notice(line):
    """The art of the journal's notice saying ``line``, as the terminal draws it."""
    return tuple(oled_art(render(Screen("Journal", tuple(wrap(line)), "OK"))))


def test_a_glasnost_step_one_result_short_never_stops_a_real_box(tmp_path):
    """The reproduction: five real starts, none dies; the first says the step was set aside
    (by the checks at start, or by the catch when the first Down draws the missing crisis),
    and the game plays on past it."""
    data = tmp_path / "data"
    data.mkdir()
    path = data / "journal.sqlite"
    _, n = glasnost_one_result_short(path)
    said = {
        notice(f"The box stopped at step {n}: resumed at step {n - 1}."),
        notice(f"Damaged step skipped: resumed at step {n - 1}."),
    }
    argv = [sys.executable, "-m", "companion", "run", "--board", "virtual", "--seed", "1"]
    for start in range(5):
        term = Pty(argv, env={"COMPANION_DATA": str(data), STRICT: "0"})
        try:
            term.wait_for_change(None)  # the first frame: the box reads keys from here on
            term.settle()
            # OK to the hand-over, Up on the seat cursor (to the seat of the missing
            # crisis), then OKs: the notices read, the next question taken
            for keys in ("\r", "w", "\r", "\r", "\r"):
                term.type(keys)
                term.settle()
            assert term.process.poll() is None, term.buffer[-3000:]  # the box still runs
            shown = {tuple(art) for art, _ in term.frames()}
            term.type("q")
            term.type("q")
            assert term.finish() == 0, term.buffer[-3000:]
        finally:
            if term.process.poll() is None:
                term.process.kill()
        if start == 0:
            assert said & shown, "the step set aside was not said"
        bad = sql(path, "SELECT n FROM steps WHERE bad IS NOT NULL")
        assert bad == [(n,)], start  # that step only, set aside
    assert sql(path, "SELECT finished FROM games") == [(0,)]  # still the game in progress


def test_a_glasnost_step_one_result_short_plays_on_from_the_step_before(tmp_path, monkeypatch):
    """The same step on a virtual box: after it is set aside, the game plays on through
    its screens, with no exception, to new steps."""
    monkeypatch.delenv(STRICT)
    path = tmp_path / "journal.sqlite"
    records, n = glasnost_one_result_short(path)
    box, table = started(path)
    try:
        player = Player(box, table, box.clock)
        player.wait(GAP)
        if table.game.to_record() != records[-2]:  # the checks at start let it through
            player.press("ok")
            player.press("up")  # the cursor's first move draws the missing crisis
        assert table.game.to_record() == records[-2]
        assert sql(path, "SELECT n FROM steps WHERE bad IS NOT NULL") == [(n,)]
        monkeypatch.setenv(STRICT, "1")  # from here on, any exception fails the test
        bots = make_bots(table.game, "random", random.Random(3))
        while table.journal.n < n + 5:
            if isinstance(table.mode, Handoff | Notice | Announce):
                player.press("ok")
            else:
                player.answer_as(bots)
    finally:
        box.close()


# -- what this version cannot read is named ---------------------------------------------------
def test_a_journal_from_a_newer_program_is_refused_and_left_as_it_is(tmp_path, caplog, capsys):
    path = tmp_path / "journal.sqlite"
    journal_with_game(path)
    sql(path, "PRAGMA user_version = 99")
    before = path.read_bytes()
    with pytest.raises(JournalError, match="journal format 99, this version reads 4"):
        Journal(path, typed=True)
    argv = ["run", "--board", "virtual", "--headless", "--journal", str(path)]
    code, err = one_line(capsys, argv)  # named on the command line: one line, no box
    assert code == 2 and err == (
        f"the journal {path} is from a newer version of companion (journal format 99, "
        "this version reads 4)"
    )
    box, table = started(path)
    try:
        assert not table.resumed and not table.journal.saving
        screen, log_lines = said(table, caplog)
        assert screen == "Journal from a newer version: not saving."
        assert len(log_lines) == 1 and "journal format 99" in log_lines[0]
        table.journal.retry()
    finally:
        box.close()
    assert path.read_bytes() == before
    assert sql(path, "PRAGMA user_version") == [(99,)]


def test_an_unknown_end_of_a_game_sets_it_aside_with_its_reason(tmp_path, caplog):
    path = tmp_path / "journal.sqlite"
    journal_with_game(path)
    sql(path, "UPDATE games SET finished = 7")
    box, table = started(path)
    try:
        assert not table.resumed and in_setup(table.mode)
        screen, log_lines = said(table, caplog)
        assert screen == "Saved game unreadable: kept aside."
        assert "finished = 7" in log_lines[0]
        assert sql(path, "SELECT finished, why FROM games") == [
            (store.SET_ASIDE, "its state is unknown to this version (finished = 7)")
        ]
    finally:
        box.close()


def newer(record):
    return {**record, "format": game_class(record["game"]).FORMAT + 1}


def test_a_step_from_a_newer_format_is_called_so(tmp_path, caplog):
    path = tmp_path / "journal.sqlite"
    records = journal_with_game(path)
    text = json.dumps(newer(records[-1]), sort_keys=True)
    sql(path, "UPDATE steps SET record = ?, checksum = ? WHERE n = 12", text, checksum(text))
    box, table = started(path)
    try:
        assert table.resumed and table.game.to_record() == records[-2]
        screen, log_lines = said(table, caplog)
        assert screen == "Newer-version step skipped: resumed at step 11."
        assert "newer version" in log_lines[0]
    finally:
        box.close()
    for n, record in enumerate(records, 1):  # every step newer: the game is kept aside
        text = json.dumps(newer(record), sort_keys=True)
        sql(
            path,
            "UPDATE steps SET record = ?, checksum = ?, bad = NULL WHERE n = ?",
            text,
            checksum(text),
            n,
        )
    caplog.clear()
    box, table = started(path)
    try:
        assert not table.resumed
        assert said(table, caplog)[0] == "Saved game from a newer version: kept aside."
    finally:
        box.close()


def test_the_steps_of_a_journal_are_handed_back_as_written(tmp_path):
    """Storage judges nothing: a step whose checksum fails comes back all the same, and
    says whether it is intact."""
    path = tmp_path / "journal.sqlite"
    records = journal_with_game(path)
    sql(path, "UPDATE steps SET record = record || ' ' WHERE n = 12")
    journal = Journal(path)
    try:
        found = journal.unfinished()
        assert [s.n for s in found.steps] == list(range(12, 0, -1))
        assert not found.steps[0].intact() and found.steps[1].intact()
        assert json.loads(found.steps[1].text()) == records[-2]
        assert journal.news == [] and sql(path, "SELECT bad FROM steps WHERE n = 12") == [(None,)]
    finally:
        journal.close()
    assert isinstance(sqlite3.sqlite_version, str)
