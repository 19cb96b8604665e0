"""``companion``: run the box, play a demo, simulate bot games, check the hardware.

Each command imports what it needs when it runs: one that draws no frame (``--help``,
``simulate``, ``stats``, ``board``) never loads the box (gpiozero, luma, Pillow, pyserial),
which is most of a start's cost (tests/test_cli_imports.py keeps it so).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn

from companion.box_kinds import BOARDS
from companion.errors import CompanionError, JournalError, SettingsError
from companion.games import GAMES
from companion.ui.i18n import LANGUAGES

if TYPE_CHECKING:
    from pathlib import Path

    from companion.store import Journal


def _options(game: str, pairs: Sequence[str]) -> dict[str, Any]:
    """House rules from KEY=VALUE pairs, each value as ``game`` reads it (a file named on
    the command line is read here, by the game's record: games do no I/O)."""
    from companion.games import game_record

    record = game_record(game)
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SettingsError(f"--option takes KEY=VALUE, not {pair!r}")
        options[key] = record.read_option(key, value)
    return options


MAX_GAMES = 1_000_000  # about twenty minutes of the slowest game: more is a typo
MAX_DAY = 24.0  # hours a simulated booth day may last
MAX_MONKEY = 1_000_000  # monkey actions a run: some days of CPU; more is a typo


def _games_count(games: int) -> None:
    """A count of games checked before any is played (a typo costs no CPU first)."""
    if not 1 <= games <= MAX_GAMES:
        raise SettingsError(f"--games must be from 1 to {MAX_GAMES:,}, not {games:,}")


PLAYERS_HELP = "how many at the table (default: the game's usual count)"
OPTION_HELP = "a house rule, as on the setup screen, e.g. deal=box (once a rule)"
BOTS_HELP = "smart bots play to win; random ones pick any move the rules allow"


def cmd_simulate(args: argparse.Namespace) -> int:
    import json

    from companion.simulate import report, simulate

    _games_count(args.games)
    options = _options(args.game, args.option)
    stats = simulate(args.game, args.players, args.games, args.seed, args.bots, **options)
    print(json.dumps(stats, indent=2) if args.json else report(stats))
    return 0


def _settings(args: argparse.Namespace) -> Any:
    """The settings of ``--game``, checked before any part of the box is opened."""
    from companion.games import game_class
    from companion.table import Settings

    game = game_class(args.game)
    players = game.default_players() if args.players is None else args.players
    options = _options(args.game, args.option)
    game.checked_settings(players, options)
    return Settings(args.game, players, args.lang or "en", options)


def _check_run_args(args: argparse.Namespace) -> None:
    """Refuse options that do not go together, before anything is opened."""
    if args.journal is not None and args.no_journal:
        raise SettingsError("--journal and --no-journal do not go together: keep one")
    if args.web:
        from companion.web.address import WebAddress

        WebAddress.parse(args.web)  # a mistake ends here, before the box is opened
    if args.handset:
        from companion.box.handsets import parse_ports

        parse_ports(args.handset)  # likewise
    if args.game is None:
        given = [name for name in ("players", "option") if getattr(args, name)]
        if given:
            raise SettingsError(
                f"--{given[0]} needs --game (without it the box asks at its setup screen)"
            )


def _needs_terminal(args: argparse.Namespace) -> None:
    """The virtual box's front end is this terminal: without one (a pipe, a service, cron),
    starting would set up a game nobody sees, that the next run resumes. The service units
    and a booth pass --headless."""
    if args.headless:
        return
    from companion.box.board import on_a_pi

    virtual = args.board == "virtual" or (args.board == "auto" and not on_a_pi())
    if virtual and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise SettingsError(
            "no terminal to show the virtual box in: run it in a terminal, "
            "or add --headless to run it without one"
        )


def _nothing_in_progress(journal: Any) -> None:
    """``--game`` never throws away a game in progress: the table confirms an abandon, at
    the box (hold Back, then OK), never a command line."""
    from companion.table.resume import resume

    saved = resume(journal)
    if saved is not None:
        journal.close()
        raise SettingsError(
            f"a game of {saved.game.name.title()} is in progress in {journal.path}: run "
            "without --game to carry it on (hold Back there to abandon it), or add "
            "--no-journal to play this one unsaved"
        )


def cmd_run(args: argparse.Namespace) -> int:
    import gc

    gc.disable()  # a start makes what it keeps: no collection before its first frame
    try:
        return _run(args)
    finally:
        gc.enable()


def _run(args: argparse.Namespace) -> int:
    import gc

    from companion.box import WallClock, open_box
    from companion.boxlock import hold
    from companion.service import Service
    from companion.table import Table

    _check_run_args(args)
    settings = _settings(args) if args.game else None
    _needs_terminal(args)  # after the settings: a mistake in them is the more useful line
    # One box a journal: a second one stops here, in one line, before it touches the box.
    lock = None if args.no_journal else hold(_journal_path(args), "run")
    journal = None
    if settings is not None and not args.no_journal:  # --game never ends a game in progress
        journal = _journal(args)
        _nothing_in_progress(journal)
    box = open_box(args.board, pinout=_pinout(args), clock=WallClock(), handsets=args.handset)
    web = None
    try:
        table = Table(box, seed=args.seed, lang=args.lang, journal=journal)
        terminal = None
        if box.virtual and not args.headless:  # the terminal draws every frame, the first too
            from companion.box.terminal import Terminal

            terminal = Terminal(box, table.step)
        if settings is None:
            table.step()  # the setup form, up before the journal is opened (README: Performance)
        gc.enable()
        if args.web:  # after the first frame: the web side warms the loop's files, then serves
            data = None if args.no_journal else _journal_path(args).parent
            web = _web_serve()(table, args.web, data, box.clock.now)
        if settings is not None:
            table.start(settings)
        elif not args.no_journal:
            journal = _journal(args)
            table.open_journal(journal)  # back where the power cut left the table, if so
        if terminal is not None:
            terminal.run()
        else:
            from companion.warmup import warm_up

            Service(table.step, idle=warm_up(table.last_settings.lang)).run()
    finally:
        if web is not None:
            web.stop()
        box.close()
        if journal is not None:
            journal.close()
        if lock is not None:
            lock.release()
    return 0


def _journal_path(args: argparse.Namespace) -> Path:
    from pathlib import Path

    from companion.datapath import default_path  # not the journal's module: no SQLite yet

    return Path(args.journal) if args.journal else default_path()


def _journal(args: argparse.Namespace) -> Journal:
    """The journal of ``companion run``, opened without waiting for a program that holds it
    locked: the box plays on unsaved, says so, and saves once the lock is gone (said then).
    A path the user typed must be writable; the default need not be."""
    from companion.store import Journal

    return Journal(_journal_path(args), typed=bool(args.journal), lock_wait=0.0)


def _web_serve() -> Any:
    """``companion.web.start.serve``; one line, not a traceback, without aiohttp or segno."""
    try:
        from companion.web.start import serve
    except ImportError as exc:
        raise SettingsError(
            f"--web needs {exc.name or 'aiohttp and segno'}, which is not installed: "
            "reinstall the package (make install)"
        ) from None
    return serve


def cmd_kiosk(args: argparse.Namespace) -> int:
    if args.day is not None:
        return _kiosk_day(args)
    from pathlib import Path

    from companion.box import WallClock, open_box
    from companion.box.terminal import Terminal
    from companion.boxlock import hold
    from companion.kiosk.booth import Kiosk
    from companion.kiosk.safemode import HEALTHY, StartRecord
    from companion.service import Service
    from companion.store import default_path

    _needs_terminal(args)
    path = Path(args.journal) if args.journal else default_path()
    if args.journal and not args.no_journal:
        _journal_folder(path)  # a folder the user typed that cannot be made: one line, now
    lock = None if args.no_journal else hold(path, "kiosk")  # before anything is set aside
    record = StartRecord(path.with_name("kiosk-starts.json"))
    safe = record.started()
    journal = None if args.no_journal else _kiosk_journal(path, record.first_safe, args.journal)
    box = open_box(args.board, pinout=_pinout(args), clock=WallClock())

    def poweroff() -> None:
        if not box.virtual:
            import subprocess

            subprocess.run(["systemctl", "poweroff"], check=False)
        raise SystemExit(0)

    def restart() -> None:
        raise SystemExit(0)  # systemd starts the kiosk again (Restart=always)

    kiosk = Kiosk(box, journal, seed=args.seed, safe=safe, poweroff=poweroff, restart=restart)
    healthy_at = box.clock.now() + HEALTHY
    marked = False

    def step() -> None:
        nonlocal marked
        kiosk.step()
        if not marked and box.clock.now() >= healthy_at:
            record.healthy()  # it ran: the next start is a normal one
            marked = True

    try:
        if box.virtual and not args.headless:
            from companion.kiosk.chord import CHORD, CHORD_HOLD

            Terminal(box, step, chord=(CHORD, CHORD_HOLD)).run()
        else:
            Service(step).run()
    finally:
        kiosk.close()
        box.close()
        if journal is not None:
            journal.close()
        if lock is not None:
            lock.release()
    return 0


def _kiosk_journal(path: Path, first_safe: bool, typed: str | None) -> Any:
    """The kiosk's journal; the first start in safe mode sets the old one aside first (only
    the first: the later ones would set aside the fresh journal safe mode began)."""
    from companion.kiosk.safemode import set_journal_aside
    from companion.store import Journal

    if first_safe:
        set_journal_aside(path)
    return Journal(path, typed=True) if typed else Journal(path)


def _journal_folder(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JournalError(
            f"cannot create the journal's folder {path.parent}: {exc.strerror}"
        ) from None


def _kiosk_day(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from companion.kiosk.day import simulate_day

    if args.board != "virtual" or not args.headless:
        raise SettingsError("a simulated booth day runs on --board virtual --headless")
    if not 0 < args.day <= MAX_DAY:  # also refuses nan and inf
        raise SettingsError(f"--day takes hours above 0 and at most {MAX_DAY:g}, not {args.day:g}")
    report = simulate_day(args.day, args.seed or 1, Path(args.journal) if args.journal else None)
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        s = report["stats"]
        print(
            f"{args.day} h: {s['started']} games started, {s['finished']} finished, "
            f"{s['abandoned']} abandoned, {s['attract']} attract games, {s['presses']} presses; "
            f"memory {report['memory_mib']} MiB; journal {report['journal_bytes']} bytes"
        )
    return 0


def _stats_date(text: str | None) -> str | None:
    """``--date``: a calendar day as YYYY-MM-DD, or the simulated day's name."""
    import datetime

    from companion.kiosk.daystats import SIM_DAY

    if text is None or text == SIM_DAY:
        return text
    try:
        return datetime.date.fromisoformat(text).isoformat() if len(text) == 10 else None
    except ValueError:
        return None


def cmd_stats(args: argparse.Namespace) -> int:
    import json
    import sqlite3
    from pathlib import Path

    from companion.files import check_regular
    from companion.kiosk.daystats import SIM_DAY, Ledger
    from companion.store import default_path

    date = _stats_date(args.date)
    if args.date is not None and date is None:
        raise SettingsError(f"--date takes a day as YYYY-MM-DD (or {SIM_DAY!r}), not {args.date!r}")
    path = Path(args.journal) if args.journal else default_path()
    if not path.exists():
        raise JournalError(f"no journal at {path}: the kiosk has not run there")
    check_regular(path, "journal", JournalError)
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            db.execute("SELECT count(*) FROM sqlite_master")  # a file that is no database says so
            stats = Ledger(db, readonly=True).stats(date).as_dict()
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise JournalError(f"cannot read the statistics in {path}: {exc}") from None
    if args.json:
        print(json.dumps(stats, sort_keys=True))
    else:
        print(
            f"{date or 'today'}: {stats['started']} games started, {stats['finished']} "
            f"finished, {stats['abandoned']} abandoned; {stats['attract']} attract games; "
            f"{stats['presses']} presses"
        )
        for game, outcomes in stats["outcomes"].items():
            print(f"  {game}: " + ", ".join(f"{k} {v}" for k, v in outcomes.items()))
    return 0


def _pinout(args: argparse.Namespace) -> Any:
    from companion.box.pinout import load_pinout

    return load_pinout(args.pinout)


def cmd_demo(args: argparse.Namespace) -> int:
    from companion.box import VirtualClock, open_box
    from companion.demo import play
    from companion.files import writable_folder

    if args.board != "virtual":
        raise SettingsError("the demo presses buttons by software: it runs on --board virtual only")
    settings = _settings(args)
    if args.web:
        from companion.web.address import WebAddress

        WebAddress.parse(args.web)  # a mistake ends here, before the box is opened
    box = open_box("virtual", pinout=_pinout(args), clock=VirtualClock())
    if not args.headless and not sys.stdout.isatty():  # braille into a file helps nobody
        print(
            "companion: not a terminal: the demo's frames are not drawn here (--headless "
            "says so quietly; --frames DIR keeps them as pictures)",
            file=sys.stderr,
        )
    elif not args.headless:
        from companion.box.terminal import oled_art

        box.outputs.frame_sinks.append(
            lambda image, t: print("\n".join(oled_art(box.virtual_board.glass())), "\n")
        )
    frames = writable_folder(args.frames, "frames folder", SettingsError) if args.frames else None
    try:
        if args.web:  # at a table's pace, on the TV page
            from companion.demo_tv import play_on_tv

            run = play_on_tv(settings, args.seed, args.web, _web_serve(), box, args.bots, frames)
        else:
            run = play(settings, args.seed, frames, args.bots, box=box)
    finally:
        box.close()
    table = run.table
    assert table is not None and table.game is not None
    result = table.game.result
    assert result is not None
    winners = " ".join(str(s + 1) for s in sorted(result.winners)) or "none"
    print(
        f"{args.game}: {result.outcome}, winners: seats {winners}; "
        f"{len(run.frames)} frames, {len(run.trace)} LED/buzzer events, "
        f"{run.presses} presses for {run.moves} moves"
        + (f", written to {frames}" if frames else "")
    )
    return 0


def cmd_hardware(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion.box.pinout import pinout_path
    from companion.hardware import documents, panel_layout, write_enclosure

    pinout = _pinout(args)
    folder = Path(pinout_path(args.pinout)).parent
    layout = panel_layout(pinout, folder)
    docs = documents(pinout, layout, folder)
    if args.write:
        for path, text in docs.items():
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        for news in write_enclosure(layout, folder / "enclosure"):
            print(news)
        return 0
    stale = [str(p) for p, text in docs.items() if not p.exists() or p.read_text() != text]
    if stale:
        print(f"out of date with the pinout: {', '.join(stale)} (run: companion hardware --write)")
        return 1
    print(f"{pinout.source}: {len(pinout.pins())} pins, wiring, diagram, BOM and panel up to date")
    return 0


def cmd_selftest(args: argparse.Namespace) -> int:
    import time

    from companion import selftest
    from companion.box import VirtualClock, WallClock, open_box

    virtual = args.board == "virtual"
    clock = VirtualClock() if virtual else WallClock()
    box = open_box(args.board, pinout=_pinout(args), clock=clock)
    wait = clock.advance if isinstance(clock, VirtualClock) else time.sleep
    try:
        problems = selftest.run(box, wait, print)
    finally:
        box.close()
    return 1 if problems else 0


def cmd_bench(args: argparse.Namespace) -> int:
    # The web's bench drives the box's (companion.web.bench imports companion.bench): the
    # choice between them is made here, so that neither imports the other back.
    import json

    _games_count(args.games)  # every argument checked before any measuring starts
    if args.web:
        from companion.web import bench as web_bench

        results = web_bench.run()
        print(json.dumps(results, indent=2) if args.json else web_bench.report(results))
        return 0
    if args.monkey is not None:
        return _monkey(args)
    from companion import bench

    results = bench.run(args.games)
    print(json.dumps(results, indent=2) if args.json else bench.report(results))
    return 0


def _monkey(args: argparse.Namespace) -> int:
    """The long monkey run: every table and the kiosk, a fresh journal each in a temporary
    folder; status 1 when it found a fault."""
    import json
    import tempfile
    from dataclasses import asdict
    from pathlib import Path

    from companion import monkey

    if not 1 <= args.monkey <= MAX_MONKEY:
        raise SettingsError(f"--monkey must be from 1 to {MAX_MONKEY:,}, not {args.monkey:,}")
    if not args.json:
        print(monkey.HEADER, flush=True)

    def tell(outcome: monkey.Outcome) -> None:
        if not args.json:
            print(monkey.line(outcome), flush=True)

    with tempfile.TemporaryDirectory(prefix="companion-monkey-") as folder:
        outcomes = monkey.bench(args.monkey, Path(folder), seed=args.seed, tell=tell)
    if args.json:
        print(json.dumps([asdict(o) for o in outcomes], indent=2))
    return 1 if any(o.fault for o in outcomes) else 0


ABOUT = """The table box: a secret ballot box and shuffler that runs the rules, turns and
scores of the games on its setup screen.

Start with `companion run`: off a Raspberry Pi it opens the virtual box in this terminal
(its keys are on its bottom line); on a Pi the service starts it. `companion COMMAND
--help` tells more of each command."""
BOARD_HELP = "auto: the Pi's own pins on a Pi, else the virtual box; pi; virtual"
PINOUT_HELP = "a wiring file other than the one the box was built to (hardware/pinout.toml)"
HEADLESS_HELP = "draw nothing here (a service, a booth, or output into a file)"
JOURNAL_HELP = (
    "where the box keeps the game in progress (default: journal.sqlite in $COMPANION_DATA, "
    "else in ~/.local/share/companion)"
)


#: the width of the text argparse formats to check an argument, and throws away
CHECK_WIDTH = 80


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage mistake told in one line (and where to read more), status 2.

    argparse formats every argument it is told, to check it, with a formatter that asks
    ``shutil`` for the terminal's width: ``shutil``, with the compressors it imports, is
    about 6 M instructions of a start (README: Performance). Those formatters get a
    width; the help and usage shown ask the terminal, as argparse's own do."""

    def __init__(
        self,
        formatter_class: type[argparse.HelpFormatter] = argparse.HelpFormatter,
        **kwargs: Any,
    ) -> None:
        super().__init__(formatter_class=partial(formatter_class, width=CHECK_WIDTH), **kwargs)
        self.shown_with = formatter_class

    def format_usage(self) -> str:
        self.formatter_class = self.shown_with
        return super().format_usage()

    def format_help(self) -> str:
        self.formatter_class = self.shown_with
        return super().format_help()

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"companion: {message} (see {self.prog} --help)\n")


class _NotRun:
    """Stands for the parser of a command that is not being run: what it is told, it drops
    (a start pays for its own command's parsers only, a fifth of argparse's cost)."""

    def add_argument(self, *args: Any, **kwargs: Any) -> None:
        pass

    def set_defaults(self, **kwargs: Any) -> None:
        pass


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line; with ``only``, that command's arguments and no other's."""
    p = _Parser(
        prog="companion", description=ABOUT, formatter_class=argparse.RawDescriptionHelpFormatter
    )

    def command_parser(**kwargs: Any) -> Any:
        wanted = only is None or kwargs["prog"].rsplit(" ", 1)[-1] == only
        return _Parser(**kwargs) if wanted else _NotRun()

    sub = p.add_subparsers(dest="command", required=True, parser_class=command_parser)  # type: ignore[call-overload]

    sim = sub.add_parser(
        "simulate", help="bots play many games: who wins how often (to weigh a house rule)"
    )
    sim.add_argument("game", choices=sorted(GAMES), help="which game")
    sim.add_argument("--players", type=int, default=None, help=PLAYERS_HELP)
    sim.add_argument("--games", type=int, default=1000, help="how many games (1 to 1,000,000)")
    sim.add_argument("--seed", type=int, default=1, help="the same seed plays the same games")
    sim.add_argument("--bots", choices=("smart", "random"), default="smart", help=BOTS_HELP)
    sim.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help=OPTION_HELP)
    sim.add_argument("--json", action="store_true", help="print JSON rather than a table")
    sim.set_defaults(func=cmd_simulate)

    def table_args(cmd: argparse.ArgumentParser, game_required: bool) -> None:
        if game_required:
            cmd.add_argument("game", choices=sorted(GAMES), help="which game")
        else:
            cmd.add_argument(
                "--game",
                choices=sorted(GAMES),
                default=None,
                help="skip the setup screens and start this game at once",
            )
        cmd.add_argument("--players", type=int, default=None, help=PLAYERS_HELP)
        cmd.add_argument(
            "--lang",
            choices=LANGUAGES,
            default=None,
            help="the language shown: en or fr (default en; given, it also wins over the "
            "language of a game carried on after a power cut)",
        )
        cmd.add_argument(
            "--seed",
            type=int,
            default=None,
            help="the same shuffles every time, for a rehearsal (default: truly random)",
        )
        cmd.add_argument(
            "--option", action="append", default=[], metavar="KEY=VALUE", help=OPTION_HELP
        )
        cmd.add_argument(
            "--board",
            choices=BOARDS,
            default="auto" if not game_required else "virtual",
            help=BOARD_HELP,
        )
        cmd.add_argument("--pinout", default=None, metavar="FILE", help=PINOUT_HELP)
        cmd.add_argument("--headless", action="store_true", help=HEADLESS_HELP)

    run = sub.add_parser("run", help="run the box (off a Pi: the virtual box in this terminal)")
    table_args(run, game_required=False)
    run.add_argument("--journal", default=None, metavar="FILE", help=JOURNAL_HELP)
    run.add_argument(
        "--no-journal", action="store_true", help="keep nothing: a power cut loses the game"
    )
    run.add_argument(
        "--handset",
        action="append",
        default=[],
        metavar="PORT[=SEAT]",
        help="a wired pad on this serial port (/dev/ttyACM0; socket://HOST:PORT for a "
        "pad over the network); =SEAT gives it a seat, else the pad's own setting does; "
        "once a pad",
    )
    run.add_argument(
        "--web",
        default=None,
        metavar="HOST:PORT",
        help="serve the TV page and the players' phones on this address (HOST: an address, "
        "or a network interface such as wlan0)",
    )
    run.set_defaults(func=cmd_run)

    demo = sub.add_parser("demo", help="bots play a whole game by pressing the virtual buttons")
    table_args(demo, game_required=True)
    demo.add_argument(
        "--frames",
        default=None,
        metavar="DIR",
        help="keep every screen as a picture in DIR, and the lights and beeps in trace.txt",
    )
    demo.add_argument("--bots", choices=("smart", "random"), default="smart", help=BOTS_HELP)
    demo.add_argument(
        "--web",
        default=None,
        metavar="HOST:PORT",
        help="play at a table's pace and serve the TV page on this address (a booth's TV); "
        "the link to open is printed",
    )
    demo.set_defaults(func=cmd_demo, seed=1)

    kiosk = sub.add_parser("kiosk", help="run a convention booth: attract loop, join, staff menu")
    kiosk.add_argument("--board", choices=BOARDS, default="auto", help=BOARD_HELP)
    kiosk.add_argument("--pinout", default=None, metavar="FILE", help=PINOUT_HELP)
    kiosk.add_argument("--headless", action="store_true", help=HEADLESS_HELP)
    kiosk.add_argument(
        "--seed", type=int, default=None, help="the same shuffles every time (a rehearsal)"
    )
    kiosk.add_argument("--journal", default=None, metavar="FILE", help=JOURNAL_HELP)
    kiosk.add_argument(
        "--no-journal", action="store_true", help="keep nothing: no game or statistics kept"
    )
    kiosk.add_argument(
        "--day",
        type=float,
        default=None,
        metavar="HOURS",
        help="simulate a booth day of HOURS on the virtual clock (with --board virtual --headless)",
    )
    kiosk.add_argument("--json", action="store_true", help="with --day: print JSON")
    kiosk.set_defaults(func=cmd_kiosk)

    stats = sub.add_parser("stats", help="a booth's day: games started, finished, abandoned")
    stats.add_argument("--journal", default=None, metavar="FILE", help=JOURNAL_HELP)
    stats.add_argument(
        "--date", default=None, metavar="YYYY-MM-DD", help="which day (default: today)"
    )
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.set_defaults(func=cmd_stats)

    hw = sub.add_parser(
        "hardware", help="check the wiring notes, parts list and printed case against the pinout"
    )
    hw.add_argument("--pinout", default=None, metavar="FILE", help=PINOUT_HELP)
    hw.add_argument(
        "--write", action="store_true", help="write them anew from the pinout, rather than check"
    )
    hw.set_defaults(func=cmd_hardware)

    for record in GAMES.values():  # a game's own commands, as its folder declares them
        for command in record.commands:
            own = sub.add_parser(command.name, help=command.help)
            command.arguments(own)
            own.set_defaults(func=lambda args, run=command.run: run()(args))

    st = sub.add_parser("selftest", help="check every LED, the buzzer, the screen and each button")
    st.add_argument("--board", choices=BOARDS, default="auto", help=BOARD_HELP)
    st.add_argument("--pinout", default=None, metavar="FILE", help=PINOUT_HELP)
    st.set_defaults(func=cmd_selftest)

    bench = sub.add_parser("bench", help="measure how fast the box is on this machine")
    bench.add_argument(
        "--games", type=int, default=200, help="bot games of each game to time (1 to 1,000,000)"
    )
    bench.add_argument("--json", action="store_true", help="print JSON")
    bench.add_argument(
        "--web",
        action="store_true",
        help="instead: a press to a frame with 7 phones and 50 TVs on this machine, with and "
        "without a flood of requests",
    )
    bench.add_argument(
        "--monkey",
        type=int,
        default=None,
        metavar="N",
        help="instead: N random presses, holds and chords on every game and the booth, "
        "each checked for a crash or a card shown to the wrong seat",
    )
    bench.add_argument("--seed", type=int, default=1, help="with --monkey: the same presses")
    bench.set_defaults(func=cmd_bench)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        args = parser(argv[0] if argv else None).parse_args(argv)
    except SystemExit as done:  # --help, or a usage mistake already told in one line
        return done.code if isinstance(done.code, int) else 0
    try:
        return args.func(args)
    except KeyboardInterrupt:
        return 130
    except CompanionError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
