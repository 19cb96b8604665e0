"""The journal: a pulled plug loses no completed step, and no row betrays a secret."""

import ctypes
import json
import os
import random
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from companion import migrate, store
from companion.bots import make_bots, next_move
from companion.box import VirtualClock, open_box
from companion.demo import GAP, Player, play
from companion.games import GAMES, game_class, new_game, restore
from companion.games.gulag.rules import STRIKE, WORK
from companion.store import Journal, JournalError
from companion.table import Settings, Table
from companion.table.modes import Announce, Handoff, Notice, Over, Setup
from companion.ui.canvas import Screen, overflow, wrap
from companion.ui.i18n import LANGUAGES, translator
from tests.test_table import ForcedWorkers


def rows(path):
    db = sqlite3.connect(path)
    try:
        return db.execute(
            "SELECT game_id, n, record, shown FROM steps ORDER BY game_id, n"
        ).fetchall()
    finally:
        db.close()


def test_the_box_resumes_at_the_last_completed_step_after_a_pulled_plug(tmp_path):
    path = tmp_path / "journal.sqlite"
    box = open_box("virtual", clock=VirtualClock())
    table = Table(box, seed=4, journal=Journal(path))
    table.start(Settings("gulag", 5, "en", {"deal": "cards"}))
    player = Player(box, table, box.clock)
    player.wait(GAP)
    player.press("ok")
    for seat in (1, 2, 3):
        player.answer(seat)
    player.press("ok")
    player.answer(WORK)  # the first worker's card is in; the second is not
    before = table.game.public_view()
    # The plug is pulled: nothing is closed, nothing flushed by hand.
    box.close()

    box2 = open_box("virtual", clock=VirtualClock())
    table2 = Table(box2, seed=99, journal=Journal(path))
    assert table2.resume()
    resumed = table2.game
    assert resumed.public_view()["workers"] == before["workers"] == [1, 2]
    # The half-collected ballot was never written: both workers are asked again.
    assert resumed.decision.kind == "task" and resumed.decision.seats == (1, 2)
    # The table is told why before the first of them takes the box again.
    assert isinstance(table2.mode, Notice) and isinstance(table2.mode.back, Handoff)
    assert table2.screen().body == ("The power went out:", "the vote starts", "again.")
    player2 = Player(box2, table2, box2.clock)
    player2.wait(GAP)
    player2.press("ok")
    assert isinstance(table2.mode, Handoff)
    player2.wait(GAP)
    player2.press("ok")
    player2.answer(WORK)
    player2.press("ok")
    player2.answer(STRIKE)
    assert table2.game.decision.kind == "supervise"
    box2.close()


def test_a_finished_game_is_not_resumed(tmp_path):
    path = tmp_path / "journal.sqlite"
    box = open_box("virtual", clock=VirtualClock())
    try:
        run = play(Settings("gulag", 5, "en"), seed=2, box=box, journal=Journal(path))
        assert run.table.game.over
    finally:
        box.close()
    box = open_box("virtual", clock=VirtualClock())
    try:
        assert not Table(box, journal=Journal(path)).resume()
        final = json.loads(rows(path)[-1][2])
        assert restore(final).over
    finally:
        box.close()


def test_journal_rows_never_link_a_seat_to_a_secret_choice(tmp_path):
    def journal_of(cards, name):
        path = tmp_path / name
        box = open_box("virtual", clock=VirtualClock())
        try:
            play(
                Settings("gulag", 7, "en"),
                seed=9,
                bots=ForcedWorkers(cards, 4),
                box=box,
                journal=Journal(path),
            )
        finally:
            box.close()
        return rows(path)

    a = journal_of((WORK, STRIKE), "a.sqlite")
    b = journal_of((STRIKE, WORK), "b.sqlite")
    assert len(a) > 10
    assert a == b


def writer(path, wfd, seed):
    """A child that plays and journals as fast as it can, acknowledging each step."""
    journal = Journal(path)
    game = new_game("gulag", players=7, seed=seed)
    journal.begin("gulag", {**SETTINGS, "players": 7}, game.to_record())
    bots = make_bots(game, "random", random.Random(seed))
    while (move := next_move(game, bots)) is not None:
        game.act(*move)
        if game.saveable:
            journal.step(game.to_record())
            os.write(wfd, f"{journal.game_id} {journal.n}\n".encode())
    os._exit(0)


