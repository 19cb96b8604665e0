"""The journal: every completed step of a game in SQLite, so a pulled plug loses nothing.

One real transaction a step, written only where the game is saveable (no
secret ballot open), so no row ever links a seat to a secret choice and the
number of rows does not depend on what anyone chose. Each step carries a
checksum of its record. After a power cut the box resumes at the last completed
step; a secret choice in flight is simply asked again. A step that ended in a
reveal keeps the reveal's screens as the table saw them (public text only): in
``reveals`` for the whole game (the TV's history), in ``shown`` those still on
show, so that a reveal cut by the plug is shown again.

The journal stores and reads; it does not judge. ``unfinished`` hands back the
game in progress as it was written, and the table's side
(``companion.table.resume``) decides which step can be resumed, then tells the
journal (``resume_at``, ``set_steps_aside``, ``set_game_aside``). The box always
starts, and only real damage is damage:

- a damaged file is copied aside byte for byte as found (never deleted, never
  empty, never over another aside), the game in progress read from it if its
  rows can be read, and a new file started, the game carried on in it;
- a journal locked by another program, a read-only directory or a full disk
  leave the box running unsaved (``saving`` is False, ``problem`` says why):
  the game in progress is still read and resumed; what could not be written
  is kept in memory and written, whole, at the next step the journal can be
  written again, the beginning of a game included; a game begun meanwhile
  ends any older unfinished one, so that never comes back;
- a journal written by a newer program is neither written nor read: the box
  runs unsaved and says so (an error when the user named the file);
- a crash that SQLite recovers by rolling the WAL back is noticed by the
  sidecar ``<journal>.ack``, the last step the box acknowledged.

Whatever happened is said once, in ``news``, for the screen and the log.
Only a journal path the user typed that cannot be written is an error.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sqlite3
import time
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from companion.errors import JournalError
from companion.store import reads
from companion.store.ack import acknowledge, acknowledged, keep_wal, wal_as_found
from companion.store.files import (
    BUSY_WAIT,
    LOCK_WAIT,
    Damaged,
    Newer,
    damaged,
    keep_aside,
    locked,
    open_journal,
    read_shm,
    remove,
    sidecar,
    transaction,
)
from companion.store.pending import Pending
from companion.store.records import (
    ABANDONED,
    FILE_DAMAGED,
    FILE_SALVAGED,
    FINISHED,
    NEWER_JOURNAL,
    ROLLED_BACK,
    SAVING_AGAIN,
    SET_ASIDE,
    UNSAVED,
    Begin,
    Finish,
    News,
    Odd,
    SavedStep,
    Step,
    Unfinished,
)
from companion.store.writes import KEEP_GAMES, KEEP_ROWS, KEEP_STEPS, prune_ended, write

log = logging.getLogger("companion.store")

RETRY = 10.0  # seconds between attempts of ``retry`` while unsaved (each step tries anyway)
WHY_KEPT = 500  # characters of a reason kept in the journal


class Journal:
    """The journal at ``path``. ``typed``: the user named it, so an unwritable path is an error."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        typed: bool = False,
        clock: Callable[[], float] = time.monotonic,
        lock_wait: float = LOCK_WAIT,
    ) -> None:
        self.path = Path(path)
        self.clock = clock
        self.news: list[News] = []
        self.problem: str | None = None
        self.db: sqlite3.Connection | None = None
        self.game_id: int | None = None
        self.n = 0
        self.newer: int | None = None  # the format of a journal from a newer program
        self.salvaged: Unfinished | None = None  # the game read from a damaged file
        self._salvaged_reveals: list[list[dict[str, Any]]] = []
        self._queue = Pending()  # writes waiting for a writable journal
        self._retry_at = 0.0
        self._showing = False  # the last step carries a reveal still on show
        self._begun: Begin | None = None  # the game being written
        self._last: Step | None = None  # its newest step (no reveals)
        self._reveals: list[list[dict[str, Any]]] = []  # the current game's, in order
        self._start: int | None = None  # the row marking this start's resumed step
        self.ack_path = sidecar(self.path, ".ack")
        self._quiet = typed  # a path the user typed: an error, not a log line, if unwritable
        stuck = self._connect(lock_wait)
        self._quiet = False
        if self.db is None and typed and (not stuck or self.newer is not None):
            raise JournalError(self.problem or f"cannot write the journal {self.path}")
        for news in self.news if typed else ():
            log.warning("%s", news.log)

    @property
    def saving(self) -> bool:
        """Whether everything the box asked to keep is on disk."""
        return self.problem is None

    # -- opening ---------------------------------------------------------------------
    def _connect(self, wait: float) -> bool:
        """Open the file (setting damage aside); False and unsaved if it cannot be written.
        Returns True when the only trouble is another program's lock, or a newer program's
        file."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._unsaved(f"cannot create the journal's folder {self.path.parent}: {exc.strerror}")
            return False
        wal = wal_as_found(self.path, self.ack_path)
        shm = read_shm(self.path)
        try:
            self.db = open_journal(self.path, wait)
        except Newer as exc:
            self.newer = exc.version
            why = f"the journal {self.path} is from a newer version of companion ({exc})"
            if self.problem is None and not self._quiet:
                self._tell(NEWER_JOURNAL, f"{why}: not saving, the file is left as it is")
            self.problem = why
            return True
        except sqlite3.Error as exc:
            if not damaged(exc):
                self._unsaved(self._why(exc))
                return locked(exc)
            try:
                self._set_aside_file(str(exc), shm, exc.db if isinstance(exc, Damaged) else None)
                self.db = open_journal(self.path, wait)
            except OSError as again:
                self._unsaved(f"cannot set the damaged journal {self.path} aside: {again}")
                return False
            except sqlite3.Error as again:
                self._unsaved(self._why(again))
                return locked(again)
            wal = None
        self._check_ack(wal)
        return False

    def _why(self, exc: sqlite3.Error) -> str:
        if locked(exc):
            return f"the journal {self.path} is in use by another program"
        verb = "write" if self.db is not None else "open"
        return f"cannot {verb} the journal {self.path}: {exc}"

    def _set_aside_file(self, why: str, shm: bytes | None, db: sqlite3.Connection | None) -> None:
        """Keep a damaged journal aside as found, read what can be read of its game in
        progress (``db``: a connection still open on it), and start a new one."""
        salvaged = None
        try:
            kept = keep_aside(self.path, shm, time.time())
            if db is not None:
                salvaged = self._salvage(db)
        finally:
            if db is not None:
                db.close()
        remove(self.path)
        self.ack_path.unlink(missing_ok=True)
        if self._begun is not None:  # mid-game: the new file starts with the game so far
            self.game_id, self.n = None, 0
            self._queue.again([self._begun, *([] if self._last is None else [self._last])])
        elif salvaged is not None:
            self.salvaged = salvaged
            self._tell(
                FILE_SALVAGED,
                f"journal {self.path} is damaged ({why}): {kept}, starting a new one; its "
                f"{salvaged.name} game in progress is read from it",
            )
            return
        self._tell(
            FILE_DAMAGED, f"journal {self.path} is damaged ({why}): {kept}, starting a new one"
        )

    def _salvage(self, db: sqlite3.Connection) -> Unfinished | None:
        """The game in progress in a damaged file, if its rows can be read."""
        try:
            found = reads.unfinished(db)
            if found is None or found.game_id is None:
                return None
            self._salvaged_reveals = reads.reveals(db, found.game_id, found.steps[0].n)
        except sqlite3.Error as exc:
            log.info("nothing read from the damaged journal %s: %s", self.path, exc)
            return None
        return Unfinished(None, found.name, found.settings, found.steps)

    def _check_ack(self, wal: bytes | None) -> None:
        """Say so, once, if the journal ends before the last step the box acknowledged."""
        assert self.db is not None
        if (acked := acknowledged(self.ack_path)) is None:
            return
        game_id, n = acked
        try:
            kept = self.db.execute(
                "SELECT MAX(n) FROM steps WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
        except sqlite3.Error:
            return  # unfinished() meets the same trouble and handles it
        if kept is not None and kept >= n:
            return
        where = "none of that game" if kept is None else f"step {kept}"
        self._tell(
            ROLLED_BACK,
            f"the journal lost steps in a crash: step {n} of game {game_id} was saved, "
            f"it now holds {where}{keep_wal(self.path, wal)}",
        )
        acknowledge(self.ack_path, game_id, kept or 0)  # said once: the sidecar now agrees

    def say(self, news: News) -> None:
        """Something to say once, on the screen and in the log (the resume's findings too)."""
        if not self._quiet:
            log.warning("%s", news.log)
        self.news.append(news)

    def _tell(self, screen: str, line: str, **args: Any) -> None:
        self.say(News(screen, line, args))

    def _unsaved(self, why: str) -> None:
        if self.problem is None:
            self._tell(UNSAVED, f"{why}: not saving for now")
            if self.db is not None:  # meanwhile each step tries once, without waiting
                with contextlib.suppress(sqlite3.Error):
                    self.db.execute("PRAGMA busy_timeout = 0")
        self.problem = why
        self._retry_at = self.clock() + RETRY

    # -- writing -----------------------------------------------------------------------
    def begin(self, game: str, settings: dict[str, Any], record: dict[str, Any]) -> None:
        """A new game, and its first step. Any older unfinished game is over for good."""
        self._begun = Begin(game, json.dumps(settings, sort_keys=True))
        self._reveals = []
        self.salvaged = None
        self._queue.add(self._begun)
        self.step(record)

    def step(self, record: dict[str, Any], shown: list[dict[str, Any]] | None = None) -> None:
        """A completed step (and the reveal it shows, if any); on disk when ``saving``."""
        if self.game_id is None and not self._queue.begun():
            raise RuntimeError("no game begun in the journal")
        self._showing = bool(shown)
        reveals: tuple[tuple[dict[str, Any], ...], ...] = (tuple(shown),) if shown else ()
        self._reveals.extend(list(r) for r in reveals)
        self._last = Step(json.dumps(record, sort_keys=True), json.dumps(shown) if shown else None)
        self._queue.step(Step(self._last.record, self._last.shown, reveals))
        self._flush()

    def showing(self, screens: list[dict[str, Any]]) -> None:
        """The reveal screens still on show (none: the reveal is over)."""
        if not self._showing or self._last is None:
            return
        self._showing = bool(screens)
        shown = json.dumps(screens) if screens else None
        self._last = Step(self._last.record, shown)
        self._queue.shown(shown)
        self._flush()

    def finish(self) -> None:
        """The game is over and its last reveal seen: it is never resumed."""
        self._end(FINISHED)

    def abandon(self) -> None:
        """The table gave the game up: it is never resumed (``finished = 3``), no step added."""
        self._end(ABANDONED)

    def _end(self, how: int) -> None:
        self._showing = False
        self._start = None
        if self.game_id is not None or self._queue:
            self._queue.add(Finish(how))
            self._flush()

    def retry(self) -> None:
        """Write what waits, if ``RETRY`` seconds have passed since the last attempt: for a
        loop idle between steps, so that a journal written again is used without a step."""
        if self._queue and self.clock() >= self._retry_at:
            self._retry_at = self.clock() + RETRY
            self._flush()

    def reveals(self) -> list[list[dict[str, Any]]]:
        """The current game's reveals, each as the screens the table saw, in order: what the
        TV's history is rebuilt from after a power cut."""
        return [list(screens) for screens in self._reveals]

    def _flush(self) -> None:
        """Write what waits, in one transaction; on failure keep all of it for the next try."""
        if not self._queue:
            return
        if self.db is None:
            self._connect(0.0)
            if self.db is None:
                return
        game_id, n = self.game_id, self.n
        try:
            with transaction(self.db):
                for op in self._queue.ops:
                    game_id, n = write(self.db, op, game_id, n)
        except sqlite3.Error as exc:
            why = self._why(exc)
            if isinstance(exc, sqlite3.ProgrammingError) or damaged(exc):
                self._close()  # reopened (and damage set aside) at the next attempt
            self._unsaved(why)
            return
        begun = self._queue.begun()
        self.game_id, self.n = game_id, n
        self._queue.clear()
        acknowledge(self.ack_path, game_id, n)
        if self.problem is not None:
            self._tell(SAVING_AGAIN, f"the journal {self.path} is written again")
            self.problem = None
            with contextlib.suppress(sqlite3.Error):
                self.db.execute(f"PRAGMA busy_timeout = {int(BUSY_WAIT * 1000)}")
        if begun:  # the games before it have ended: they keep their last steps only
            self.prune()

    def prune(self) -> None:
        """Ended games keep their row and their last steps (best effort: tried again later)."""
        if self.db is None:
            return
        try:
            prune_ended(self.db, KEEP_GAMES, KEEP_STEPS, whole=1, keep_rows=KEEP_ROWS)
        except sqlite3.Error as exc:
            log.warning("cannot prune the journal %s: %s", self.path, exc)

    # -- reading -----------------------------------------------------------------------
    @contextlib.contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection | None]:
        """The open journal, or the file opened read-only when it cannot be written (locked,
        a read-only file or folder); None when it cannot be read either, or is a newer
        program's."""
        if self.db is not None or self.newer is not None:
            yield self.db
            return
        db = None
        for query in ("mode=ro", "immutable=1"):
            uri = f"file:{urllib.parse.quote(str(self.path.absolute()))}?{query}"
            try:
                db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=1.0)
                db.execute("SELECT COUNT(*) FROM games").fetchone()
                break
            except sqlite3.Error:
                if db is not None:
                    db.close()
                db = None
        try:
            yield db
        finally:
            if db is not None:
                db.close()

    def unfinished(self) -> Unfinished | None:
        """The newest unfinished game as it was written (or as read from a damaged file that
        was set aside); None if none. A journal that cannot be written is read all the same:
        the game plays on unsaved."""
        try:
            with self._reading() as db:
                found = None if db is None else reads.unfinished(db)
        except sqlite3.Error as exc:
            self._trouble(exc)
            return None
        return found or self.salvaged

    def odd_games(self) -> list[Odd]:
        """Games whose ``finished`` this version does not know (none if unreadable)."""
        try:
            with self._reading() as db:
                return [] if db is None else reads.odd_games(db)
        except sqlite3.Error as exc:
            self._trouble(exc)
            return []

    def last_settings(self) -> Any:
        """The settings of the newest game, whatever became of it, as they decode (None if
        there is none or they cannot be read)."""
        try:
            with self._reading() as db:
                return None if db is None else reads.last_settings(db)
        except sqlite3.Error:
            return None

    def _trouble(self, exc: sqlite3.Error) -> None:
        """A read that failed: damage is set aside (a new file started), the rest said."""
        if self.db is not None and damaged(exc):
            db, self.db = self.db, None  # copied aside before it closes (closing folds the WAL)
            try:
                self._set_aside_file(str(exc), None, db)
            except OSError as again:
                self._unsaved(f"cannot set the damaged journal {self.path} aside: {again}")
                return
            self._connect(LOCK_WAIT)
        elif self.db is not None:
            self._unsaved(self._why(exc))

    # -- what the table's side decided -------------------------------------------------
    def resume_at(self, found: Unfinished, step: SavedStep) -> None:
        """The table resumes ``found`` at ``step``: new steps follow the newest kept one; a
        game read from a damaged file is begun again in the new one, from that step."""
        self._begun = Begin(found.name, _text(found.settings))
        self._last = Step(step.text(), None)
        if found.game_id is None:
            self.game_id, self.n = None, 0
            self._reveals = list(self._salvaged_reveals)
            self._queue.again([self._begun, Step(self._last.record, None, _frozen(self._reveals))])
            self.salvaged = None
            self._flush()
            return
        self.game_id, self.n = found.game_id, found.steps[0].n
        try:
            with self._reading() as db:
                self._reveals = [] if db is None else reads.reveals(db, found.game_id, step.n)
        except sqlite3.Error:
            self._reveals = []

    def set_steps_aside(self, game_id: int | None, bad: list[tuple[int, str]]) -> None:
        """Steps that cannot be resumed keep their reason in the journal (when writable)."""
        if game_id is None or not bad:
            return
        self._update(
            "UPDATE steps SET bad = ? WHERE game_id = ? AND n = ?",
            [(why[:WHY_KEPT], game_id, n) for n, why in bad],
        )

    def set_game_aside(self, game_id: int | None, why: str) -> None:
        """A game that cannot be resumed is never offered again (``finished = 2``, ``why``)."""
        if game_id is None:
            self.salvaged = None
            return
        self._update(
            "UPDATE games SET finished = ?, why = ? WHERE id = ?",
            [(SET_ASIDE, why[:WHY_KEPT], game_id)],
        )
        self._update("DELETE FROM starts WHERE game_id = ?", [(game_id,)])

    def mark_start(self, n: int) -> None:
        """This start resumed step ``n`` of the current game: kept until its first quiet
        moment (``quiet``), so that the next start knows a step that stopped the box."""
        if self.db is None or self.game_id is None:
            return
        try:
            with transaction(self.db):
                if self._start is None:
                    cur = self.db.execute(
                        "INSERT INTO starts (game_id, n) VALUES (?, ?)", (self.game_id, n)
                    )
                    self._start = cur.lastrowid
                else:  # resumed again in the same start (a step that failed in play)
                    self.db.execute("UPDATE starts SET n = ? WHERE rowid = ?", (n, self._start))
        except sqlite3.Error as exc:
            log.warning("cannot mark the start in the journal %s: %s", self.path, exc)

    def quiet(self) -> None:
        """The game played on after its resume: the starts that failed before are forgotten."""
        if self.db is None or self.game_id is None:
            return
        self._update("DELETE FROM starts WHERE game_id = ?", [(self.game_id,)])
        self._start = None

    def _update(self, statement: str, rows: list[tuple[Any, ...]]) -> None:
        if self.db is None:
            return  # read-only: found and said again at the next start
        try:
            with transaction(self.db):
                self.db.executemany(statement, rows)
        except sqlite3.Error as exc:
            log.warning("cannot update the journal %s: %s", self.path, exc)

    def _close(self) -> None:
        if self.db is not None:
            with contextlib.suppress(sqlite3.Error):
                self.db.close()
            self.db = None

    def close(self) -> None:
        self._close()


def _text(raw: bytes | None) -> str:
    return "null" if raw is None else raw.decode("utf-8", "replace")


def _frozen(reveals: list[list[dict[str, Any]]]) -> tuple[tuple[dict[str, Any], ...], ...]:
    return tuple(tuple(screens) for screens in reveals)
