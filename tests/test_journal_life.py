"""A journal over a box's life: one box a journal, saving again while the table waits, a
kiosk's safe mode that sets a journal aside once, and arguments checked before any work."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion import bench, store
from companion.box import VirtualClock, open_box
from companion.boxlock import JournalInUse, hold, lock_path
from companion.cli import main
from companion.kiosk.safemode import FAILS
from companion.store import Journal
from companion.table import Settings, Table

ROOT = Path(__file__).resolve().parents[1]
HEADLESS = ["--board", "virtual", "--headless"]


def companion(*argv, data=None, notify=None):
    env = {**os.environ, "COMPANION_DATA": str(data)} if data else dict(os.environ)
    if notify is not None:
        env["NOTIFY_SOCKET"] = str(notify)
    return subprocess.Popen(
        [sys.executable, "-m", "companion", *argv],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def holding(process, journal, patience=60.0):
    """Wait until ``process`` holds ``journal`` (its pid in the lock file); a start under load
    may take seconds, so this waits for the fact rather than for a time."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read()
        path = lock_path(journal)
        if path.exists() and f"pid {process.pid}," in path.read_text():
            return
        time.sleep(0.05)
    raise AssertionError(f"{journal} never held by pid {process.pid}")


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_a_second_box_on_a_held_journal_exits_in_one_line_and_the_first_runs_on(tmp_path):
    journal = tmp_path / "journal.sqlite"
    first = companion("run", *HEADLESS, "--journal", str(journal))
    try:
        holding(first, journal)
        for command in ("run", "kiosk"):
            second = subprocess.run(
                [sys.executable, "-m", "companion", command, *HEADLESS, "--journal", str(journal)],
                cwd=ROOT,
                capture_output=True,
                text=True,
                stdin=subprocess.DEVNULL,
                timeout=120,
            )
            assert second.returncode == 2, second.stderr
            assert second.stderr.count("\n") == 1, second.stderr
            assert "in use by another box" in second.stderr
            assert f"pid {first.pid}, `companion run`" in second.stderr  # names the running one
        assert first.poll() is None  # the first box runs on
        stats = subprocess.run(  # and the journal can still be read while it runs
            [sys.executable, "-m", "companion", "stats", "--journal", str(journal)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert stats.returncode == 0, stats.stderr
        assert "in use" not in stats.stderr
    finally:
        stop(first)


def test_a_killed_box_leaves_no_lock_behind(tmp_path):
    """The kernel drops the lock with its holder, SIGKILL included: no stale lock to clear."""
    journal = tmp_path / "journal.sqlite"
    first = companion("run", *HEADLESS, "--journal", str(journal))
    try:
        holding(first, journal)
        first.kill()
        first.wait()
        with pytest.raises(JournalInUse):  # a live holder refuses the next one...
            other = hold(journal, "run")
            hold(journal, "run")
        other.release()
        again = companion("run", *HEADLESS, "--journal", str(journal))
        try:
            holding(again, journal)  # ...a dead one does not
        finally:
            stop(again)
    finally:
        stop(first)


def test_a_lock_file_that_cannot_be_made_does_not_stop_the_box(tmp_path):
    """The journal says itself when its folder cannot be written; the lock adds no failure."""
    lock = hold(Path("/proc/self/nowhere/journal.sqlite"), "run")
    assert lock.fd is None
    lock.release()


# -- saving again while the table waits ------------------------------------------------------
HOLD = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN EXCLUSIVE")
print("held", flush=True)
sys.stdin.read()
"""


def test_an_unsaved_table_saves_again_while_it_waits_and_says_so(tmp_path):
    path = tmp_path / "journal.sqlite"
    Journal(path).close()  # the file exists: another program can lock it
    clock = VirtualClock()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    box = open_box("virtual", clock=clock)
    try:
        assert holder.stdout.readline() == b"held\n"
        journal = Journal(path, clock=clock.now, lock_wait=0.0)
        table = Table(box, seed=1, journal=journal)
        table.start(Settings("gulag", 5, "en"))
        table.step()
        assert not journal.saving and table.screen().status.startswith("! ")
        holder.stdin.close()
        holder.wait(timeout=30)
        table.step()  # lock gone, but not yet time to try: the table keeps waiting
        assert not journal.saving
        clock.advance(store.RETRY)
        table.step()  # no press, no step: the idle table tries again by itself
        assert journal.saving and not table.screen().status.startswith("! ")
        assert any("saving" in line for line in table.screen().body), table.screen()
        journal.close()
        import sqlite3

        db = sqlite3.connect(path)
        assert db.execute("SELECT game FROM games").fetchall() == [("gulag",)]
        db.close()
    finally:
        if holder.poll() is None:
            holder.kill()
        box.close()


# -- the kiosk's safe mode ---------------------------------------------------------------------
def test_safe_mode_sets_the_journal_aside_once_not_at_every_safe_start(tmp_path):
    journal = tmp_path / "journal.sqlite"
    Journal(journal).close()
    (tmp_path / "kiosk-starts.json").write_text(json.dumps({"starts": FAILS}))
    asides = []
    for _ in range(2):  # two starts in safe mode, neither reaching its healthy time
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
            listener.bind(str(tmp_path / "notify"))
            listener.settimeout(120)
            kiosk = companion(
                "kiosk", *HEADLESS, "--journal", str(journal), notify=tmp_path / "notify"
            )
            try:
                while b"READY=1" not in listener.recv(4096):  # the kiosk is up: all is set
                    pass
            finally:
                stop(kiosk)
        (tmp_path / "notify").unlink()
        asides.append(sorted(p.name for p in tmp_path.glob("journal.sqlite.safe-*")))
    assert len(asides[0]) == 1  # the journal that brought the kiosk down, kept aside
    assert asides[1] == asides[0]  # the fresh one safe mode began is not set aside again


# -- arguments before work -----------------------------------------------------------------------
@pytest.mark.parametrize("games", ["-1", "0"])
def test_bench_refuses_a_games_count_before_measuring_anything(monkeypatch, capsys, games):
    ran = []
    monkeypatch.setattr(bench, "run", lambda *a, **k: ran.append(a))
    assert main(["bench", "--games", games]) == 2
    assert ran == []
    assert "--games must be from 1" in capsys.readouterr().err


def test_the_soak_bench_kills_and_resumes_a_box_and_finds_the_journal_whole(tmp_path):
    """A small sample of ``bench/soak.py`` (the long run is 100,000 presses)."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "soak.py"), "--presses", "1500", "--seed", "4"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["healthy"] and report["presses"] >= 1500
    assert report["kills"] >= 1 and report["peak_memory_mib"] > 0