def test_killing_the_process_at_random_moments_loses_nothing_acknowledged(tmp_path):
    path = tmp_path / "journal.sqlite"
    rng = random.Random(1)
    kills = 0
    for attempt in range(200):
        rfd, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(rfd)
            try:
                writer(path, wfd, attempt)
            finally:
                os._exit(1)
        os.close(wfd)
        time.sleep(rng.uniform(0, 0.04))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        kills += os.WIFSIGNALED(status)
        acked = os.read(rfd, 1 << 20).decode().split()
        os.close(rfd)
        db = sqlite3.connect(path)
        try:
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            if acked:
                game_id, n = int(acked[-2]), int(acked[-1])
                kept = db.execute(
                    "SELECT MAX(n) FROM steps WHERE game_id = ?", (game_id,)
                ).fetchone()[0]
                assert kept >= n, f"step {n} of game {game_id} was acknowledged, then lost"
        finally:
            db.close()
    assert kills > 100  # most children really were killed mid-game
    # Every step left behind restores to a game.
    for _, _, record, _ in rows(path)[-30:]:
        restore(json.loads(record))
    journal = Journal(path)
    assert journal.unfinished() is not None


def test_a_damaged_journal_is_kept_aside_and_a_new_one_started(tmp_path):
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"this is not a database, it is a shopping list" * 100)
    journal = Journal(path)
    assert journal.unfinished() is None
    kept = list(tmp_path.glob("journal.sqlite.damaged-*"))
    assert len(kept) == 1 and kept[0].read_bytes().startswith(b"this is not")


