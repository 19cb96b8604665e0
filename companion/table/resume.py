"""Whether a saved game can be resumed, and at which step: the journal stores, this judges.

The journal hands back the game in progress as it was written; here each kept step,
newest first, goes through ``companion.trust`` (checksum, shape, rules, screens, dry
run) and the first that passes is resumed. What fails is set aside in the journal
with its reason and said once.

No crash loop, whatever a saved state holds:

- each start marks the step it resumes, after the first frame and before the first
  press (``Watch``); its first quiet moment (a press handled and the loop idle, the box
  running ``QUIET`` seconds on the resumed screen, or the next step saved) clears the
  marks: a table whose power goes twice while the box waits at a hand-over loses
  nothing, and an exception in a later press is the catch's below. A start that finds a
  mark left, so a start that stopped the box, sets that step aside and tries the older
  ones; after ``STARTS`` such starts the whole game is set aside and the box opens on
  setup;
- an exception raised by the rules or the screens after a resume, until the next step
  is saved, is caught at the table's top: that step is set aside, said, and the game
  resumed from the one before (or set aside whole). Under ``COMPANION_STRICT=1`` (the
  test suite sets it) the exception goes through instead, so a swallowed one never
  turns a test green.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING, Any, Protocol

from companion.games import Game, game_class
from companion.table.modes import Setup
from companion.table.setup import SetupForm
from companion.valueclass import valueclass

if TYPE_CHECKING:  # the journal and the checks load with a journal: a table runs without
    from companion.store import Journal, SavedStep, Unfinished
    from companion.table.answers import Answerer
    from companion.table.modes import Mode
    from companion.table.setup import Settings
    from companion.ui.canvas import Screen

log = logging.getLogger("companion.table")

STARTS = 2  # starts that may stop the box on one game before it is set aside whole
QUIET = 20.0  # seconds of the box running on a resumed step that prove its start
STRICT = "COMPANION_STRICT"  # set to 1: an exception after a resume is never caught


def strict() -> bool:
    """Whether an exception after a resume must go through (the test suite)."""
    return os.environ.get(STRICT) == "1"


@valueclass
class Resumed:
    """The game in progress, checked and ready to play on."""

    settings: dict[str, Any]
    game: Game
    shown: list[dict[str, Any]] | None  # the reveal's screens still on show at the power cut
    step: int  # the step resumed


def last_settings(journal: Journal) -> dict[str, Any] | None:
    """The newest game's settings (the next setup's start), if setup can start from them."""
    from companion.trust import check_settings

    try:
        return check_settings(journal.last_settings())
    except ValueError:
        return None


def resume(journal: Journal, stopped: tuple[int, str] | None = None) -> Resumed | None:
    """The journal's unfinished game at its newest step that passes every check; None if
    there is none (a game that cannot be resumed is set aside, and that is said).
    ``stopped``: a step that just failed in play, and why."""
    from companion.trust import Untrusted, check_settings, trusted_game

    _set_odd_games_aside(journal)
    found = journal.unfinished()
    if found is None:
        return None
    where = f"the saved {found.name} game ({_which(journal, found)})"
    try:
        settings = check_settings(_decode(found.settings))
    except ValueError as exc:
        return _aside(journal, found, f"its settings: {exc}", "setup starts from the defaults")
    if stopped is None and found.failed_starts:
        if len(found.failed_starts) >= STARTS:
            why = f"the box stopped at each of its last {len(found.failed_starts)} starts"
            return _aside(journal, found, why, "setup starts", screen=_store().GAME_STOPPED)
        stopped = (found.failed_starts[-1], "the box stopped after resuming it")
    bad: list[tuple[int, str]] = []
    newer = None
    for step in found.steps:
        if step.bad is not None:
            continue  # set aside at an earlier start, said then
        if stopped is not None and step.n == stopped[0]:
            bad.append(stopped)
            continue
        try:
            newer = newer or _newer_format(step, settings["game"])
            game = trusted_game(step.text(), step.checksum, settings)
            shown = _screens(step)
        except (Untrusted, ValueError) as exc:
            bad.append((step.n, str(exc) or type(exc).__name__))
            continue
        journal.set_steps_aside(found.game_id, bad)
        journal.resume_at(found, step)
        if bad:
            _say_skipped(journal, where, found, bad, step.n, stopped, newer)
            shown = None
        return Resumed(settings, game, shown, step.n)
    last = found.steps[0].n if found.steps else 0
    why = bad[0][1] if bad else "every step was set aside before"
    screen = _store().NEWER_GAME if newer else None
    return _aside(journal, found, f"step {last}: {why}", "starting clean", screen=screen)


def _say_skipped(
    journal: Journal,
    where: str,
    found: Unfinished,
    bad: list[tuple[int, str]],
    step: int,
    stopped: tuple[int, str] | None,
    newer: str | None,
) -> None:
    store = _store()
    first, last = bad[-1][0], found.steps[0].n
    screen = (
        store.STEP_STOPPED
        if stopped is not None and bad[0] == stopped
        else store.NEWER_STEP
        if newer
        else store.STEP_SKIPPED
    )
    journal.say(
        store.News(
            screen,
            f"{where} could not be resumed at step {bad[0][0]} ({bad[0][1]}): steps {first} "
            f"to {last} set aside, resumed at step {step}",
            {"bad": bad[0][0], "step": step},
        )
    )


def _aside(
    journal: Journal, found: Unfinished, why: str, then: str, screen: str | None = None
) -> Resumed | None:
    """Set the whole game aside, and say so."""
    store = _store()
    journal.set_game_aside(found.game_id, why)
    kept = (
        "it stays in the damaged journal kept aside"
        if found.game_id is None
        else f"kept aside in {journal.path.name} as game {found.game_id}"
    )
    journal.say(
        store.News(
            screen or store.GAME_ASIDE,
            f"the saved {found.name} game could not be resumed ({why}): {kept}, {then}",
        )
    )
    return None


def _set_odd_games_aside(journal: Journal) -> None:
    """A game whose ``finished`` this version does not know is set aside, with its reason."""
    for odd in journal.odd_games():
        why = f"its state is unknown to this version (finished = {odd.finished!r})"
        journal.set_game_aside(odd.game_id, why)
        journal.say(
            _store().News(
                _store().GAME_ASIDE,
                f"the saved {odd.name} game (game {odd.game_id}) is set aside: {why}",
            )
        )


def _which(journal: Journal, found: Unfinished) -> str:
    return "read from the damaged file" if found.game_id is None else f"game {found.game_id}"


def _decode(raw: bytes | None) -> Any:
    import json  # once a journal or a names file is read: not before the first frame

    if raw is None:
        raise ValueError("missing")
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not JSON: {exc}") from None


def _screens(step: SavedStep) -> list[dict[str, Any]] | None:
    shown = None if step.shown is None else _decode(step.shown)
    if shown is not None and (
        not isinstance(shown, list) or not all(isinstance(s, dict) for s in shown)
    ):
        raise ValueError("the reveal on show is not a list of screens")
    return shown or None


def _newer_format(step: SavedStep, name: str) -> str | None:
    """Why the step is from a newer version of the game's record, if it is."""
    import json  # once a journal or a names file is read: not before the first frame

    try:
        version = json.loads(step.text()).get("format")
    except (ValueError, AttributeError):
        return None
    current = game_class(name).FORMAT
    if type(version) is int and version > current:
        return f"format {version}, this version reads {current}"
    return None


