"""Every error a user can cause from the command line: one clear line and a non-zero exit."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.box.board import on_a_pi
from companion.cli import main
from companion.errors import (
    BoardError,
    CompanionError,
    HardwareError,
    IllegalMove,
    JournalError,
    PinoutError,
    SettingsError,
)

ROOT = Path(__file__).resolve().parents[1]


def one_line(capsys, argv):
    """Run ``companion argv``; its exit code and the one line it wrote to stderr."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and err.startswith("companion: "), err
    assert "Traceback" not in out + err
    return code, err.removeprefix("companion: ").strip()


def command(argv, **env):
    """``python -m companion argv`` in a process of its own: its exit code and stderr lines."""
    done = subprocess.run(
        [sys.executable, "-m", "companion", *argv],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stderr.splitlines()


def test_every_error_has_one_root_and_keeps_its_builtin():
    for error, builtin in [
        (IllegalMove, ValueError),
        (SettingsError, ValueError),
        (BoardError, ValueError),
        (PinoutError, ValueError),
        (HardwareError, OSError),
        (JournalError, RuntimeError),
    ]:
        assert issubclass(error, CompanionError) and issubclass(error, builtin)
    # Imports from where they were first defined still work.
    from companion.box.pinout import PinoutError as pinout_error
    from companion.games.glasnost.board import BoardError as board_error
    from companion.store import JournalError as journal_error

    assert (pinout_error, board_error, journal_error) == (PinoutError, BoardError, JournalError)


@pytest.mark.skipif(on_a_pi(), reason="a Pi has GPIO")
def test_no_gpio_access_is_one_line():
    code, err = command(["run", "--board", "pi", "--no-journal"], GPIOZERO_PIN_FACTORY="")
    assert code == 2
    assert len(err) == 1 and err[0].startswith("companion: no GPIO access"), err
    assert "--board virtual" in err[0]


@pytest.mark.skipif(Path("/dev/i2c-1").exists(), reason="this machine has an I2C bus 1")
def test_no_i2c_bus_is_one_line_that_says_how_to_turn_it_on():
    # gpiozero's own mock pins stand in for the Pi's, so the board gets as far as the bus.
    code, err = command(
        ["selftest", "--board", "pi"],
        GPIOZERO_PIN_FACTORY="mock",
        GPIOZERO_MOCK_PIN_CLASS="mockpwmpin",
    )
    assert code == 2
    assert err == [
        "companion: no I2C bus /dev/i2c-1: turn I2C on (sudo raspi-config nonint do_i2c 0) "
        "and reboot, or run off the box with --board virtual"
    ]


@pytest.mark.parametrize(
    "path, says",
    [
        ("/proc/nope/journal.sqlite", "cannot create the journal's folder /proc/nope"),
        ("{tmp}", "cannot open the journal {tmp}"),  # a folder, not a file
    ],
)
def test_a_journal_that_cannot_be_written_is_one_line(capsys, tmp_path, path, says):
    path = path.format(tmp=tmp_path)
    code, err = one_line(capsys, ["run", "--board", "virtual", "--headless", "--journal", path])
    assert code == 2 and err.startswith(says.format(tmp=tmp_path))


@pytest.mark.parametrize(
    "argv, says",
    [
        (["run", "--game", "kolkhoz", "--players", "5"], "Kolkhoz is for exactly 4 players, not 5"),
        (["run", "--game", "gulag", "--players", "3"], "Gulag is for 5 to 10 players, not 3"),
        (["demo", "kolkhoz", "--players", "3"], "Kolkhoz is for exactly 4 players, not 3"),
        (["demo", "glasnost", "--players", "13"], "Glasnost is for 4 to 12 players, not 13"),
        (["simulate", "politburo", "--players", "4"], "Politburo is for 5 to 10 players, not 4"),
    ],
)
def test_a_wrong_player_count_gives_the_range_in_words(capsys, argv, says):
    code, err = one_line(capsys, [*argv, "--headless"] if argv[0] != "simulate" else argv)
    assert (code, err) == (2, says)


@pytest.mark.parametrize(
    "argv, says",
    [
        (
            ["run", "--journal", "j.sqlite", "--no-journal"],
            "--journal and --no-journal do not go together: keep one",
        ),
        (
            ["run", "--players", "5"],
            "--players needs --game (without it the box asks at its setup screen)",
        ),
        (
            ["run", "--option", "deal=cards"],
            "--option needs --game (without it the box asks at its setup screen)",
        ),
        (
            ["demo", "gulag", "--board", "pi"],
            "the demo presses buttons by software: it runs on --board virtual only",
        ),
        (
            ["demo", "gulag", "--option", "deal=dice"],
            "gulag option deal must be one of box, cards, not 'dice'",
        ),
        (["demo", "gulag", "--option", "deal"], "--option takes KEY=VALUE, not 'deal'"),
        (
            ["demo", "kolkhoz", "--option", "vote=count"],
            "kolkhoz has no option 'vote' (options: deal)",
        ),
    ],
)
def test_options_that_do_not_go_together_are_refused_before_anything_opens(
    capsys, tmp_path, monkeypatch, argv, says
):
    monkeypatch.chdir(tmp_path)
    code, err = one_line(capsys, [*argv, "--headless"])
    assert (code, err) == (2, says)
    assert list(tmp_path.iterdir()) == []  # no journal was created


def test_a_bus_without_its_oled_says_so_and_frees_the_pins():
    import errno

    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.box.board import Board
    from companion.box.pinout import load_pinout

    class Silent:
        """An I2C bus on which nothing answers at the OLED's address."""

        def command(self, *codes):
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

        data = command

    class BareBus(Board):
        def _oled_interface(self):
            return Silent()

    factory = MockFactory(pin_class=MockPWMPin)
    try:
        for _ in range(2):  # the second time finds the pins free again
            with pytest.raises(HardwareError) as failure:
                BareBus(load_pinout(), factory)
            assert str(failure.value) == (
                "no OLED answers at 0x3c on I2C bus 1 (Remote I/O error): "
                "check its wiring against hardware/wiring.md"
            )
    finally:
        factory.close()


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("8080", "--web takes HOST:PORT"),
        ("127.0.0.1:", "--web takes HOST:PORT"),
        ("127.0.0.1:99999", "--web takes HOST:PORT"),
        (
            "wlan-nowhere:8080",
            "--web: 'wlan-nowhere' is neither an address nor a network interface",
        ),
    ],
)
def test_a_web_address_that_cannot_be_is_one_line(capsys, spec, says):
    code, err = one_line(capsys, ["run", "--board", "virtual", "--no-journal", "--web", spec])
    assert code == 2 and err.startswith(says), err


