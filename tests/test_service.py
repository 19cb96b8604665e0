"""The kiosk's systemd unit, checked by systemd's own tools, and the notify protocol."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "companion.service"
INSTALLED = "/opt/companion/.venv/bin/companion"

needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed"
)


def unit_here(tmp_path, text=None):
    """The unit with its ExecStart pointed at this checkout's command, so that
    `verify` (which checks the program exists) judges the rest of the unit."""
    command = Path(sys.executable).with_name("companion")
    assert command.exists()
    path = tmp_path / "companion.service"
    path.write_text((text or UNIT.read_text()).replace(INSTALLED, str(command)))
    return path


@needs_systemd
def test_systemd_analyze_verify_says_nothing(tmp_path):
    assert INSTALLED in UNIT.read_text()
    out = subprocess.run(
        ["systemd-analyze", "verify", str(unit_here(tmp_path))], capture_output=True, text=True
    )
    assert (out.returncode, out.stdout + out.stderr) == (0, "")


@needs_systemd
def test_verify_would_catch_a_typo(tmp_path):
    """verify exits 0 on unknown keys: what it prints is what counts."""
    broken = unit_here(tmp_path, UNIT.read_text().replace("Restart=always", "Restrt=always"))
    out = subprocess.run(["systemd-analyze", "verify", str(broken)], capture_output=True, text=True)
    assert out.returncode == 0 and "Unknown key 'Restrt'" in out.stdout + out.stderr


@needs_systemd
def test_the_service_is_hardened(tmp_path):
    out = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(unit_here(tmp_path))],
        capture_output=True,
        text=True,
    )
    line = next(x for x in out.stdout.splitlines() if "Overall exposure level" in x)
    level = float(line.split(":")[1].split()[0])
    assert level <= 1.5, line


def test_the_unit_restarts_and_watches():
    text = UNIT.read_text()
    for setting in ("Type=notify", "WatchdogSec=", "Restart=always", "StateDirectory=companion"):
        assert setting in text


def test_ready_and_watchdog_reach_the_notify_socket(tmp_path):
    address = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(address)
    sock.settimeout(0.2)
    env = {
        **os.environ,
        "NOTIFY_SOCKET": address,
        "WATCHDOG_USEC": "200000",
        "COMPANION_DATA": str(tmp_path / "data"),
    }
    env.pop("WATCHDOG_PID", None)
    box = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--board", "virtual", "--headless"],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    got = []
    try:
        end = time.monotonic() + 30
        while time.monotonic() < end and got.count("WATCHDOG=1") < 3:
            try:
                got.append(sock.recv(256).decode())
            except TimeoutError:
                continue
        box.send_signal(signal.SIGTERM)
        assert box.wait(timeout=10) == 0
        while True:
            try:
                got.append(sock.recv(256).decode())
            except TimeoutError:
                break
    finally:
        box.kill()
        sock.close()
    assert got[0].startswith("READY=1")
    assert got.count("WATCHDOG=1") >= 3
    assert got[-1] == "STOPPING=1"
