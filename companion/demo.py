"""Bots at the virtual box: a full game played only by pressing the mock buttons.

The demo reads the box's screen state the way a player reads the screen, asks
each seat's bot what it wants, and presses buttons to say it, on a virtual
clock so that the same seed gives the same frames and trace to the byte.
Every distinct OLED frame can be written as a PNG and every LED and buzzer
change to a trace file. The convention kiosk loops over it.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from companion.bots import Bot, make_bots
from companion.box import Box, VirtualClock, open_box
from companion.box.pinout import Button
from companion.games import Choice, Decision, Game
from companion.games.base import same_choice
from companion.store import Journal
from companion.table import Settings, Table
from companion.table.modes import (
    Announce,
    Choose,
    Claim,
    Countdown,
    Cursor,
    Handoff,
    Notice,
    Over,
    Peek,
    Setup,
)

TAP = 0.08  # seconds a button is held for a press
GAP = 0.4  # seconds between presses (longer than the table's guard)
LOOP = 0.02  # seconds the box's loop takes to see a release (Back acts on it)
PEEK = 1.0  # seconds PEEK is held
READ = 3.0  # seconds a paced demo leaves a reveal up before OK, as a table reads it
PASS = 1.0  # seconds a paced demo takes to pass the box to the next seat

BotFactory = Callable[[Game, random.Random], list[Bot]]
#: the real wait of a paced demo (``time.sleep`` for a TV to follow); None: as fast as it goes
Pace = Callable[[float], None] | None
#: what a seat answers, given its own view: a seat's bot, or a test forcing a choice
Chooser = Callable[[int, dict[str, Any], Decision], Choice]


@dataclass
class DemoRun:
    """What a demo leaves behind: frames, the LED/buzzer trace, the log, the game."""

    frames: list[bytes] = field(default_factory=list)
    trace: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    presses: int = 0
    moves: int = 0  # answers given: what the table would have done with cards
    #: each decision answered: its kind, the screen it was answered on ("choose", "peek",
    #: "cursor", "countdown") and the presses it took, its hand-over (and a name picked
    #: there) included; the setup's presses and the reveals' OKs are no decision's
    costs: list[tuple[str, str, int]] = field(default_factory=list)
    table: Table | None = None


class _Capture(logging.Handler):
    def __init__(self, lines: list[str]) -> None:
        super().__init__(logging.INFO)
        self.lines = lines

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


class Player:
    """Presses the box's buttons for the bots."""

    def __init__(self, box: Box, table: Table, clock: VirtualClock, pace: Pace = None) -> None:
        self.box = box
        self.table = table
        self.clock = clock
        self.pace = pace
        self.presses = 0
        self.moves = 0

    def wait(self, seconds: float) -> None:
        self.clock.advance(seconds)
        if self.pace is not None:
            self.pace(seconds)
        self.table.step()

    def linger(self, seconds: float) -> None:
        """A paced demo's pause where a table would read or pass the box; none unpaced, so
        the frames and the trace of a seed stay the same."""
        if self.pace is not None:
            self.wait(seconds)

    def press(self, button: Button, hold: float = TAP) -> None:
        self.box.virtual_board.drive(button, True)
        self.wait(hold)
        self.box.virtual_board.drive(button, False)
        self.wait(LOOP)
        self.wait(GAP - LOOP)
        self.presses += 1

    def setup(self, settings: Settings) -> None:
        """Walk the setup screen to the wanted settings, row by row."""
        table = self.table
        wanted = {"game": settings.game, "players": settings.players, "lang": settings.lang}
        wanted |= settings.options or {}
        while isinstance(table.mode, Setup):
            form = table.mode.form
            key, values = form.rows[form.row]
            target = wanted.get(key, values[0])
            if target not in values:
                raise ValueError(f"{key} cannot be {target!r} (choices: {values})")
            while form.values[key] != target:
                self.press("up")
                key, values = form.rows[form.row]
            self.press("ok")

    def answer(self, choice: Any) -> None:
        """Give ``choice`` for the decision on screen."""
        for button, hold in presses_for(self.table, choice):
            self.press(button, hold=hold)
        self.moves += 1

    def answer_as(self, bots: list[Bot]) -> None:
        """Answer the decision on screen as the seats' bots would; a countdown runs out."""
        self.answer_with(lambda seat, view, d: bots[seat].choose(view, d))

    def answer_with(self, choose: Chooser) -> None:
        """Answer the decision on screen as ``choose`` says for each seat asked; a
        countdown runs out."""
        open_check = isinstance(self.table.mode, Countdown | Claim)
        presses = bot_presses(self.table, choose)
        for button, hold in presses:
            self.press(button, hold=hold)
        # On a countdown, a move is a claim (one A or B each); declining is none.
        self.moves += sum(b in ("choice_a", "choice_b") for b, _ in presses) if open_check else 1
        while isinstance(self.table.mode, Countdown):
            self.wait(1.0)
        if open_check:
            self.wait(GAP)  # the outcome has just appeared: a press now would fall in its guard


