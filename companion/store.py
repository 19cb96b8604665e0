"""The journal: every completed step of a game in SQLite, so a pulled plug loses nothing.

One real transaction a step, written only where the game is saveable (no
secret ballot open), so no row ever links a seat to a secret choice and the
number of rows does not depend on what anyone chose. Each step carries a
checksum of its record, and is trusted again only once ``companion.trust``
has checked it. WAL with ``synchronous=FULL``:
a step is on disk before the box moves on. After a power cut the box resumes
at the last completed step; a secret choice in flight is simply asked again.
A step that ended in a reveal keeps the reveal's screens as the table saw
them (public text only): in ``reveals`` for the whole game (the TV's
history), in ``shown`` those still on show, so that a reveal cut by the plug
is shown again. The game in progress keeps its last ``KEEP_LIVE`` steps (the
ones to fall back on); so does the game played just before it, but once a
newer game begins, an older ended game keeps its row (settings, how it
ended) and its last ``KEEP_STEPS`` steps, the newest ``KEEP_GAMES`` of them
only; so the file stays bounded over years of game nights.

The box always starts, and only real damage is damage:

- a damaged file is moved aside (never deleted, never empty, never over
  another aside) and a new one started;
- a step that fails its checks is set aside in the journal with its reason
  (``steps.bad``) and the game resumed from its newest healthy step; a game
  whose settings fail, or with no healthy step, is set aside whole
  (``finished = 2``, ``games.why``) and setup starts from the defaults;
- a journal locked by another program, a read-only directory or a full disk
  leave the box running unsaved (``saving`` is False, ``problem`` says why):
  the game in progress is still read and resumed; what could not be written
  is kept in memory and written, whole, at the next step the journal can be
  written again, the beginning of a game included; a game begun meanwhile
  ends any older unfinished one, so that never comes back;
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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.datapath import default_path as default_path
from companion.errors import JournalError
from companion.games import Game
from companion.trust import Untrusted, check_settings, checksum, trusted_game

log = logging.getLogger("companion.store")

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    started REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    why TEXT
);
CREATE TABLE IF NOT EXISTS steps (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    record TEXT NOT NULL,
    shown TEXT,
    checksum TEXT,
    bad TEXT,
    PRIMARY KEY (game_id, n)
);
CREATE TABLE IF NOT EXISTS reveals (
    game_id INTEGER NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    screens TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS reveals_of_game ON reveals (game_id, n);
"""
#: 2: steps.shown, games.finished = 2 for a game set aside;
#: 3: steps.checksum, steps.bad (a step set aside, why), games.why, the reveals table
SCHEMA_VERSION = 3
ADDED_COLUMNS = {
    "steps": ("shown", "checksum", "bad"),
    "games": ("why",),
}
FINISHED = 1
SET_ASIDE = 2
ABANDONED = 3  # given up at the table (the abandon gesture, a kiosk's walked-away game)

LOCK_WAIT = 5.0  # seconds the box waits at start for a program holding the journal
BUSY_WAIT = 0.5  # seconds a write waits for a lock while playing
RETRY = 10.0  # seconds between attempts of ``retry`` while unsaved (each step tries anyway)
WAL_KEPT = 8 << 20  # the largest WAL copied aside when a crash rolled it back
KEEP_GAMES = 10  # ended games that keep their last steps (older ones keep their row only)
KEEP_STEPS = 3  # steps kept of each of those: where it ended, and just before
KEEP_LIVE = 20  # steps kept of the game in progress: the newest, and some to fall back on

# What the screen says (the table translates it; the log gets the details).
FILE_DAMAGED = "Journal damaged: kept aside, a new one started."
ROLLED_BACK = "After a crash, resumed at an earlier step."
UNSAVED = "Not saving: the game goes on unsaved."
STEP_SKIPPED = "Damaged step skipped: resumed at step {step}."
GAME_ASIDE = "Saved game unreadable: kept aside."
SAVING_AGAIN = "The journal can be written again: saving."
SCREEN_LINES = (
    FILE_DAMAGED,
    ROLLED_BACK,
    UNSAVED,
    STEP_SKIPPED,
    GAME_ASIDE,
    SAVING_AGAIN,
)