def test_without_aiohttp_the_web_is_one_line_not_a_traceback():
    script = (
        "import sys; sys.modules['aiohttp'] = None; from companion.cli import main; "
        "sys.exit(main(['run', '--board', 'virtual', '--headless', '--no-journal', "
        "'--web', '127.0.0.1:8080']))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        "companion: --web needs aiohttp, which is not installed: reinstall the package "
        "(make install)"
    ]


# -- the hostile probe: every bad value ends in one line, status 2, within 5 s ----------------
class TooSlow(Exception):
    pass


def within_five_seconds(run):
    """``run()``, interrupted if it takes over 5 s (a FIFO or a device read would hang)."""
    import signal

    def stop(signum, frame):
        raise TooSlow

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, 5.0)
    try:
        return run()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture
def hostile(tmp_path):
    """Files a hostile probe names: a folder, a FIFO, a plain file, a non-database, deep and
    huge JSON, a journal the kiosk wrote."""
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "file.txt").write_text("hello\n")
    (tmp_path / "notdb.sqlite").write_text("not a database\n")
    (tmp_path / "deep.json").write_text("[" * 3000 + "]" * 3000)
    (tmp_path / "huge.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "bignum.json").write_text('{"name": "x", "crises": [' + "9" * 5000 + "]}")
    (tmp_path / "deep.toml").write_text("a = " + "[" * 5000 + "]" * 5000)
    (tmp_path / "quotes.json").write_text('"' + '\\"' * 30_000)  # unclosed, escaped quotes
    return tmp_path