def test_an_unwritable_journal_the_user_named_says_where(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(JournalError, match="cannot create"):
        Journal(blocker / "sub" / "journal.sqlite", typed=True)


def test_a_failing_journal_is_shown_and_the_game_goes_on(tmp_path):
    box = open_box("virtual", clock=VirtualClock())
    journal = Journal(tmp_path / "journal.sqlite")
    table = Table(box, seed=1, journal=journal)
    table.start(Settings("gulag", 5, "en", {"deal": "cards"}))
    journal.db.close()  # the card is gone
    player = Player(box, table, box.clock)
    player.wait(GAP)
    player.press("ok")
    player.answer(1)
    assert table.screen().status == "! Journal"
    assert "Not saving" in " ".join(table.screen().body)
    assert table.game.public_view()["workers"] == [1]
    box.close()


# -- the box always starts: damage of every kind ---------------------------------------
SETTINGS = {"game": "gulag", "players": 5, "lang": "en", "options": {}}


def journal_with_game(path, steps=12, seed=3):
    """A journal holding an unfinished gulag game of ``steps`` steps; its records."""
    journal = Journal(path)
    game = new_game("gulag", players=5, seed=seed)
    journal.begin("gulag", SETTINGS, game.to_record())
    records = [game.to_record()]
    bots = make_bots(game, "random", random.Random(seed))
    while len(records) < steps:
        game.act(*next_move(game, bots))
        if game.saveable and not game.over:
            journal.step(game.to_record())
            records.append(game.to_record())
    journal.close()
    return records


def sql(path, statement, *args):
    db = sqlite3.connect(path, isolation_level=None)
    try:
        return db.execute(statement, args).fetchall()
    finally:
        db.close()


def started(path, **journal_args):
    """A box started on the journal at ``path``, as the kiosk starts: resume if it can."""
    box = open_box("virtual", clock=VirtualClock())
    table = Table(box, seed=1, journal=Journal(path, **journal_args))
    table.resumed = table.resume()
    table.step()
    return box, table


def in_setup(mode):
    """Setup, or a notice shown over it."""
    return isinstance(mode.back if isinstance(mode, Notice) else mode, Setup)


def said(table, caplog):
    """The one line on screen and the journal's lines in the log."""
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.store"]
    return " ".join(table.screen().body), lines


def truncate(path):
    sql(path, "UPDATE steps SET record = substr(record, 1, length(record) / 2) WHERE n = 12")


def remove_field(path):
    record = json.loads(sql(path, "SELECT record FROM steps WHERE n = 12")[0][0])
    del record["state"][sorted(record["state"])[0]]
    sql(path, "UPDATE steps SET record = ? WHERE n = 12", json.dumps(record))


def not_utf8(path):
    sql(path, "UPDATE steps SET record = CAST(X'7b2267616d65223a22ff' AS TEXT) WHERE n = 12")


@pytest.mark.parametrize("damage", [truncate, remove_field, not_utf8])
def test_a_damaged_last_step_resumes_the_step_before(tmp_path, caplog, damage):
    path = tmp_path / "journal.sqlite"
    records = journal_with_game(path)
    damage(path)
    # The fault as it was: quick_check passes, reading or restoring the row fails.
    assert sql(path, "PRAGMA quick_check") == [("ok",)]
    with pytest.raises((ValueError, KeyError, sqlite3.OperationalError)):
        restore(json.loads(rows(path)[-1][2]))
    box, table = started(path)
    try:
        assert table.resumed and table.game.to_record() == records[-2]
        screen, log_lines = said(table, caplog)
        assert table.screen().status == "Journal" and "Damaged step skipped" in screen
        assert len(log_lines) == 1
        assert "step 12" in log_lines[0] and "resumed at step 11" in log_lines[0]
        # Play goes on, after the damaged row, which is kept.
        table.journal.step(table.game.to_record())
        assert sql(path, "SELECT n FROM steps ORDER BY n") == [(n,) for n in range(1, 14)]
    finally:
        box.close()


def test_a_game_with_nothing_readable_is_set_aside_and_the_box_starts_clean(tmp_path, caplog):
    path = tmp_path / "journal.sqlite"
    journal_with_game(path)
    sql(path, "UPDATE games SET settings = CAST(X'ff00' AS TEXT)")
    before = rows(path)
    box, table = started(path)
    try:
        assert not table.resumed and in_setup(table.mode)
        screen, log_lines = said(table, caplog)
        assert "kept aside" in screen
        assert len(log_lines) == 1 and "kept aside in journal.sqlite as game 1" in log_lines[0]
        assert rows(path) == before  # every row kept
        assert sql(path, "SELECT finished FROM games") == [(2,)]
    finally:
        box.close()
    caplog.clear()
    box, table = started(path)  # the next start says nothing more
    try:
        assert not table.resumed and table.screen().status == "New game"
        assert said(table, caplog)[1] == []
    finally:
        box.close()


def test_a_record_from_an_older_format_is_migrated(tmp_path, monkeypatch):
    """Version 1 called the first state field "old_<name>"; version 2 reads it migrated."""
    path = tmp_path / "journal.sqlite"
    records = journal_with_game(path)
    field = sorted(records[-1]["state"])[0]
    old = json.loads(json.dumps(records[-1]))
    old["state"]["old_" + field] = old["state"].pop(field)
    sql(path, "UPDATE steps SET record = ?, checksum = NULL WHERE n = 12", json.dumps(old))
    sql(path, "DELETE FROM steps WHERE n < 12")

    def one_to_two(record):
        record["state"][field] = record["state"].pop("old_" + field)
        return record

    monkeypatch.setattr(game_class("gulag"), "FORMAT", 2)
    with pytest.raises(ValueError, match="does not match this version"):
        restore(old)  # the fault: a record from another version of the state
    monkeypatch.setitem(migrate.migrations("gulag"), 1, one_to_two)
    box, table = started(path)
    try:
        assert table.resumed
        assert table.game.to_record() == {**records[-1], "format": 2}
    finally:
        box.close()


def test_a_record_no_migration_reads_is_set_aside_with_its_game(tmp_path, monkeypatch, caplog):
    path = tmp_path / "journal.sqlite"
    journal_with_game(path)
    monkeypatch.setattr(game_class("gulag"), "FORMAT", 2)
    box, table = started(path)
    try:
        assert not table.resumed and in_setup(table.mode)
        screen, log_lines = said(table, caplog)
        assert "kept aside" in screen and "no way to read gulag games of format 1" in log_lines[0]
        assert sql(path, "SELECT finished FROM games") == [(2,)]
    finally:
        box.close()


def test_every_format_has_a_way_up_from_every_older_one():
    for name in GAMES:
        assert set(migrate.migrations(name)) == set(range(1, game_class(name).FORMAT)), name
        assert new_game(name).to_record()["format"] == game_class(name).FORMAT


def test_two_damaged_journals_in_one_second_keep_both(tmp_path, monkeypatch, caplog):
    path = tmp_path / "journal.sqlite"
    monkeypatch.setattr(store.journal.time, "time", lambda: 1_800_000_000.0)
    for text in (b"first shopping list" * 50, b"second shopping list" * 50):
        path.write_bytes(text)
        Journal(path).close()
    kept = sorted(tmp_path.glob("journal.sqlite.damaged-*"))
    assert [p.read_bytes()[:6] for p in kept] == [b"first ", b"second"]
    assert all("is damaged" in r.getMessage() for r in caplog.records)


def test_an_empty_file_is_no_damage(tmp_path):
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"")
    journal = Journal(path)
    assert journal.saving and journal.news == []
    assert list(tmp_path.glob("*damaged*")) == []


