"""The monkey: random presses, holds, chords and bounces on the virtual box, each one followed
by the checks a table would make of it. One engine for the test suite (``tests/test_monkey.py``,
on a fixed CPU budget) and for the long run (``companion bench --monkey N``).

Tables: each game at its smallest and largest table, in English and French, played by random
bots (so the monkey meets every mode a game reaches), with the monkey's actions between their
moves, then the monkey alone from the game's last reveal to its end screens.

The kiosk, in each language: the attract loop, Join, Watch, Learn, real games set up and
played by bots, walked away from (the idle warning), the staff chord and its code and the
staff menu, pulled plugs, and from a real game's last reveal.

After every action:

- nothing raised;
- no seat's private card is on screen unless that seat holds the box and PEEK (looked for
  after every step of the clock, so in the middle of a hold or a chord too);
- the key hint on screen names only buttons the box has;
- the journal reads back: a game in progress resumes (the same game), none once it ended or
  was abandoned; after a pulled plug the kiosk comes back to the real game in progress.

A check that fails raises ``Fault``, which names the table and the action it came after.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from companion.bots import Bot, make_bots
from companion.box import Box, VirtualClock, open_box
from companion.box.pinout import Button
from companion.demo import GAP, TAP, Player, cursor_presses
from companion.games import FIRST, GAMES, game_class, game_record
from companion.kiosk.booth import (
    MENU_IDLE,
    WARNING,
    Attract,
    Join,
    Kiosk,
    Learn,
    Playing,
    Staff,
    Title,
)
from companion.kiosk.chord import CHORD, CHORD_HOLD, CODE
from companion.kiosk.day import Day
from companion.kiosk.daystats import SIM_DAY, Ledger
from companion.store import Journal
from companion.table import Settings, Table
from companion.table.modes import (
    Abandon,
    Announce,
    Choose,
    Claim,
    Confirm,
    Handoff,
    Notice,
    Over,
    Setup,
)
from companion.table.resume import resume
from companion.ui.canvas import Screen
from companion.ui.i18n import Translate

BUTTONS: tuple[Button, ...] = ("ok", "back", "up", "down", "choice_a", "choice_b", "peek")


def tables_of(name: str) -> tuple[Settings, Settings]:
    """Game ``name`` at its smallest table in English with each option's first value, and
    at its largest in French with each option's second (options without listed values
    keep their default)."""
    cls = game_class(name)
    listed = {key: o.values for key, o in cls.OPTIONS.items() if o.values}
    first = {key: str(values[0]) for key, values in listed.items()}
    second = {key: str(values[1 % len(values)]) for key, values in listed.items()}
    return (
        Settings(name, cls.min_players, "en", first),
        Settings(name, cls.max_players, "fr", second),
    )


#: every game of the registry at its smallest and largest table, each option, both languages
TABLES: tuple[Settings, ...] = tuple(s for name in GAMES for s in tables_of(name))
KIOSK_LANGS = ("en", "fr")
MENU_KEYS: tuple[Button, ...] = ("ok", "ok", "up", "down", "back")
#: the kiosk's real game played to its last reveal: the first game's smallest table (the
#: quickest), with the options its bots play alone with
KIOSK_FINAL = Settings(
    FIRST, game_class(FIRST).min_players, "en", dict(game_record(FIRST).bot_options)
)


class Fault(AssertionError):
    """A check the monkey made failed: what, and after which action of which run."""


class Finger(Protocol):
    """What presses the box's buttons and lets its clock run: a table's ``Player``, or a
    kiosk's ``Day``."""

    box: Box

    def press(self, button: Button, hold: float = TAP) -> None: ...

    def wait(self, seconds: float) -> None: ...


def act(finger: Finger, rng: random.Random) -> None:
    """One random action: a tap, a hold (Back: abandon; OK: a new game), a chord of two
    buttons, or a bouncing contact."""
    board = finger.box.virtual_board
    r = rng.random()
    if r < 0.5:
        finger.press(rng.choice(BUTTONS))
    elif r < 0.7:
        finger.press(rng.choice(BUTTONS), hold=rng.choice((1.6, 2.0)))
    elif r < 0.85:
        chord = rng.sample(BUTTONS, 2)
        for button in chord:
            board.drive(button, True)
            finger.wait(0.01)
        finger.wait(rng.choice((0.1, 2.0)))
        for button in chord:
            board.drive(button, False)
            finger.wait(0.01)
        finger.wait(GAP)
    else:
        button = rng.choice(BUTTONS)
        for i in range(rng.randint(2, 6)):
            board.drive(button, i % 2 == 0)
            finger.wait(0.003)
        board.drive(button, False)
        finger.wait(GAP)