def _store() -> Any:
    """The journal's package, for its lines and ``News`` (loaded with a journal)."""
    import companion.store

    return companion.store


class Watched(Protocol):
    """The table, through the public port the watch sets a failed step aside with."""

    answerers: list[Answerer]
    notices: list[Screen]
    game: Game | None
    last_settings: Settings

    @property
    def journal(self) -> Journal | None: ...

    def release(self) -> None: ...

    def enter(self, mode: Mode) -> None: ...

    def resume(self, stopped: tuple[int, str] | None = None) -> bool: ...

    def refresh(self) -> None: ...


class Pressed(Watched, Protocol):
    """A table whose presses come from outside its own loop (the kiosk's)."""

    record: Any  # the journal's pen: it holds the resume's ``watch``

    def handle(self, press: Any) -> None: ...


def handle_watched(table: Pressed, press: Any) -> None:
    """A press handled outside the table's own loop (the kiosk hands its presses on), under
    the resume's watch as the loop's own are: it proves the start, and an exception it raises
    after a resume sets the resumed step aside instead of stopping the booth."""
    watch = table.record.watch
    try:
        table.handle(press)
        watch.pressed = True
    except Exception as exc:
        watch.failed(table, exc)


class Watch:
    """A resumed game, from its first frame until it has proved itself: the start's mark,
    its first quiet moment, and the window in which an exception sets the step aside."""

    def __init__(self) -> None:
        self.step: int | None = None  # the step resumed, until the next step is saved
        self.unmarked = False  # resumed, its first frame not drawn yet
        self.marked = False  # the start's mark is written, no quiet moment yet
        self.pressed = False  # a press was handled in this turn of the loop
        self.marked_at = 0.0  # when the start's mark was written (the box's clock)

    def resumed(self, step: int) -> None:
        self.step, self.unmarked, self.marked = step, True, False

    def turned(self, journal: Journal | None, now: float) -> None:
        """A turn of the loop is over: after the first frame, the start marks its step; a
        press handled since (the loop idle again), or ``QUIET`` seconds of running, is its
        first quiet moment."""
        if self.unmarked:
            self.unmarked = False
            if journal is not None and self.step is not None:
                journal.mark_start(self.step)
                self.marked, self.marked_at = True, now
        elif self.pressed or (self.marked and now - self.marked_at >= QUIET):
            self.quiet(journal)
        self.pressed = False

    def quiet(self, journal: Journal | None) -> None:
        """This start did not stop the box: the marks of the starts before it go."""
        if self.marked and journal is not None:
            journal.quiet()
        self.marked = False

    def saved(self, journal: Journal | None) -> None:
        """The next step is saved: the resumed step has proved itself."""
        self.quiet(journal)
        self.step, self.unmarked = None, False

    def catches(self, exc: Exception) -> bool:
        """Whether ``exc`` sets the resumed step aside rather than stop the box."""
        return self.step is not None and not strict()

    def failed(self, table: Watched, exc: Exception) -> None:
        """An exception in a turn of the loop: after a resume, until the next step is saved,
        the step is set aside and the table goes on from the one before (or setup);
        otherwise, and always under ``COMPANION_STRICT=1``, it goes through."""
        step = self.step
        if step is None or not self.catches(exc):
            raise exc
        log.error("the game failed in play after its resume at step %d", step, exc_info=exc)
        self.saved(None)
        for answerer in table.answerers:  # the pads and phones stop asking
            answerer.done()
        table.notices = []
        table.game = None
        table.release()
        table.enter(Setup(SetupForm.starting_from(table.last_settings)))  # if nothing resumes
        table.resume((step, f"it stopped the box in play: {type(exc).__name__}: {exc}"))
        table.refresh()