# -- only real damage is damage ----------------------------------------------------------
HOLD = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA locking_mode=EXCLUSIVE")
db.execute("BEGIN EXCLUSIVE")
db.execute("UPDATE games SET started = started")
print("held", flush=True)
sys.stdin.read()
"""


def test_a_journal_locked_by_another_program_is_waited_for_then_used_again(tmp_path, caplog):
    path = tmp_path / "journal.sqlite"
    records = journal_with_game(path)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    now = [0.0]
    box = None
    try:
        assert holder.stdout.readline() == "held\n"
        box, table = started(path, lock_wait=0.2, clock=lambda: now[0])
        screen, log_lines = said(table, caplog)
        assert not table.journal.saving and table.screen().status.startswith("! ")
        assert "Not saving" in screen and len(log_lines) == 1 and "in use" in log_lines[0]
        assert list(tmp_path.glob("*damaged*")) == []  # a healthy journal is not set aside
        table.start(Settings("gulag", 5, "en"))
        assert not table.journal.saving
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)
    try:
        now[0] += store.RETRY
        table.journal.step(table.game.to_record())
        assert table.journal.saving and not table.screen().status.startswith("! ")
        kept = rows(path)
        assert [json.loads(r) for g, _, r, _ in kept if g == 1] == records  # nothing lost
        assert [g for g, _, _, _ in kept if g == 2] == [2]  # the new game, begun late
    finally:
        if box is not None:
            box.close()


def drop_root_and(fsize=None):
    """For a child: no root override of file modes, and files no larger than ``fsize``."""

    def prepare():
        libc = ctypes.CDLL(None, use_errno=True)
        for cap in (1, 2, 3):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER
            libc.prctl(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP: gone at exec (a no-op for users)
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, resource.RLIM_INFINITY))

    return prepare


def child(code, tmp_path, fsize=None, args=()):
    env = {**os.environ, "COMPANION_DATA": str(tmp_path / "data")}
    out = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        capture_output=True,
        text=True,
        preexec_fn=drop_root_and(fsize),
        timeout=120,
    )
    return out


PLAY_UNSAVED = """
import json, random, resource
from companion.box import VirtualClock, open_box
from companion.bots import make_bots
from companion.demo import Player
from companion.store import RETRY, Journal, default_path
from companion.table.modes import Announce, Handoff, Notice, Over
from companion.table import Settings, Table

now = [0.0]
box = open_box("virtual", clock=VirtualClock())
table = Table(box, seed=2, journal=Journal(default_path(), clock=lambda: now[0]))
table.resume()
table.start(Settings("gulag", 5, "en", {"deal": "cards"}))
player = Player(box, table, box.clock)
bots = make_bots(table.game, "random", random.Random(2))
seen = []


def play(moves):
    for _ in range(moves):
        if isinstance(table.mode, Over):
            break
        if isinstance(table.mode, Handoff | Announce | Notice):
            player.press("ok")
        else:
            d = table.game.decision
            player.answer_as(bots)
        seen.append(table.screen().status)