def last_reveal_action(finger: Finger, rng: random.Random, n: int) -> None:
    """The ``n``-th action from a game's last reveal: first the table's own gesture there,
    Back held 2 s (the box once crashed on it), then the monkey's."""
    if n == 0:
        finger.press("back", hold=2.0)
    else:
        act(finger, rng)


def move_on(table: Table, player: Player, bots: list[Bot], rng: random.Random) -> None:
    """One step of a game played with random legal choices, through every kind of screen."""
    match table.mode:
        case Handoff() | Announce():
            player.press("ok")
        case Choose():
            player.press(rng.choice(("choice_a", "choice_b")))  # to the confirmation
        case Confirm():
            player.press("ok")
        case _:
            player.answer_as(bots)


def private_cards(table: Table) -> dict[int, Screen]:
    """Each seat's PEEK card, as the box would draw it."""
    game = table.game
    assert game is not None
    return {seat: table.ui.peek(game.view(seat), table.t) for seat in range(game.players)}


def check_cards(table: Table, shown: Screen, peeking: bool, where: str) -> None:
    """``shown`` is no seat's card, unless that seat holds the box and PEEK (``peeking``).
    A card every seat has alike ("Nothing to read") tells nobody anything."""
    if table.game is None:
        return
    cards = private_cards(table)
    own = cards.get(table.holder) if peeking and table.holder is not None else None
    for seat, card in cards.items():
        alike = all(other == card for other in cards.values())
        if shown == card and card != own and not alike:
            holder = "nobody" if table.holder is None else f"seat {table.holder + 1}"
            raise Fault(f"{where}: seat {seat + 1}'s card on screen, the box with {holder}")


#: how a key hint names each of the box's buttons (hardware/pinout.toml); Back is translated
HINT_NAMES: dict[Button, str] = {
    "up": "▲",
    "down": "▼",
    "ok": "OK",
    "back": "Back",
    "choice_a": "A",
    "choice_b": "B",
    "peek": "PEEK",
}
ARROWS = set("▲▼◄►◀▶←→")
#: buttons other devices have and the box has not, in either language
ELSEWHERE = {"Left", "Right", "Enter", "Select", "Menu", "Start", "Esc", "Space", "Home"}
ELSEWHERE |= {"Gauche", "Droite", "Entrée", "Échap", "Espace"}


def foreign_buttons(keys: str, t: Translate) -> list[str]:
    """The words of a key hint that name a button the box does not have: an arrow other than
    ▲ and ▼ (it has no Left or Right), another device's key, or a capitalised word past the
    first before a colon that is no button's name ("A: Work", "Seat 2: hold PEEK", "Back:
    leave"; not "OK  Select: next")."""
    names = {t(name) if button == "back" else name for button, name in HINT_NAMES.items()}
    names.add("▲▼")
    words = keys.split()
    foreign = []
    for i, word in enumerate(words):
        colon = word.endswith(":") or words[i + 1 : i + 2] == [":"]  # French: "OK : suite"
        word = word.rstrip(":,.;!?")
        named = colon and i > 0 and word[:1].isupper()
        if (ARROWS & set(word) or named or word in ELSEWHERE) and word not in names:
            foreign.append(word)
    return foreign


def check_hint(shown: Screen, t: Translate, where: str) -> None:
    if foreign := foreign_buttons(shown.keys, t):
        raise Fault(f"{where}: the hint {shown.keys!r} names {foreign}, not the box's buttons")


def check_journal(path: Path, table: Table | None, where: str) -> None:
    """The journal resumes the game in progress, and nothing once it ended or was abandoned."""
    journal = Journal(path)
    try:
        found = resume(journal)
    finally:
        journal.close()
    game = table.game if table is not None else None
    if game is None and found is not None:
        raise Fault(f"{where}: the journal would resume a {found.game.name} game nobody plays")
    if game is not None and not game.over and (found is None or found.game.name != game.name):
        raise Fault(f"{where}: the {game.name} game in progress would not resume")