HOSTILE = [
    (["run", "--pinout", "{tmp}/folder"], "{tmp}/folder is a directory, not a pinout file"),
    (["run", "--pinout", "{tmp}/fifo"], "{tmp}/fifo is a FIFO, not a pinout file"),
    (["run", "--pinout", "/dev/urandom"], "/dev/urandom is a device, not a pinout file"),
    (["hardware", "--pinout", "{tmp}/deep.toml"], "{tmp}/deep.toml nests deeper than a pinout"),
    (["selftest", "--board", "virtual", "--pinout", "{tmp}/folder"], "{tmp}/folder is a dir"),
    (["demo", "gulag", "--frames", "{tmp}/file.txt"], "{tmp}/file.txt is a file, not a folder"),
    (["demo", "gulag", "--frames", "{tmp}/fifo"], "{tmp}/fifo is a FIFO, not a folder"),
    (
        ["demo", "gulag", "--frames", "/proc/nope/frames"],
        "cannot write the frames folder /proc/nope/frames: No such file or directory",
    ),
    (["stats", "--journal", "{tmp}/notdb.sqlite"], "cannot read the statistics in {tmp}/notdb"),
    (["stats", "--journal", "{tmp}/folder"], "{tmp}/folder is a directory, not a journal"),
    (["stats", "--journal", "{tmp}/fifo"], "{tmp}/fifo is a FIFO, not a journal"),
    (["stats", "--journal", "/dev/urandom"], "/dev/urandom is a device, not a journal"),
    (["stats", "--date", "garbage"], "--date takes a day as YYYY-MM-DD"),
    (["stats", "--date", "2026-13-45"], "--date takes a day as YYYY-MM-DD"),
    (["kiosk", "--day", "inf"], "--day takes hours above 0 and at most 24, not inf"),
    (["kiosk", "--day", "nan"], "--day takes hours above 0 and at most 24, not nan"),
    (["kiosk", "--day", "-1"], "--day takes hours above 0 and at most 24, not -1"),
    (["kiosk", "--day", "0"], "--day takes hours above 0 and at most 24, not 0"),
    (["kiosk", "--day", "1e308"], "--day takes hours above 0 and at most 24, not 1e+308"),
    (["simulate", "gulag", "--games", "10000000000000"], "--games must be from 1 to 1,000,000"),
    (["bench", "--games", "10000000000000"], "--games must be from 1 to 1,000,000"),
    (["bench", "--games", "-1"], "--games must be from 1 to 1,000,000, not -1"),
    (["bench", "--games", "0", "--web"], "--games must be from 1 to 1,000,000, not 0"),
    (["simulate", "gulag", "--games", "0"], "--games must be from 1 to 1,000,000, not 0"),
    (
        ["kiosk", "--board", "virtual", "--headless", "--journal", "/proc/self/no/j.sqlite"],
        "cannot create the journal's folder /proc/self/no",
    ),
    (["simulate", "glasnost", "--option", "board={tmp}/deep.json"], "{tmp}/deep.json nests"),
    (["simulate", "glasnost", "--option", "board={tmp}/huge.json"], "{tmp}/huge.json is too la"),
    (
        ["simulate", "glasnost", "--option", "board={tmp}/bignum.json"],
        "{tmp}/bignum.json: a board number has 5000 digits (at most 9)",
    ),
    (
        ["simulate", "glasnost", "--option", "board={tmp}/quotes.json"],
        "{tmp}/quotes.json is not valid JSON: Unterminated string",
    ),
    (["demo", "glasnost", "--option", "board=/dev/urandom"], "/dev/urandom is a device, not a b"),
    (["run", "--game", "glasnost", "--option", "board={tmp}/fifo"], "{tmp}/fifo is a FIFO, not"),
    (["board", "glasnost", "--svg", "{tmp}/fifo"], "{tmp}/fifo is a FIFO, not a SVG file"),
    (["board", "glasnost", "--svg", "{tmp}/x.svg", "--board", "/dev/zero"], "/dev/zero is a de"),
    (["simulate", "gulag", "--players", "x"], "argument --players: invalid int value: 'x'"),
    (["kiosk", "--day", "x"], "argument --day: invalid float value: 'x'"),
    (["run", "--lang", "de"], "argument --lang: invalid choice: 'de'"),
    (["nonsense"], "argument command: invalid choice: 'nonsense'"),
    ([], "the following arguments are required: command"),
]


