"""Every error a user can cause from the command line: one clear line and a non-zero exit."""

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
    from companion.games.glasnost_board import BoardError as board_error
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