@dataclass(frozen=True)
class News:
    """Something the box must say once: ``screen`` (short, translated by the table, then
    filled with ``args``), ``log``."""

    screen: str
    log: str
    args: dict[str, Any] = field(default_factory=dict)

    def said(self, t: Callable[[str], str]) -> str:
        """The screen's line in the language of ``t``."""
        return t(self.screen).format(**self.args)


@dataclass
class Saved:
    """An unfinished game found in the journal, ready to play on."""

    settings: dict[str, Any]
    game: Game
    shown: list[dict[str, Any]] | None  # the reveal's screens still on show at the power cut
    step: int = 0  # the step resumed


class _Damaged(sqlite3.DatabaseError):
    """quick_check found the file damaged."""


def _damaged(exc: sqlite3.Error) -> bool:
    name = getattr(exc, "sqlite_errorname", "")
    return isinstance(exc, _Damaged) or name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB"))


def _locked(exc: sqlite3.Error) -> bool:
    return getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))


def _decode(raw: bytes | None) -> Any:
    if raw is None:
        raise ValueError("missing")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not UTF-8") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc.msg} at {exc.pos}") from None


def _shown(raw: bytes | None) -> list[dict[str, Any]] | None:
    if raw is None:
        return None
    shown = _decode(raw)
    if not isinstance(shown, list) or not all(isinstance(s, dict) for s in shown):
        raise ValueError("the reveal on show is not a list of screens")
    return shown or None


