"""The journal: a pulled plug loses no completed step, and no row betrays a secret."""

import json
import os
import random
import signal
import sqlite3
import time

import pytest

from companion.bots import make_bots, next_move
from companion.box import VirtualClock, open_box
from companion.demo import GAP, Player, play
from companion.games import new_game, restore
from companion.games.gulag import STRIKE, WORK
from companion.store import Journal, JournalError
from companion.table import Settings, Table
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
    assert table2.mode == "handoff"
    player2 = Player(box2, table2, box2.clock)
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
    journal.begin("gulag", {"seed": seed}, game.to_record())
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
    assert kills > 150  # most children really were killed mid-game
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