play(60)
unsaved = table.journal.problem
if __import__("sys").argv[1] == "space returns":
    resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY,) * 2)
    now[0] += RETRY
    play(30)
record = table.game.to_record() if table.game.saveable else None
print(json.dumps({"unsaved": unsaved, "saving": table.journal.saving, "seen": seen,
                  "record": record}))
"""


def test_a_read_only_state_directory_runs_unsaved_and_says_so_once(tmp_path, caplog):
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o555)
    out = child(PLAY_UNSAVED, tmp_path, args=["read-only"])
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert "cannot" in result["unsaved"] and not result["saving"]
    assert out.stderr.count("not saving for now") == 1  # said once, in the log
    assert all(status.startswith("! ") for status in result["seen"])  # then a mark
    assert list(data.iterdir()) == []  # no empty aside, nothing at all


def test_a_journal_path_the_user_typed_that_cannot_be_written_is_one_line(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o555)
    out = child(
        "from companion.cli import main; raise SystemExit(main())",
        tmp_path,
        args=["run", "--board", "virtual", "--headless", "--journal", str(data / "j.sqlite")],
    )
    assert out.returncode == 2
    assert out.stderr.startswith("companion: cannot open the journal")
    assert out.stderr.count("\n") == 1


def test_a_full_disk_runs_unsaved_and_space_that_returns_is_used_again(tmp_path):
    """Files may not grow past 256 KiB: the journal fills up mid-game."""
    out = child(PLAY_UNSAVED, tmp_path, fsize=256 << 10, args=["space returns"])
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["unsaved"] and result["saving"]
    assert out.stderr.count("not saving for now") == 1
    assert any(s.startswith("! ") for s in result["seen"])
    assert not result["seen"][-1].startswith("! ")
    path = tmp_path / "data" / "journal.sqlite"
    assert json.loads(rows(path)[-1][2]) == result["record"] is not None


def test_a_disk_full_from_the_start_writes_the_game_once_space_returns(tmp_path):
    """Not even the journal's first page fits: the beginning of the game waits in memory."""
    out = child(PLAY_UNSAVED, tmp_path, fsize=0, args=["space returns"])
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["unsaved"] and result["saving"]
    path = tmp_path / "data" / "journal.sqlite"
    assert sql(path, "SELECT id, game FROM games") == [(1, "gulag")]
    assert json.loads(rows(path)[-1][2]) == result["record"] is not None
    assert list(path.parent.glob("*damaged*")) == []


# -- a crash SQLite rolls back -------------------------------------------------------------
def test_a_damaged_wal_page_is_reported_and_kept(tmp_path, caplog):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    game = new_game("gulag", players=5, seed=4)
    journal.begin("gulag", SETTINGS, game.to_record())
    bots = make_bots(game, "random", random.Random(4))
    while journal.n < 20:
        game.act(*next_move(game, bots))
        if game.saveable:
            journal.step(game.to_record())
    cut = tmp_path / "cut"  # the plug pulled: the files as they are, the WAL unmerged
    cut.mkdir()
    for f in tmp_path.glob("journal.sqlite*"):
        shutil.copy(f, cut / f.name)
    journal.close()
    wal = bytearray((cut / "journal.sqlite-wal").read_bytes())
    frame = 24 + 4096
    frames = (len(wal) - 32) // frame
    at = 32 + (frames - 6) * frame + 24 + 1000  # a page of one of the last steps
    wal[at] ^= 0xFF
    (cut / "journal.sqlite-wal").write_bytes(bytes(wal))
    box, table = started(cut / "journal.sqlite")
    try:
        assert table.resumed and table.journal.n < 20
        screen, log_lines = said(table, caplog)
        assert "earlier step" in screen
        assert len(log_lines) == 1 and "step 20 of game 1 was saved" in log_lines[0]
        kept = list(cut.glob("journal.sqlite-wal.damaged-*"))
        assert len(kept) == 1 and kept[0].read_bytes() == bytes(wal)
    finally:
        box.close()


