"""The booth survives a journal it cannot write: playing on, statistics kept in memory and
written when possible, the problem told to staff once; and what the journal found at start
is shown on the kiosk's own screen."""

import sqlite3

from companion.box import VirtualClock, open_box
from companion.kiosk.booth import FLUSH, Kiosk, Told
from companion.kiosk.day import Day
from companion.kiosk.daystats import Ledger
from companion.kiosk.safemode import set_journal_aside
from companion.store import Journal


def on_disk(path):
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT COALESCE(SUM(presses), 0) FROM kiosk_days").fetchone()[0]
    finally:
        db.close()


def test_a_locked_journal_keeps_the_statistics_in_memory_then_writes_them(tmp_path):
    path = tmp_path / "journal.sqlite"
    day = Day(seed=7, journal=path)
    try:
        other = sqlite3.connect(path, isolation_level=None, timeout=0)
        other.execute("BEGIN IMMEDIATE")  # another program holds the journal
        for _ in range(3):
            day.press("down")
        day.wait(FLUSH + 1)  # the day's presses are due: they cannot be written
        day.wait(0.5)
        kiosk = day.kiosk
        assert kiosk.ledger.problem is not None and kiosk.ledger.stats().presses == 3
        assert isinstance(kiosk.mode, Told)  # told to staff on the screen
        assert "Statistics not" in " ".join(kiosk.screen().body)
        day.press("ok")  # staff saw it: the press only dismisses it
        assert not isinstance(kiosk.mode, Told)
        for _ in range(2):
            day.wait(FLUSH + 1)
        assert not isinstance(kiosk.mode, Told)  # said once
        other.execute("ROLLBACK")
        other.close()
        day.press("down")
        day.wait(FLUSH + 1)
        assert kiosk.ledger.problem is None
        assert on_disk(path) == kiosk.ledger.stats().presses >= 4  # nothing lost
    finally:
        day.close()


def test_statistics_of_a_journal_locked_at_start_are_kept_and_written_later(tmp_path):
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    other.execute("BEGIN EXCLUSIVE")  # not even readable
    journal = Journal(path, lock_wait=0.05)
    ledger = Ledger(source=lambda: journal.db)
    row = ledger.begin("gulag", 5, "real")
    ledger.end(row, "finished", "red", 12)
    assert ledger.stats().finished == 1 and ledger.problem is not None
    other.execute("ROLLBACK")
    other.close()
    journal.close()
    journal = Journal(path)
    ledger.source = lambda: journal.db
    ledger.flush()
    assert ledger.problem is None
    assert Ledger(journal.db).stats().finished == 1
    journal.close()


def test_journal_problems_found_at_start_are_shown_on_the_kiosks_screen(tmp_path):
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"not a journal at all" * 100)
    box = open_box("virtual", clock=VirtualClock())
    try:
        kiosk = Kiosk(box, Journal(path), seed=1)
        assert isinstance(kiosk.mode, Told)
        assert "damaged" in " ".join(kiosk.screen().body)
        box.clock.advance(30)
        kiosk.step()
        assert not isinstance(kiosk.mode, Told)  # gone by itself: the booth goes on
    finally:
        box.close()


def test_safe_mode_moves_the_acknowledgement_sidecar_with_the_journal(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    journal.close()
    path.with_name("journal.sqlite.ack").write_text("1 40\n")
    aside = set_journal_aside(path)
    assert aside is not None and not path.with_name("journal.sqlite.ack").exists()
    assert aside.with_name(aside.name + ".ack").exists()
    fresh = Journal(path)  # no false "lost steps" warning at the next start
    assert fresh.news == []
    fresh.close()
