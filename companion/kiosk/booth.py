"""The convention kiosk: a box that runs a booth all day with nobody at a keyboard.

A room of its own around a ``Table``: it owns the screen while nobody plays
(the attract loop, the join and learn menus, the staff menu) and hands the
buttons to a real table while strangers play, watching for the table left
alone. It talks to tables only through what any player uses: ``start``,
``handle``, ``step``, ``abandon`` and what the screen shows.

- Attract: a title, an invitation, then bots play a real game of one of the
  chosen games through the same table loop and screens as real play. Those
  games are never journalled for resuming and are counted apart.
- Any press joins: the first one stops the attract loop and does nothing else.
- A real game left alone for the idle time gets a warning with a countdown; a
  press carries on (and does nothing else); otherwise the game is abandoned.
- Staff open their menu with the chord of ``companion.kiosk.chord``.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.box import Box
from companion.box.inputs import Press
from companion.box.pinout import BUTTONS
from companion.games import GAMES, game_class
from companion.kiosk import learn
from companion.kiosk.attract import AttractGame
from companion.kiosk.chord import StaffChord
from companion.kiosk.daystats import Ledger
from companion.store import Journal
from companion.table import Settings, Table
from companion.table.cursor import cursor_line, cursor_step
from companion.table.modes import Notice
from companion.table.resume import handle_watched
from companion.ui.canvas import Screen, render, wrap
from companion.ui.i18n import LANGUAGES, translator

log = logging.getLogger("companion.kiosk")

TITLE = 4.0  # seconds of the title screen between attract games
INVITE = 3.0  # seconds of "press any button"
FINAL = 6.0  # seconds an attract game's result stays
WARNING = 30.0  # seconds of countdown before a game left alone is abandoned
MENU_IDLE = 60.0  # seconds a menu waits before the attract loop comes back
IDLE_CHOICES = (120, 180, 300, 600, 900)  # the staff's choices of idle time, in seconds
DEFAULT_IDLE = 300
GAME_NAMES = tuple(sorted(name for name, record in GAMES.items() if record.booth))
#: the options of an attract game: those its record's bots play a whole game alone with
ATTRACT_OPTIONS = {name: dict(record.bot_options) for name, record in GAMES.items()}
FLUSH = 60.0  # seconds between writes of the day's press count


# -- what the kiosk is doing: one small class a mode --------------------------------------
@dataclass
class Title:
    until: float
    invite: bool = False


@dataclass
class Attract:
    run: AttractGame
    watch: bool = False  # chosen from the join menu: no titles, any press returns
    over_since: float | None = None


@dataclass
class Join:
    row: int = 0


@dataclass
class Learn:
    game: int = 0
    page: int | None = None  # None: choosing the game


@dataclass
class Playing:
    row: int | None = None  # the day-statistics row, once the game started
    presses: int = 0
    warn_until: float | None = None


@dataclass
class Staff:
    row: int = 0
    stats_page: int | None = None
    confirm: str | None = None
    back_to: Any = None  # a real game in progress comes back when staff leave


@dataclass
class StaffCode:
    """The chord was held: the screen asks for the code (a stranger sees only this)."""

    back_to: Any = field(default=None)


@dataclass
class Told:
    """The journal had something to say (found at start, or met since): shown until a press
    or ``until``, then the kiosk goes on where it was."""

    pages: tuple[Screen, ...]
    until: float
    back_to: Any = None


TOLD = 15.0  # seconds a journal notice stays on the kiosk's screen
JOIN_ROWS = ("Play a game", "Watch", "Learn")


class Kiosk:
    """The booth: attract, join, learn, play, staff, on one box and one clock."""

    def __init__(
        self,
        box: Box,
        journal: Journal | None = None,
        seed: int | None = None,
        safe: bool = False,
        poweroff: Callable[[], None] = lambda: None,
        restart: Callable[[], None] = lambda: None,
        ledger: Ledger | None = None,
    ) -> None:
        self.box = box
        self.journal = journal
        self.seed = seed
        self.safe = safe
        self.poweroff = poweroff
        self.restart = restart
        self.ledger = ledger or Ledger(
            source=None if journal is None else (lambda: journal.db)  # reopened after trouble
        )
        open_row = self.ledger.reopen()
        self.rng = random.Random(seed)
        self.chord = StaffChord()
        self.games: list[str] = list(self.ledger.setting("games", list(GAME_NAMES)))
        self.idle = float(self.ledger.setting("idle", DEFAULT_IDLE))
        self.lang: str = self.ledger.setting("lang", "en")
        self.t = translator(self.lang)
        self.attract_no = 0
        self.day_presses = 0
        self.flushed_at = box.clock.now()
        self.last_press = box.clock.now()
        self.table: Table | None = None
        #: buttons whose press the table was given: only their hold and release follow it
        self.table_down: set[str] = set()
        self.mode: Any = Title(box.clock.now() + TITLE)
        if not safe and journal is not None:
            self._resume_real_game(open_row)
        elif open_row is not None:
            self.ledger.end(open_row, "abandoned", None, 0)

    # -- entering modes -------------------------------------------------------------------
    def _now(self) -> float:
        return self.box.clock.now()

    def _title(self) -> None:
        self.table = None
        self.mode = Title(self._now() + TITLE)
        log.info("kiosk: attract")

    def _attract(self, watch: bool = False) -> None:
        games = self.games or list(GAME_NAMES)
        name = games[self.attract_no % len(games)]
        self.attract_no += 1
        cls = game_class(name)
        players = self.rng.randint(cls.min_players, cls.max_players)
        seed = None if self.seed is None else self.seed * 1009 + self.attract_no
        table = Table(self.box, seed=seed, lang=self.lang, journal=None)
        self.table = table
        settings = Settings(name, players, self.lang, dict(ATTRACT_OPTIONS.get(name, {})))
        self.mode = Attract(AttractGame(table, settings, self.rng, self._now()), watch)

    def _play(self) -> None:
        """A real game: the table's own setup, from the last settings."""
        self.table = Table(self.box, seed=self.seed, lang=self.lang, journal=self.journal)
        self.table_down.clear()
        self.mode = Playing()
        log.info("kiosk: a stranger sets up a game")

    def _resume_real_game(self, row: int | None) -> None:
        """Back from a pulled plug: the real game in progress, if there was one."""
        table = Table(self.box, seed=self.seed, lang=self.lang, journal=self.journal)
        if table.resume():
            self.table = table
            self.mode = Playing(row=row if row is not None else self._begin_row(table))
            log.info("kiosk: resumed the game in progress")
            return  # the table shows what the journal said, over the game
        if row is not None:
            self.ledger.end(row, "abandoned", None, 0)
        if isinstance(table.mode, Notice):  # what the journal found at start, no game to show
            self.mode = Told(tuple(table.mode.pages), self._now() + TOLD, back_to=self.mode)

    def _begin_row(self, table: Table) -> int:
        game = table.game
        assert game is not None
        return self.ledger.begin(game.name, game.players, "real")

    def _end_game(self, status: str) -> None:
        """The real game ended (finished or abandoned): its summary, then attract."""
        mode = self.mode
        table = self.table
        if isinstance(mode, Playing) and mode.row is not None and table is not None:
            game = table.game
            outcome = None
            if status == "finished" and game is not None and game.over:
                outcome = str(game.public_view()["result"]["outcome"])
            self.ledger.end(mode.row, status, outcome, mode.presses)
            log.info("kiosk: game %s", status)
        if status == "abandoned" and table is not None and table.game is not None:
            table.abandon()
        elif table is not None and table.journal is not None and table.game is not None:
            table.journal.finish()  # over, its last reveal perhaps never dismissed: not resumed
        self.ledger.prune_journal()
        self._flush_presses()
        self._title()

    # -- presses --------------------------------------------------------------------------
    def step(self) -> None:
        """Take the presses, run the timers, draw: the kiosk's one loop step."""
        now = self._now()
        for press in self.listen(now):
            self._handle(press)
        self._tick(now)
        self._draw()
        if now - self.flushed_at >= FLUSH:
            self._flush_presses()

    def listen(self, now: float) -> list[Press]:
        """The waiting presses, less those the staff chord and its code take."""
        inputs = self.box.inputs
        self.chord.levels([b for b in BUTTONS if inputs.is_down(b)], now)
        if self.chord.armed and not isinstance(self.mode, (StaffCode, Staff)):
            self.mode = StaffCode(back_to=self.mode)
        elif isinstance(self.mode, StaffCode) and not self.chord.armed:
            self.mode = self.mode.back_to  # the code was not entered in time
        presses = []
        while (press := inputs.take()) is not None:
            if self._chord_back(press):
                continue
            if press.kind == "press":
                self.last_press = press.t
                self.day_presses += 1
                if isinstance(self.mode, StaffCode):
                    if self.chord.press(press.button):
                        back = self.mode.back_to
                        self.mode = Staff(back_to=back if isinstance(back, Playing) else None)
                        log.info("kiosk: staff menu")
                    elif not self.chord.armed:
                        self.mode = self.mode.back_to
                    continue
            presses.append(press)
        return presses

    def _chord_back(self, press: Press) -> bool:
        """Back held with PEEK is the staff chord, not the abandon gesture: its hold (and so
        its release) never reaches the table, which would ask "Abandon this game?" under the
        staff menu and show it to the players when staff leave."""
        chording = self.chord.held_since is not None or self.box.inputs.is_down("peek")
        if press.button == "back" and press.kind == "hold" and chording:
            self.table_down.discard("back")
            return True
        return False

    def _handle(self, press: Press) -> None:
        mode = self.mode
        if isinstance(mode, Told):
            if press.kind == "press":  # the next page, or back: the press does nothing else
                self.box.outputs.feedback()
                self.mode = (
                    Told(mode.pages[1:], mode.until, mode.back_to)
                    if mode.pages[1:]
                    else (mode.back_to)
                )
            return
        if self.safe and not isinstance(mode, Staff):
            return  # safe mode: attract only, until staff say otherwise
        if isinstance(mode, Playing):
            self._playing_press(mode, press)
            return
        if press.kind != "press":
            return
        self.box.outputs.feedback()
        button = press.button
        match mode:
            case Title() | Attract(watch=False):
                self.mode = Join()  # the first press joins and does nothing else
            case Attract(watch=True):
                self.mode = Join()
            case Join():
                self._join_press(mode, button)
            case Learn():
                self._learn_press(mode, button)
            case Staff():
                self._staff_press(mode, button)

    def _playing_press(self, mode: Playing, press: Press) -> None:
        table = self.table
        assert table is not None
        if mode.warn_until is not None:
            if press.kind == "press":
                mode.warn_until = None  # carry on: the press does nothing else
                self.box.outputs.feedback()
            return
        if press.kind == "press":
            mode.presses += 1
            self.table_down.add(press.button)
        elif press.button not in self.table_down:
            return  # its press went to the kiosk (a menu, the chord): so do its hold and release
        elif press.kind == "release":
            self.table_down.discard(press.button)
        before = table.game
        handle_watched(table, press)  # a press after a resume proves it, or sets it aside
        if before is None and table.game is not None and mode.row is None:
            mode.row = self._begin_row(table)
            log.info("kiosk: a real game of %s", table.game.name)
        elif before is not None and table.game is None:
            # The table went back to its setup: after the last screen, or abandoned.
            self._end_game("finished" if before.over else "abandoned")

    def _join_press(self, mode: Join, button: str) -> None:
        if button in ("up", "down"):
            mode.row = cursor_step(mode.row, len(JOIN_ROWS), button)
        elif button == "back":
            self._title()
        elif button == "ok":
            if mode.row == 0:
                self._play()
            elif mode.row == 1:
                self._attract(watch=True)
            else:
                self.mode = Learn()

    def _learn_press(self, mode: Learn, button: str) -> None:
        if mode.page is None:
            if button in ("up", "down"):
                mode.game = cursor_step(mode.game, len(GAME_NAMES), button)
            elif button == "ok":
                mode.page = 0
            elif button == "back":
                self.mode = Join(row=2)
            return
        count = len(learn.pages_of(GAME_NAMES[mode.game]))
        if button in ("down", "ok"):
            if mode.page + 1 < count:
                mode.page += 1
            elif button == "ok":
                self.mode = Join(row=2)
        elif button in ("up", "back"):
            if mode.page > 0:
                mode.page -= 1
            else:
                mode.page = None

    # -- the staff menu -------------------------------------------------------------------
    def staff_rows(self) -> list[tuple[str, str]]:
        """The staff menu's rows: (key, label), in the cursor's order."""
        t = self.t
        rows = [
            (f"game:{name}", f"{'[x]' if name in self.games else '[ ]'} {name.title()}")
            for name in GAME_NAMES
        ]
        rows += [
            ("idle", t("Idle: {m} min").format(m=int(self.idle // 60))),
            ("lang", t("Language: {lang}").format(lang=self.lang)),
            ("stats", t("Day statistics")),
            ("restart", t("Restart")),
            ("poweroff", t("Shut down")),
            ("leave", t("Leave")),
        ]
        return rows

    def _staff_ok(self, key: str) -> str:
        """What OK does on the staff menu's row ``key``, said above it."""
        t = self.t
        match key.partition(":")[0]:
            case "game":
                return t("OK: in attract or not")
            case "idle":
                return t("OK: next idle time")
            case "lang":
                return t("OK: other language")
            case "stats":
                return t("OK: today's numbers")
            case "restart" | "poweroff":
                return t("OK asks first")
        return t("OK: leave the menu")

    def _staff_press(self, mode: Staff, button: str) -> None:
        if mode.stats_page is not None:
            self._stats_press(mode, button)
        elif mode.confirm is not None:
            if button == "ok":
                log.info("kiosk: staff chose %s", mode.confirm)
                self._flush_presses()
                (self.poweroff if mode.confirm == "poweroff" else self.restart)()
            mode.confirm = None
        elif button in ("up", "down"):
            mode.row = cursor_step(mode.row, len(self.staff_rows()), button)
        elif button == "back":
            self._leave_staff(mode)
        elif button == "ok":
            self._staff_choose(mode, self.staff_rows()[mode.row][0])

    def _stats_press(self, mode: Staff, button: str) -> None:
        assert mode.stats_page is not None
        if button in ("up", "down"):
            step = 1 if button == "down" else -1
            mode.stats_page = (mode.stats_page + step) % len(self._stats_screens())
        elif button in ("ok", "back"):
            mode.stats_page = None

    def _staff_choose(self, mode: Staff, key: str) -> None:
        """OK on the staff menu's row ``key``."""
        if key.startswith("game:"):
            name = key.removeprefix("game:")
            chosen = set(self.games) ^ {name}
            if chosen:  # at least one game stays in the loop
                self.games = [g for g in GAME_NAMES if g in chosen]
                self.ledger.set_setting("games", self.games)
        elif key == "idle":
            index = IDLE_CHOICES.index(int(self.idle)) if self.idle in IDLE_CHOICES else -1
            self.idle = float(IDLE_CHOICES[(index + 1) % len(IDLE_CHOICES)])
            self.ledger.set_setting("idle", self.idle)
        elif key == "lang":
            self.lang = LANGUAGES[(LANGUAGES.index(self.lang) + 1) % len(LANGUAGES)]
            self.t = translator(self.lang)
            self.ledger.set_setting("lang", self.lang)
        elif key == "stats":
            self._flush_presses()
            mode.stats_page = 0
        elif key in ("restart", "poweroff"):
            mode.confirm = key
        else:
            self._leave_staff(mode)

    def _leave_staff(self, mode: Staff) -> None:
        if mode.back_to is not None:
            self.mode = mode.back_to
            self.last_press = self._now()  # the players get their full idle time again
        else:
            self._title()

    def _stats_screens(self) -> list[Screen]:
        t = self.t
        s = self.ledger.stats()
        screens = [
            Screen(
                t("Today"),
                (
                    t("Started {n}, finished {f}").format(n=s.started, f=s.finished),
                    t("Abandoned {n}").format(n=s.abandoned),
                    t("Presses {n}, demos {d}").format(n=s.presses, d=s.attract),
                ),
                t("▲▼ page  OK  Back"),
            )
        ]
        for game, outcomes in s.outcomes.items():
            lines = tuple(f"{outcome}: {n}" for outcome, n in outcomes.items())
            screens.append(Screen(game.title(), lines, t("▲▼ page  OK  Back")))
        return screens

    # -- timers ---------------------------------------------------------------------------
    def _tick(self, now: float) -> None:
        mode = self.mode
        match mode:
            case Title(until=until, invite=invite) if now >= until:
                if invite or self.safe:
                    self._attract()
                else:
                    self.mode = Title(now + INVITE, invite=True)
            case Attract(run=run):
                run.tick(now)
                if run.over:
                    if mode.over_since is None:
                        mode.over_since = now
                    elif now - mode.over_since >= FINAL:
                        self._attract_done(mode)
            case Staff() if now - self.last_press >= MENU_IDLE:
                self._leave_staff(mode)
            case Join() | Learn() if now - self.last_press >= MENU_IDLE:
                self._title()
            case Playing():
                self._playing_tick(mode, now)
            case Told(until=until, back_to=back) if now >= until:
                self.mode = back
            case Title() | Attract() | Join() | Learn() if self.ledger.news:
                t = self.t
                self.ledger.news.clear()  # said once; the log has it too
                text = t("Statistics not saved: kept in memory until the journal can be written.")
                page = Screen(t("Journal"), tuple(wrap(text)), t("OK"))
                self.mode = Told((page,), now + TOLD, back_to=mode)

    def _attract_done(self, mode: Attract) -> None:
        game = mode.run.table.game
        if game is not None:
            row = self.ledger.begin(game.name, game.players, "attract")
            self.ledger.end(row, "finished", str(game.public_view()["result"]["outcome"]), 0)
        if mode.watch:
            self._attract(watch=True)
        else:
            self._title()

    def _playing_tick(self, mode: Playing, now: float) -> None:
        table = self.table
        assert table is not None
        if mode.warn_until is not None:
            if now >= mode.warn_until:
                log.info("kiosk: nobody answered the warning")
                self._end_game("abandoned")
            return
        if now - self.last_press < self.idle:
            return
        game = table.game
        if game is None or game.over:
            # Nobody set up a game, or the last one is over: back to attract quietly.
            self._end_game("finished" if game is not None else "abandoned")
        else:
            mode.warn_until = now + WARNING
            log.info("kiosk: game left alone, warning")

    # -- drawing --------------------------------------------------------------------------
    def _draw(self) -> None:
        mode = self.mode
        out = self.box.outputs
        if isinstance(mode, Attract) or (isinstance(mode, Playing) and mode.warn_until is None):
            assert self.table is not None
            self.table.step()
            return
        out.show(render(self.screen()))
        out.set_bar(0)
        out.set_led("status_b", 0.3 if isinstance(mode, Playing) else 0.0)
        out.tick()

    def screen(self) -> Screen:
        """What the kiosk shows when it, not a table, holds the screen."""
        t = self.t
        mode = self.mode
        match mode:
            case Title(invite=False):
                return Screen("Companion", (t("Soviet table games"), t("with a ballot box")), "")
            case Title(invite=True):
                return Screen("Companion", (t("Press any button"), t("to play.")), "")
            case Join(row=row):
                lines = (t("Play, watch or learn?"), cursor_line(t(JOIN_ROWS[row])))
                return Screen(t("Welcome"), lines, t("▲▼ choose  OK  Back"))
            case Learn(game=game, page=None):
                name = GAME_NAMES[game]
                return Screen(
                    t("Learn"),
                    (t("Which game?"), cursor_line(name.title())),
                    t("▲▼ choose  OK  Back"),
                )
            case Learn(game=game, page=int(page)):
                return learn.pages(GAME_NAMES[game], t)[page]
            case Playing(warn_until=until) if until is not None:
                left = max(0, int(until - self._now() + 0.999))
                return Screen(
                    t("Still playing?"),
                    (t("Press any button"), t("to carry on.")),
                    t("Ends in {s} s").format(s=left),
                )
            case Told(pages=pages):
                return pages[0]
            case StaffCode():
                return Screen(t("Staff"), (t("Code?"),), "")
            case Staff(stats_page=page) if page is not None:
                screens = self._stats_screens()
                return screens[page % len(screens)]
            case Staff(confirm=confirm) if confirm is not None:
                what = t("Restart?") if confirm == "restart" else t("Shut down?")
                return Screen(t("Staff"), (what,), t("OK: yes  Back: no"))
            case Staff(row=row):
                rows = self.staff_rows()
                key, label = rows[row]
                status = t("Staff {i} of {n}").format(i=row + 1, n=len(rows))
                lines = (self._staff_ok(key), cursor_line(label))
                return Screen(status, lines, t("▲▼  OK  Back: leave"))
        return Screen("Companion", (), "")

    # -- bookkeeping ----------------------------------------------------------------------
    def _flush_presses(self) -> None:
        if self.day_presses:
            self.ledger.add_presses(self.day_presses)
            self.day_presses = 0
        else:
            self.ledger.flush()  # what waits for a writable journal
        self.flushed_at = self._now()

    def close(self) -> None:
        self._flush_presses()