# -- a table ------------------------------------------------------------------------------
class WatchedPlayer(Player):
    """A player who looks at the screen after every wait, so that a card is caught while
    PEEK is still held, in the middle of a hold or a chord."""

    def __init__(self, box: Box, table: Table, clock: VirtualClock, look: Callable[[], None]):
        super().__init__(box, table, clock)
        self.look = look

    def wait(self, seconds: float) -> None:
        super().wait(seconds)
        self.look()


def run_table(settings: Settings, actions: int, path: Path, seed: int = 0) -> None:
    """The monkey between random bots' moves for ``actions`` actions, then a quarter as
    many from the game's last reveal."""
    clock = VirtualClock()
    box = open_box("virtual", clock=clock)
    rng = random.Random(f"{settings} {seed}" if seed else f"{settings}")
    name = f"{settings.game} {settings.players} {settings.lang}, seed {seed}"
    try:
        table = Table(box, seed=rng.randrange(1000), journal=Journal(path))
        at = [f"{name}, the start"]  # where the monkey is, for a fault to say

        def look() -> None:
            shown = table.screen()
            check_cards(table, shown, box.inputs.is_down("peek"), at[0])
            check_hint(shown, table.t, at[0])

        def check() -> None:
            look()
            check_journal(path, None if isinstance(table.mode, Setup) else table, at[0])

        player = WatchedPlayer(box, table, clock, look)
        bots: list[Bot] = []
        for n in range(actions):
            at[0] = f"{name}, action {n}"
            if isinstance(table.mode, Setup):
                table.start(settings)
                assert table.game is not None
                bots = make_bots(table.game, "random", rng)
                player.wait(GAP)
            idle = isinstance(table.mode, Abandon | Notice | Over | Claim | Confirm)
            if rng.random() < 0.6 and not idle:
                move_on(table, player, bots, rng)
            else:
                act(player, rng)
            check()
        # Then from the last reveal (the game over, its last screens unread), and the end.
        if table.game is None or table.game.over:
            table.start(settings)
            player.wait(GAP)
        assert table.game is not None
        bots = make_bots(table.game, "random", rng)
        while not (isinstance(table.mode, Announce | Over) and table.game.over):
            if isinstance(table.mode, Notice | Abandon):
                player.press("back" if isinstance(table.mode, Abandon) else "ok")
            else:
                move_on(table, player, bots, rng)
        for n in range(actions // 4):
            at[0] = f"{name}, action {n} from the last reveal"
            last_reveal_action(player, rng, n)
            check()
    finally:
        box.close()


# -- the kiosk ----------------------------------------------------------------------------
class WatchedDay(Day):
    """The kiosk's day driver, looking at the screen after every wait."""

    def __init__(self, seed: int, journal: Path, look: Callable[[], None]) -> None:
        self.look: Callable[[], None] = lambda: None  # the first kiosk starts unwatched
        super().__init__(seed, journal)
        self.look = look

    def wait(self, seconds: float) -> None:
        super().wait(seconds)
        self.look()


class Booth:
    """A kiosk on the virtual box with its journal, its day driver for a finger, and the
    plug that can be pulled."""

    def __init__(self, lang: str, path: Path, seed: int) -> None:
        self.path = path
        self.seed = seed
        self.where = "the start"
        self.day = WatchedDay(seed, path, lambda: self.look(self.where))
        self.day.kiosk.ledger.set_setting("lang", lang)  # the staff's choice, kept
        self.restarts: list[str] = []  # staff chose Restart or Shut down: the plug comes next
        self.pull_plug()  # the kiosk as it starts, in that language
        self.bots: tuple[object, list[Bot]] = (None, [])

    @property
    def kiosk(self) -> Kiosk:
        return self.day.kiosk

    def pull_plug(self) -> None:
        """Power back: a new kiosk on the same box and journal file."""
        day = self.day
        if day.journal is not None:
            day.journal.close()
        journal = Journal(self.path)
        day.journal = journal
        ledger = Ledger(today=lambda: SIM_DAY, source=lambda: journal.db)
        day.kiosk = Kiosk(day.box, journal, seed=self.seed, ledger=ledger)
        day.kiosk.restart = lambda: self.restarts.append("restart")
        day.kiosk.poweroff = lambda: self.restarts.append("poweroff")

    def real_table(self) -> Table | None:
        """The table of the real game (one that is journalled), if the kiosk has one."""
        table = self.kiosk.table
        return table if table is not None and table.journal is not None else None

    def game_bots(self, table: Table, rng: random.Random) -> list[Bot]:
        """The bots of the game on ``table`` (made anew for a new game)."""
        game = table.game
        assert game is not None
        if self.bots[0] is not game:
            self.bots = (game, make_bots(game, "random", rng))
        return self.bots[1]

    def bot_move(self, rng: random.Random) -> None:
        """One move of a real game as its players would press it, or a setup row answered;
        stops when the kiosk takes the screen back."""
        table = self.real_table()
        assert table is not None
        if isinstance(table.mode, Setup):
            self.day.press(rng.choice(("ok", "ok", "up", "down")))
            return
        game = table.game
        assert game is not None
        match table.mode:
            case Abandon():
                buttons: list[Button] = ["back"]  # carry on
            case Confirm():
                buttons = ["ok"]
            case _:
                buttons = self.day.buttons_for(table, game, self.game_bots(table, rng))
        if not buttons:  # a countdown nobody claims: its clock runs
            self.day.wait(1.0)
        for button in buttons:
            self.day.press(button)
            if not self.playing(table):
                return

    def playing(self, table: Table) -> bool:
        mode = self.kiosk.mode
        return isinstance(mode, Playing) and mode.warn_until is None and self.kiosk.table is table

    def browse(self, rng: random.Random) -> None:
        """A visitor going through the menus (join, learn, watch, staff's rows): taps of
        the buttons that move and choose, OK the likeliest."""
        for _ in range(rng.randint(3, 10)):
            self.day.press(rng.choice(MENU_KEYS))

    def staff(self, rng: random.Random) -> None:
        """The staff chord and its code, OK on a row of the menu chosen at random, then a
        few presses there."""
        day = self.day
        day.hold_together(sorted(CHORD), CHORD_HOLD + 0.5)
        for button in CODE:
            day.press(button)
        mode = self.kiosk.mode
        if isinstance(mode, Staff):
            count = len(self.kiosk.staff_rows())
            for button, _ in cursor_presses(mode.row, rng.randrange(count), count):
                day.press(button)
            day.press("ok")
        self.browse(rng)

    def walk_away(self, rng: random.Random) -> None:
        """Nobody presses: a menu times out, the idle warning comes and runs out, attract
        plays."""
        idle = self.kiosk.idle
        seconds = rng.choice((8.0, 20.0, MENU_IDLE + 2, idle + 2, idle + WARNING + 3))
        end = self.day.clock.now() + seconds
        while self.day.clock.now() < end:
            self.day.wait(1.0)

    def plug(self) -> None:
        """Pull the plug: a real game in progress comes back as it was."""
        table = self.real_table()
        game = table.game if table is not None else None
        self.pull_plug()
        if game is not None and not game.over:
            back = self.real_table()
            if back is None or back.game is None or back.game.name != game.name:
                raise Fault(f"{self.where}: the {game.name} game in progress did not come back")

    def look(self, where: str) -> None:
        """No seat's card on screen unless that seat holds the box and PEEK, in a real game."""
        kiosk = self.kiosk
        mode = kiosk.mode
        table = kiosk.table
        on_table = isinstance(mode, Attract) or (
            isinstance(mode, Playing) and mode.warn_until is None
        )
        shown = table.screen() if on_table and table is not None else kiosk.screen()
        check_hint(shown, table.t if on_table and table is not None else kiosk.t, where)
        if table is not None and table.game is not None:
            peeking = isinstance(mode, Playing) and self.day.box.inputs.is_down("peek")
            check_cards(table, shown, peeking, where)

    def check(self) -> None:
        self.look(self.where)
        check_journal(self.path, self.real_table(), self.where)

    def to_last_reveal(self, rng: random.Random) -> None:
        """Join, Play, set up the smallest table, and play it to its last reveal."""
        day = self.day
        for _ in range(200):  # out of any menu, warning or staff screen, to the title
            if isinstance(self.kiosk.mode, Title | Attract):
                break
            if isinstance(self.kiosk.mode, Staff | Learn):
                day.press("back")
            else:
                day.wait(5.0)
        day.press("ok")  # joins
        day.press("ok")  # Play a game (the first row)
        table = self.real_table()
        assert table is not None
        wanted = {"game": KIOSK_FINAL.game, "players": KIOSK_FINAL.players}
        wanted |= KIOSK_FINAL.options or {}
        while isinstance(table.mode, Setup):
            form = table.mode.form
            key = form.rows[form.row][0]
            day.press("ok" if form.values[key] == wanted.get(key, form.values[key]) else "up")
        game = table.game
        assert game is not None
        while not (game.over and isinstance(table.mode, Announce | Over)):
            if not self.playing(table):
                raise Fault(f"the kiosk left the game for {type(self.kiosk.mode).__name__}")
            self.bot_move(rng)

    def close(self) -> None:
        self.day.close()


def run_kiosk(lang: str, actions: int, path: Path, seed: int = 0) -> None:
    """The monkey on the kiosk for ``actions`` actions (a real game moved on by bots when one
    is under way, staff visits, walks away, pulled plugs), then a quarter as many from a real
    game's last reveal."""
    rng = random.Random(f"kiosk {lang} {seed}")
    booth = Booth(lang, path, seed)
    name = f"kiosk {lang}, seed {seed}"
    try:
        for n in range(actions):
            booth.where = f"{name}, action {n}"
            table = booth.real_table()
            r = rng.random()
            in_setup = table is not None and isinstance(table.mode, Setup)
            in_game = table is not None and table.game is not None and booth.playing(table)
            in_menu = isinstance(booth.kiosk.mode, Title | Attract | Join | Learn | Staff)
            if (r < 0.4 and in_game) or (r < 0.45 and in_setup):
                booth.bot_move(rng)
            elif r < 0.5 and in_menu:
                booth.browse(rng)
            elif r < 0.53:
                booth.staff(rng)
            elif r < 0.58:
                booth.walk_away(rng)
            elif r < 0.6:
                booth.plug()
            else:
                act(booth.day, rng)
            if booth.restarts:  # the process ends: the next start reads the journal
                booth.restarts.clear()
                booth.plug()
            booth.check()
        booth.where = f"{name}, on the way to a last reveal"
        booth.to_last_reveal(rng)
        for n in range(actions // 4):
            booth.where = f"{name}, action {n} from the last reveal"
            last_reveal_action(booth.day, rng, n)
            booth.check()
    finally:
        booth.close()


# -- the bench ------------------------------------------------------------------------------
@dataclass
class Outcome:
    """One run of the long monkey: where, how many actions, its CPU time, what it found."""

    run: str
    actions: int
    cpu_s: float
    fault: str | None = None


def bench(
    actions: int, folder: Path, seed: int = 1, tell: Callable[[Outcome], None] = lambda o: None
) -> list[Outcome]:
    """``actions`` actions on every table and the kiosk in each language, each with its
    journal in ``folder``; a fault is reported, not raised, and the next run goes on.
    ``tell`` hears of each run as it ends (a long run takes a while)."""
    runs: list[tuple[str, Callable[[Path], None]]] = [
        (f"{s.game} {s.players} {s.lang}", _table_job(s, actions, seed)) for s in TABLES
    ]
    runs += [(f"kiosk {lang}", _kiosk_job(lang, actions, seed)) for lang in KIOSK_LANGS]
    outcomes = []
    for i, (name, job) in enumerate(runs):
        start = time.process_time()
        fault = None
        try:
            job(folder / f"monkey-{i}.sqlite")
        except Exception as found:  # any exception is what the run finds
            fault = f"{type(found).__name__}: {found}"
        outcomes.append(Outcome(name, actions, round(time.process_time() - start, 2), fault))
        tell(outcomes[-1])
    return outcomes


def _table_job(settings: Settings, actions: int, seed: int) -> Callable[[Path], None]:
    return lambda path: run_table(settings, actions, path, seed=seed)


def _kiosk_job(lang: str, actions: int, seed: int) -> Callable[[Path], None]:
    return lambda path: run_kiosk(lang, actions, path, seed=seed)


HEADER = f"{'run':<22} {'actions':>8} {'CPU s':>8}  result"


def line(o: Outcome) -> str:
    """One run of the bench, as its report shows it."""
    return f"{o.run:<22} {o.actions:>8} {o.cpu_s:>8.2f}  {o.fault or 'ok'}"