# -- a reveal survives the plug -------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_reveal_cut_by_the_plug_is_shown_again(tmp_path, name):
    path = tmp_path / "journal.sqlite"
    box = open_box("virtual", clock=VirtualClock())
    table = Table(box, seed=7, journal=Journal(path))
    player = Player(box, table, box.clock)
    table.step()
    player.setup(Settings(name, game_class(name).min_players, "en"))
    bots = make_bots(table.game, "smart", random.Random(7))
    cuts = []
    while not isinstance(table.mode, Over):
        if isinstance(table.mode, Announce):
            cut = tmp_path / f"cut{len(cuts)}"
            cut.mkdir()
            for f in tmp_path.glob("journal.sqlite*"):
                shutil.copy(f, cut / f.name)
            game = table.game
            cuts.append((cut, list(table.mode.screens), game.public_view(), game.saveable))
            player.press("ok")
        elif isinstance(table.mode, Handoff):
            player.press("ok")
        else:
            player.answer_as(bots)
    box.close()
    assert len(cuts) > 3
    assert sum(saveable for *_, saveable in cuts) > 3
    for cut, on_show, view, saveable in cuts:
        box, resumed = started(cut / "journal.sqlite")
        try:
            assert resumed.resumed
            player = Player(box, resumed, box.clock)
            player.wait(GAP)  # presses before the guard time are dropped
            again = []
            while isinstance(resumed.mode, Announce):
                again.append(resumed.screen())
                player.press("ok")
            if saveable:
                assert again == on_show  # what was on screen, then the rest of the reveal
                assert resumed.game.public_view() == view  # then play goes on from there
            else:  # secret choices still held to seats (Politburo's third execution)
                assert again == [] and resumed.game.decision.secret  # are asked again
        finally:
            box.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_what_the_journal_says_fits_the_screen_in_every_language(lang):
    t = translator(lang)
    for line in store.SCREEN_LINES:
        assert lang == "en" or t(line) != line
        assert overflow(Screen(t("Journal"), tuple(wrap(t(line))), t("OK"))) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_after_a_power_cut_only_a_vote_asked_again_is_explained(tmp_path, lang):
    """Seats asked again are told why; an open choice simply carries on."""
    t = translator(lang)
    for voting in (True, False):
        path = tmp_path / f"{lang}-{voting}.sqlite"
        box = open_box("virtual", clock=VirtualClock())
        table = Table(box, seed=4, journal=Journal(path))
        table.start(Settings("gulag", 5, lang, {"deal": "cards"}))
        player = Player(box, table, box.clock)
        player.wait(GAP)
        player.press("ok")
        for seat in (1, 2, 3) if voting else (1,):
            player.answer(seat)
        box.close()
        box2 = open_box("virtual", clock=VirtualClock())
        table2 = Table(box2, seed=99, journal=Journal(path))
        assert table2.resume()
        if voting:
            assert table2.game.decision.kind == "task"
            shown = table2.screen()
            assert shown.status == t("Power cut") and overflow(shown) == []
            said = " ".join(shown.body)
            assert said == " ".join(wrap(t("The power went out: the vote starts again.")))
            assert isinstance(table2.mode, Notice) and isinstance(table2.mode.back, Handoff)
        else:
            assert table2.game.decision.kind == "pick_worker"
            assert isinstance(table2.mode, Handoff)
        box2.close()


# -- durability, undo, a single lost step ---------------------------------------------------
def test_the_journal_is_written_with_wal_and_a_full_sync(tmp_path):
    """A step is on disk before the box moves on: WAL, and ``synchronous=FULL`` on the
    connection that writes (a setting of the connection, not of the file)."""
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    try:
        assert journal.db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert journal.db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    finally:
        journal.close()
    assert sql(path, "PRAGMA journal_mode") == [("wal",)]  # kept in the file


def test_an_undo_is_in_the_journal_before_the_power_goes(tmp_path):
    path = tmp_path / "journal.sqlite"
    box = open_box("virtual", clock=VirtualClock())
    table = Table(box, seed=4, journal=Journal(path))
    table.start(Settings("gulag", 5, "en", {"deal": "cards"}))
    player = Player(box, table, box.clock)
    player.wait(GAP)
    player.press("ok")
    before = table.game.to_record()
    player.answer(1)  # an open choice, saved
    assert table.game.public_view()["workers"] == [1]
    player.press("back")  # undone: the box shows the choice again
    assert table.game.to_record() == before
    box.close()  # and the plug is pulled
    box = open_box("virtual", clock=VirtualClock())
    try:
        table = Table(box, seed=9, journal=Journal(path))
        assert table.resume()
        assert table.game.to_record() == before  # the undone move does not come back
    finally:
        box.close()