def free_name(path: Path, tag: str, when: float) -> Path:
    """``<name>.<tag>-<date>-<time>``, with a counter when that name is taken."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when))
    candidate = path.with_name(f"{path.name}.{tag}-{stamp}")
    count = 1
    while candidate.exists():
        count += 1
        candidate = path.with_name(f"{path.name}.{tag}-{stamp}-{count}")
    return candidate


def _op(kind: str, *args: Any) -> tuple[Any, ...]:
    return (kind, *args)


@contextlib.contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One real transaction on a connection opened with ``isolation_level=None`` (where
    ``with db:`` opens none): all of it is written, or none of it."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        raise


def prune_ended(
    db: sqlite3.Connection,
    keep_games: int,
    keep_steps: int,
    whole: int = 0,
    drop_rows: bool = False,
) -> None:
    """Drop the steps of ended games but the last ``keep_steps`` of the newest ``keep_games``
    (the newest ``whole`` of those keep all theirs: the game just played), and the reveals
    of all but those. The older games' rows (settings, start, how they ended) stay, unless
    ``drop_rows`` (the kiosk keeps its own summaries). One transaction."""
    ended = "SELECT id FROM games WHERE finished != 0 ORDER BY id DESC"
    with transaction(db):
        db.execute(f"DELETE FROM steps WHERE game_id IN ({ended} LIMIT -1 OFFSET ?)", (keep_games,))
        db.execute(f"DELETE FROM reveals WHERE game_id IN ({ended} LIMIT -1 OFFSET ?)", (whole,))
        if drop_rows:
            db.execute(f"DELETE FROM games WHERE id IN ({ended} LIMIT -1 OFFSET ?)", (keep_games,))
        db.execute(
            f"DELETE FROM steps WHERE game_id IN ({ended} LIMIT -1 OFFSET ?) AND n <= "
            "(SELECT MAX(n) FROM steps AS s WHERE s.game_id = steps.game_id) - ?",
            (whole, keep_steps),
        )


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
        self._queue: list[tuple[Any, ...]] = []  # writes waiting for a writable journal
        self._retry_at = 0.0
        self._showing = False  # the last step carries a reveal still on show
        self._begun: tuple[str, str] | None = None  # the game being written: name, settings
        self._last: tuple[str, str | None] = ("", None)  # its newest step: record, reveal
        self._reveals: list[list[dict[str, Any]]] = []  # the current game's, in order
        self.ack_path = self.path.with_name(self.path.name + ".ack")
        self._quiet = typed  # a path the user typed: an error, not a log line, if unwritable
        locked = self._connect(lock_wait)
        self._quiet = False
        if self.db is None and typed and not locked:
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
        Returns True when the only trouble is another program's lock."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self._unsaved(f"cannot create the journal's folder {self.path.parent}: {exc.strerror}")
            return False
        wal = self._wal_bytes()
        try:
            self.db = self._open(wait)
        except sqlite3.Error as exc:
            if not _damaged(exc):
                self._unsaved(self._why(exc))
                return _locked(exc)
            try:
                self._set_aside_file(str(exc))
                self.db = self._open(wait)
            except OSError as again:
                self._unsaved(f"cannot set the damaged journal {self.path} aside: {again}")
                return False
            except sqlite3.Error as again:
                self._unsaved(self._why(again))
                return _locked(again)
            wal = None
        self._check_ack(wal)
        return False

    def _open(self, wait: float) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, timeout=wait)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            # A box runs all day: the WAL is folded in every 1 MiB and cut back to it after.
            db.execute("PRAGMA wal_autocheckpoint = 256")
            db.execute(f"PRAGMA journal_size_limit = {2**20}")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise _Damaged(check)
            with transaction(db):
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                for table, added in ADDED_COLUMNS.items():
                    columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
                    for column in added:
                        if column not in columns:
                            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} TEXT")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")  # proves it is writable
            db.execute(f"PRAGMA busy_timeout = {int(BUSY_WAIT * 1000)}")
        except sqlite3.Error:
            db.close()
            raise
        return db

    def _why(self, exc: sqlite3.Error) -> str:
        if _locked(exc):
            return f"the journal {self.path} is in use by another program"
        verb = "write" if self.db is not None else "open"
        return f"cannot {verb} the journal {self.path}: {exc}"

    def _set_aside_file(self, why: str) -> None:
        """Move a damaged journal (and its WAL) to a free aside name; an empty one is dropped."""
        when = time.time()
        size = self.path.stat().st_size if self.path.exists() else 0
        wal = self.path.with_name(self.path.name + "-wal")
        if size == 0:
            self.path.unlink(missing_ok=True)
            kept = "nothing to keep"
        else:
            aside = free_name(self.path, "damaged", when)
            self.path.rename(aside)
            if wal.exists():
                wal.rename(aside.with_name(aside.name + "-wal"))
            kept = f"kept as {aside.name}"
        wal.unlink(missing_ok=True)
        self.path.with_name(self.path.name + "-shm").unlink(missing_ok=True)
        self.ack_path.unlink(missing_ok=True)
        if self._begun is not None:  # mid-game: the new file starts with the game so far
            self.game_id, self.n = None, 0
            finish = [op for op in self._queue if op[0] == "finish"]
            self._queue = [_op("begin", *self._begun), _op("step", *self._last, []), *finish]
        self._tell(
            FILE_DAMAGED,
            f"journal {self.path} is damaged ({why}): {kept}, starting a new one",
        )

    def _wal_bytes(self) -> bytes | None:
        """The WAL as it stands before SQLite recovers it, to keep if it is rolled back."""
        wal = self.path.with_name(self.path.name + "-wal")
        try:
            if self.ack_path.exists() and 0 < wal.stat().st_size <= WAL_KEPT:
                return wal.read_bytes()
        except OSError:
            pass
        return None

    def _check_ack(self, wal: bytes | None) -> None:
        """Say so, once, if the journal ends before the last step the box acknowledged."""
        assert self.db is not None
        try:
            game_id, n = map(int, self.ack_path.read_text().split())
        except (OSError, ValueError):
            return
        try:
            kept = self.db.execute(
                "SELECT MAX(n) FROM steps WHERE game_id = ?", (game_id,)
            ).fetchone()
        except sqlite3.Error:
            return  # unfinished() meets the same trouble and handles it
        if kept[0] is not None and kept[0] >= n:
            return
        where = "none of that game" if kept[0] is None else f"step {kept[0]}"
        aside = ""
        if wal is not None:
            path = free_name(self.path.with_name(self.path.name + "-wal"), "damaged", time.time())
            try:
                path.write_bytes(wal)
                aside = f"; the WAL as found is kept as {path.name}"
            except OSError:
                pass
        self._tell(
            ROLLED_BACK,
            f"the journal lost steps in a crash: step {n} of game {game_id} was saved, "
            f"it now holds {where}{aside}",
        )
        self._acknowledge(game_id, kept[0] or 0)  # said once: the sidecar now agrees

    def _tell(self, screen: str, line: str, **args: Any) -> None:
        if not self._quiet:
            log.warning("%s", line)
        self.news.append(News(screen, line, args))

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
        self._begun = (game, json.dumps(settings, sort_keys=True))
        self._reveals = []
        self._queue.append(_op("begin", *self._begun))
        self.step(record)

    def step(self, record: dict[str, Any], shown: list[dict[str, Any]] | None = None) -> None:
        """A completed step (and the reveal it shows, if any); on disk when ``saving``."""
        if self.game_id is None and not any(op[0] == "begin" for op in self._queue):
            raise RuntimeError("no game begun in the journal")
        self._showing = bool(shown)
        reveals = [shown] if shown else []
        self._reveals.extend(reveals)
        self._last = (json.dumps(record, sort_keys=True), json.dumps(shown) if shown else None)
        if self._queue and self._queue[-1][0] == "step":  # unsaved: only the newest state
            reveals = self._queue[-1][3] + reveals  # matters, but every reveal is kept
            self._queue.pop()
        elif self._queue and self._queue[-1][0] == "shown":
            self._queue.pop()  # the step it updates is still queued: superseded
        self._queue.append(_op("step", *self._last, reveals))
        self._flush()

    def showing(self, screens: list[dict[str, Any]]) -> None:
        """The reveal screens still on show (none: the reveal is over)."""
        if not self._showing:
            return
        self._showing = bool(screens)
        shown = json.dumps(screens) if screens else None
        self._last = (self._last[0], shown)
        if self._queue and self._queue[-1][0] == "step":
            self._queue[-1] = (*self._queue[-1][:2], shown, self._queue[-1][3])
        else:
            self._queue.append(_op("shown", shown))
        self._flush()

    def finish(self) -> None:
        """The game is over and its last reveal seen: it is never resumed."""
        self._showing = False
        if self.game_id is not None or self._queue:
            self._queue.append(_op("finish", FINISHED))
            self._flush()

    def abandon(self) -> None:
        """The table gave the game up: it is never resumed (``finished = 3``), no step added."""
        self._showing = False
        if self.game_id is not None or self._queue:
            self._queue.append(_op("finish", ABANDONED))
            self._flush()

    def last_settings(self) -> dict[str, Any] | None:
        """The settings of the newest game, whatever became of it (the next setup's start),
        if they are settings setup can start from."""
        try:
            with self._reading() as db:
                if db is None:
                    return None
                row = db.execute(
                    "SELECT CAST(settings AS BLOB) FROM games ORDER BY id DESC LIMIT 1"
                ).fetchone()
                return None if row is None else check_settings(_decode(row[0]))
        except (sqlite3.Error, ValueError):
            return None

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
        begun = False
        try:
            with transaction(self.db):
                for op in self._queue:
                    game_id, n = self._write(self.db, op, game_id, n)
                    begun = begun or op[0] == "begin"
        except sqlite3.Error as exc:
            why = self._why(exc)
            if isinstance(exc, sqlite3.ProgrammingError) or _damaged(exc):
                self._close()  # reopened (and damage set aside) at the next attempt
            self._unsaved(why)
            return
        self.game_id, self.n = game_id, n
        self._queue = []
        self._acknowledge(game_id, n)
        if self.problem is not None:
            self._tell(SAVING_AGAIN, f"the journal {self.path} is written again")
            self.problem = None
            with contextlib.suppress(sqlite3.Error):
                self.db.execute(f"PRAGMA busy_timeout = {int(BUSY_WAIT * 1000)}")
        if begun:  # the games before it have ended: they keep their last steps only
            self.prune()

    @staticmethod
    def _write(
        db: sqlite3.Connection, op: tuple[Any, ...], game_id: int | None, n: int
    ) -> tuple[int | None, int]:
        """One queued write, inside the caller's transaction; the game and step after it."""
        if op[0] == "begin":
            db.execute(
                "UPDATE games SET finished = ?, why = 'a newer game was begun' WHERE finished = 0",
                (ABANDONED,),
            )
            cur = db.execute(
                "INSERT INTO games (game, settings, started) VALUES (?, ?, ?)",
                (op[1], op[2], time.time()),
            )
            return cur.lastrowid, 0
        if op[0] == "step":
            db.execute(
                "INSERT INTO steps (game_id, n, record, shown, checksum) VALUES (?, ?, ?, ?, ?)",
                (game_id, n + 1, op[1], op[2], checksum(op[1])),
            )
            db.executemany(
                "INSERT INTO reveals (game_id, n, screens) VALUES (?, ?, ?)",
                [(game_id, n + 1, json.dumps(screens)) for screens in op[3]],
            )
            # the game in progress keeps its newest steps only (its reveals all stay)
            db.execute(
                "DELETE FROM steps WHERE game_id = ? AND n <= ?", (game_id, n + 1 - KEEP_LIVE)
            )
            return game_id, n + 1
        if op[0] == "shown":
            db.execute(
                "UPDATE steps SET shown = ? WHERE game_id = ? AND n = ?", (op[1], game_id, n)
            )
        else:  # finish, or abandon
            db.execute("UPDATE games SET finished = ? WHERE id = ?", (op[1], game_id))
        return game_id, n

    def prune(self) -> None:
        """Ended games keep their row and their last steps (best effort: tried again later)."""
        if self.db is None:
            return
        try:
            prune_ended(self.db, KEEP_GAMES, KEEP_STEPS, whole=1)
        except sqlite3.Error as exc:
            log.warning("cannot prune the journal %s: %s", self.path, exc)

    def _acknowledge(self, game_id: int | None, n: int) -> None:
        """The step now on disk, in the sidecar (best effort: it only ever lags)."""
        try:
            fd = os.open(self.ack_path, os.O_WRONLY | os.O_CREAT, 0o600)
            try:
                os.pwrite(fd, f"{game_id or 0:>20} {n:>20}\n".encode(), 0)
            finally:
                os.close(fd)
        except OSError:
            pass

    # -- reading -----------------------------------------------------------------------
    @contextlib.contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection | None]:
        """The open journal, or the file opened read-only when it cannot be written (locked,
        a read-only file or folder); None when it cannot be read either."""
        if self.db is not None:
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

    def unfinished(self) -> Saved | None:
        """The newest unfinished game at its newest healthy step, to resume it; None if none.
        A journal that cannot be written is read all the same: the game plays on unsaved."""
        try:
            with self._reading() as db:
                if db is None:
                    return None
                saved = self._unfinished(db, writable=db is self.db)
                if saved is not None and db is not self.db:  # "Not saving" is said already
                    log.info(
                        "resumed the saved %s game at step %d from %s, which cannot be "
                        "written: playing on unsaved",
                        saved.game.name,
                        saved.step,
                        self.path,
                    )
                return saved
        except sqlite3.Error as exc:
            if self.db is not None and _damaged(exc):
                self._close()
                self._set_aside_file(str(exc))
                self._connect(LOCK_WAIT)
            elif self.db is not None:
                self._unsaved(self._why(exc))
            return None

    def _unfinished(self, db: sqlite3.Connection, writable: bool) -> Saved | None:
        row = db.execute(
            "SELECT g.id, g.game, CAST(g.settings AS BLOB) FROM games g WHERE g.finished = 0 "
            "AND EXISTS (SELECT 1 FROM steps s WHERE s.game_id = g.id) ORDER BY g.id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        game_id, name, raw = row
        try:
            settings = check_settings(_decode(raw))
        except ValueError as exc:
            why = f"its settings: {exc}"
            self._set_game_aside(db if writable else None, game_id, name, why)
            self._tell(
                GAME_ASIDE,
                f"the saved {name} game could not be resumed ({why}): kept aside in "
                f"{self.path.name} as game {game_id}, setup starts from the defaults",
            )
            return None
        steps = db.execute(
            "SELECT n, CAST(record AS BLOB), checksum, CAST(shown AS BLOB), bad "
            "FROM steps WHERE game_id = ? ORDER BY n DESC",
            (game_id,),
        ).fetchall()
        last = steps[0][0]
        bad: list[tuple[int, str]] = []
        for n, record, kept, shown, marked in steps:
            if marked is not None:
                continue  # set aside at an earlier start, said then
            try:
                text = record.decode("utf-8") if record is not None else ""
                game = trusted_game(text, kept, settings)
                saved = Saved(settings, game, _shown(shown), n)
            except (Untrusted, ValueError, UnicodeDecodeError) as exc:
                bad.append((n, str(exc) or type(exc).__name__))
                continue
            self._mark_bad(db if writable else None, game_id, bad)
            self.game_id, self.n = game_id, last
            self._begun = (name, json.dumps(settings, sort_keys=True))
            self._last = (json.dumps(game.to_record(), sort_keys=True), None)
            self._reveals = _reveals(
                db.execute(
                    "SELECT CAST(screens AS BLOB) FROM reveals WHERE game_id = ? AND n <= ? "
                    "ORDER BY n, rowid",
                    (game_id, n),
                )
            )
            if bad:
                first = bad[-1][0]
                self._tell(
                    STEP_SKIPPED,
                    f"the saved {name} game (game {game_id}) could not be resumed at step "
                    f"{bad[0][0]} ({bad[0][1]}): steps {first} to {last} set aside, "
                    f"resumed at step {n}",
                    bad=bad[0][0],
                    step=n,
                )
                saved.shown = None
            return saved
        why = bad[0][1] if bad else "every step was set aside before"
        self._set_game_aside(db if writable else None, game_id, name, f"step {last}: {why}")
        self._tell(
            GAME_ASIDE,
            f"the saved {name} game could not be resumed (step {last}: {why}): kept aside in "
            f"{self.path.name} as game {game_id}, starting clean",
        )
        return None

    def _mark_bad(
        self, db: sqlite3.Connection | None, game_id: int, bad: list[tuple[int, str]]
    ) -> None:
        """Steps that failed their checks keep their reason in the journal (when writable)."""
        if db is None or not bad:
            return
        try:
            with transaction(db):
                db.executemany(
                    "UPDATE steps SET bad = ? WHERE game_id = ? AND n = ?",
                    [(why[:500], game_id, n) for n, why in bad],
                )
        except sqlite3.Error as exc:
            log.warning("cannot mark the bad steps of game %d: %s", game_id, exc)

    def _set_game_aside(
        self, db: sqlite3.Connection | None, game_id: int, name: str, why: str
    ) -> None:
        if db is None:
            return  # read-only: found and said again at the next start
        try:
            with transaction(db):
                db.execute(
                    "UPDATE games SET finished = ?, why = ? WHERE id = ?",
                    (SET_ASIDE, why[:500], game_id),
                )
        except sqlite3.Error as exc:
            log.warning("cannot mark game %d as set aside: %s", game_id, exc)

    def _close(self) -> None:
        if self.db is not None:
            with contextlib.suppress(sqlite3.Error):
                self.db.close()
            self.db = None

    def close(self) -> None:
        self._close()


def _reveals(rows: Iterable[tuple[bytes]]) -> list[list[dict[str, Any]]]:
    """The readable reveals among ``reveals`` rows, in order; an unreadable one is left out."""
    out: list[list[dict[str, Any]]] = []
    for (raw,) in rows:
        try:
            screens = _shown(raw)
        except ValueError:
            continue
        if screens:
            out.append(screens)
    return out