def presses_for(table: Table, choice: Any) -> list[tuple[Button, float]]:
    """The presses (button, how long it is held) that give ``choice`` on the table's screen."""
    game = table.game
    assert game is not None and game.decision is not None
    match table.mode:
        case Peek():
            return [("peek", PEEK), ("ok", TAP)]
        case Choose():
            buttons = table.ui.choice_buttons(game.decision)
            assert buttons is not None
            return [("choice_a" if choice == buttons[0] else "choice_b", TAP), ("ok", TAP)]
        case Cursor(options=options, at=at):
            return [*cursor_presses(at, options.index(choice), len(options)), ("ok", TAP)]
        case mode:
            raise RuntimeError(f"cannot answer on the {type(mode).__name__} screen")


def cursor_presses(at: int, target: int, count: int) -> list[tuple[Button, float]]:
    """The presses that move a cursor from ``at`` to ``target``: it wraps (Up is the next
    value), so the shorter way round."""
    ups = (target - at) % count
    downs = count - ups if ups else 0
    return [("up", TAP)] * ups if ups <= downs else [("down", TAP)] * downs


def bot_presses(table: Table, choose: Chooser) -> list[tuple[Button, float]]:
    """The presses that answer the decision on screen as the seats would. On a countdown,
    each seat whose answer is not the default claims (once); the others press nothing and
    let the clock run out."""
    game = table.game
    assert game is not None and game.decision is not None
    d = game.decision
    if isinstance(table.mode, Claim):
        return [("back", TAP)]  # a claim somebody else began: walked back to the countdown
    if not isinstance(table.mode, Countdown):
        return presses_for(table, choose(d.seats[0], game.view(d.seats[0]), d))
    buttons = table.ui.choice_buttons(d)
    assert buttons is not None
    presses: list[tuple[Button, float]] = []
    for seat in d.seats:
        choice = choose(seat, game.view(seat), d)
        if seat in table.check.claims or same_choice(choice, d.options[-1]):
            continue  # the default (no): nothing to press
        steps = cursor_presses(0, seat, game.players)  # the seat cursor starts on seat 1
        answer: Button = "choice_a" if same_choice(choice, buttons[0]) else "choice_b"
        presses += [("ok", TAP), *steps, (answer, TAP), ("ok", TAP)]  # OK, seat, A/B, OK
    return presses


def play(
    settings: Settings,
    seed: int,
    frames_dir: Path | None = None,
    bots: str | BotFactory = "smart",
    box: Box | None = None,
    journal: Journal | None = None,
    names: Sequence[str] = (),
    pace: Pace = None,
    watch: Callable[[Table], None] | None = None,
) -> DemoRun:
    """Play one whole game on the virtual box; returns what it showed. ``names``: the names
    of a recent game, one given (▲) to each seat at its first hand-over. ``pace``: each
    wait of the virtual clock also waited for real, with pauses to read reveals and pass
    the box; ``watch`` is handed the table after its first frame (a TV to serve)."""
    clock = VirtualClock()
    box = box or open_box("virtual", clock=clock)
    if not isinstance(box.clock, VirtualClock):
        raise ValueError("the demo runs on the virtual clock")
    clock = box.clock
    run = DemoRun()
    handler = _Capture(run.log)
    logger = logging.getLogger("companion")
    logger.addHandler(handler)
    previous_level = logger.level
    logger.setLevel(logging.INFO)
    if frames_dir is not None:
        frames_dir.mkdir(parents=True, exist_ok=True)

    def keep_frame(_: Image.Image, t: float) -> None:
        image = box.virtual_board.glass()  # what the driver really lit, not what it was handed
        run.frames.append(image.tobytes())
        if frames_dir is not None:
            image.save(frames_dir / f"frame-{len(run.frames):04d}.png")

    box.outputs.frame_sinks.append(keep_frame)
    box.outputs.trace_limit = None  # the whole trace: the swap tests compare it
    try:
        table = Table(box, seed=seed, lang=settings.lang, journal=journal)
        run.table = table
        player = Player(box, table, clock, pace)
        table.step()
        if watch is not None:  # after the first frame, as the box starts
            watch(table)
        if names:
            table.record.names.recent.keep(dict(enumerate(names)), key="recent")
        player.setup(settings)
        game = table.game
        assert game is not None
        rng = random.Random(seed)
        seat_bots = bots(game, rng) if callable(bots) else make_bots(game, bots, rng)
        since = player.presses  # the presses since the last decision or reveal screen
        while not isinstance(table.mode, Over):
            mode = table.mode
            seat = mode.seat if isinstance(mode, Handoff) else None
            if (
                seat is not None
                and seat not in table.record.names.seats
                and table.record.names.choices(seat)[1:]
            ):
                player.press("up")  # the next recent name no other seat carries
            elif isinstance(mode, Handoff | Notice):
                player.linger(PASS)
                player.press("ok")  # a notice is read and costs its OK, as at a table
            elif isinstance(mode, Announce):
                player.linger(READ)
                player.press("ok")
                since = player.presses
            else:
                kind = game.decision.kind if game.decision is not None else ""
                player.answer_as(seat_bots)
                run.costs.append((kind, type(mode).__name__.lower(), player.presses - since))
                since = player.presses
        player.press("down")  # the second final page: everyone's card
        player.press("up")
        run.presses = player.presses
        run.moves = player.moves
        run.trace = list(box.outputs.trace)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous_level)
    if frames_dir is not None:
        (frames_dir / "trace.txt").write_text("\n".join(run.trace) + "\n", encoding="utf-8")
    return run