def test_a_crash_that_loses_exactly_one_step_is_said(tmp_path, caplog):
    path = tmp_path / "journal.sqlite"
    records = journal_with_game(path)
    sql(path, "DELETE FROM steps WHERE n = 12")  # the last commit rolled back by the crash
    box, table = started(path)
    try:
        assert table.resumed and table.game.to_record() == records[-2]
        screen, log_lines = said(table, caplog)
        assert screen == "After a crash, resumed at an earlier step."
        assert (
            len(log_lines) == 1
            and "step 12 of game 1 was saved, it now holds step 11" in (log_lines[0])
        )
    finally:
        box.close()


# -- bounded -------------------------------------------------------------------------------
def test_only_the_newest_games_keep_their_row(tmp_path, monkeypatch):
    monkeypatch.setattr(store.journal, "KEEP_ROWS", 5)
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    game = new_game("gulag", players=5, seed=1)
    for _ in range(12):
        journal.begin("gulag", SETTINGS, game.to_record())
        journal.finish()
    journal.begin("gulag", SETTINGS, game.to_record())  # the game in progress keeps its row
    journal.close()
    assert sql(path, "SELECT id, finished FROM games") == [
        *((i, store.FINISHED) for i in range(8, 13)),
        (13, 0),
    ]
    assert sql(path, "SELECT DISTINCT game_id FROM steps ORDER BY game_id") == [
        (i,) for i in range(8, 14)
    ]


# -- salvage ---------------------------------------------------------------------------------
def damaged_old_game(path):
    """A journal whose file fails its check in an old game's pages, with a game in progress
    that reads whole: its records."""
    records = journal_with_game(path)
    sql(path, "INSERT INTO games VALUES (0, 'gulag', '{}', 0, 1, NULL)")  # an old game, ended
    sql(path, "INSERT INTO steps (game_id, n, record) VALUES (0, 1, ?)", "OLD" * 8000)
    data = bytearray(path.read_bytes())
    page = data.find(b"OLD" * 1000, 4096) // 4096  # an overflow page of the old step
    data[page * 4096 : page * 4096 + 4] = b"\xff\xff\xff\x00"  # its next page: none such
    path.write_bytes(bytes(data))
    assert sql(path, "PRAGMA quick_check") != [("ok",)]
    return records


def test_a_damaged_file_keeps_its_game_in_progress_in_a_new_one(tmp_path, caplog):
    path = tmp_path / "journal.sqlite"
    records = damaged_old_game(path)
    found = {
        path: path.read_bytes(),
        path.with_name("journal.sqlite-wal"): b"no frames in this WAL" * 10,
        path.with_name("journal.sqlite-shm"): b"stale index" * 100,
    }
    for f, data in found.items():
        f.write_bytes(data)
    box, table = started(path)
    try:
        assert table.resumed and table.game.to_record() == records[-1]
        screen, log_lines = said(table, caplog)
        assert screen == "Journal damaged: kept aside, the game carried on."
        assert "gulag game in progress is read from it" in log_lines[0]
        assert sql(path, "PRAGMA quick_check") == [("ok",)]
        assert [json.loads(r) for _, _, r, _ in rows(path)] == [records[-1]]
        player = Player(box, table, box.clock)
        player.wait(GAP)
        while table.journal.n < 2:  # the game plays on in the new file
            if isinstance(table.mode, Handoff | Notice | Announce):
                player.press("ok")
            else:
                player.answer_as(make_bots(table.game, "random", random.Random(2)))
    finally:
        box.close()
    (aside,) = tmp_path.glob("journal.sqlite.damaged-*[0-9]")
    kept = {
        aside: path,
        **{
            aside.with_name(aside.name + s): path.with_name(path.name + s) for s in ("-wal", "-shm")
        },
    }
    for copy, original in kept.items():
        assert copy.read_bytes() == found[original], copy.name  # byte for byte, as found