@pytest.mark.parametrize("argv, says", HOSTILE, ids=[" ".join(a) or "(none)" for a, _ in HOSTILE])
def test_every_mistake_of_the_hostile_probe_is_one_line_within_five_seconds(
    capsys, hostile, monkeypatch, argv, says
):
    monkeypatch.chdir(hostile)
    monkeypatch.setenv("COMPANION_DATA", str(hostile / "data"))
    argv = [a.format(tmp=hostile) for a in argv]
    if argv and argv[0] in ("run", "kiosk", "demo"):
        argv += ["--board", "virtual", "--headless"]
    if argv and argv[0] == "run":
        argv.append("--no-journal")
    code, err = within_five_seconds(lambda: one_line(capsys, argv))
    assert code == 2 and err.startswith(says.format(tmp=hostile)), err


def test_a_good_date_and_the_simulated_days_name_are_taken(capsys, tmp_path):
    import sqlite3

    from companion.kiosk.daystats import SIM_DAY, Ledger

    path = tmp_path / "journal.sqlite"
    db = sqlite3.connect(path)
    Ledger(db, today=lambda: SIM_DAY).add_presses(7)
    db.commit()
    db.close()
    for date, presses in (("2026-11-26", 0), (SIM_DAY, 7)):
        assert main(["stats", "--journal", str(path), "--date", date, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["presses"] == presses


# -- a run with nobody to see it, a game in progress ------------------------------------------
@pytest.mark.parametrize("argv", [["run", "--board", "virtual"], ["kiosk", "--board", "virtual"]])
def test_without_a_terminal_the_virtual_box_says_so_unless_headless(tmp_path, argv):
    done = subprocess.run(
        [sys.executable, "-m", "companion", *argv],
        cwd=ROOT,
        env={**os.environ, "COMPANION_DATA": str(tmp_path)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "companion: no terminal to show the virtual box in: run it in a terminal, "
        "or add --headless to run it without one"
    ]
    assert list(tmp_path.iterdir()) == []  # no journal, no game set up for the next run


def test_the_service_units_pass_headless():
    for unit in (ROOT / "systemd").glob("*.service"):
        (start,) = [line for line in unit.read_text().splitlines() if line.startswith("ExecStart")]
        assert "--headless" in start.split(), unit.name


def test_run_game_never_throws_away_a_game_in_progress(capsys, tmp_path):
    from companion.box import VirtualClock, open_box
    from companion.store import Journal
    from companion.table import Settings, Table
    from companion.table.resume import resume

    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    box = open_box("virtual", clock=VirtualClock())
    try:
        Table(box, seed=1, journal=journal).start(Settings("politburo", 6, "en"))
    finally:
        box.close()
        journal.close()
    argv = ["run", "--board", "virtual", "--headless", "--journal", str(path), "--game", "gulag"]
    code, err = one_line(capsys, argv)
    assert code == 2
    assert err == (
        f"a game of Politburo is in progress in {path}: run without --game to carry it on "
        "(hold Back there to abandon it), or add --no-journal to play this one unsaved"
    )
    journal = Journal(path)
    try:
        saved = resume(journal)
        assert saved is not None and saved.game.name == "politburo" and saved.game.players == 6
    finally:
        journal.close()
