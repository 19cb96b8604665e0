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

from tests.systemd_units import command_line, environment, last, read, with_drop_ins

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "systemd" / "companion.service"
INSTALLED = "/opt/companion/.venv/bin/companion"


@pytest.fixture
def needs_systemd():
    """systemd-analyze, which the set-up installs: missing fails in CI, skips elsewhere."""
    if shutil.which("systemd-analyze") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("systemd-analyze is required in CI and is not installed")
        pytest.skip("systemd-analyze is not installed")


def unit_here(tmp_path, text=None):
    """The unit with its ExecStart pointed at this checkout's command, so that
    `verify` (which checks the program exists) judges the rest of the unit."""
    command = Path(sys.executable).with_name("companion")
    assert command.exists()
    path = tmp_path / "companion.service"
    path.write_text((text or UNIT.read_text()).replace(INSTALLED, str(command)))
    return path


@pytest.mark.usefixtures("needs_systemd")
def test_systemd_analyze_verify_says_nothing(tmp_path):
    assert INSTALLED in UNIT.read_text()
    out = subprocess.run(
        ["systemd-analyze", "verify", str(unit_here(tmp_path))], capture_output=True, text=True
    )
    assert (out.returncode, out.stdout + out.stderr) == (0, "")


@pytest.mark.usefixtures("needs_systemd")
def test_verify_would_catch_a_typo(tmp_path):
    """verify exits 0 on unknown keys: what it prints is what counts."""
    broken = unit_here(tmp_path, UNIT.read_text().replace("Restart=always", "Restrt=always"))
    out = subprocess.run(["systemd-analyze", "verify", str(broken)], capture_output=True, text=True)
    assert out.returncode == 0 and "Unknown key 'Restrt'" in out.stdout + out.stderr


@pytest.mark.usefixtures("needs_systemd")
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


WEB = ROOT / "systemd" / "companion.service.d" / "web.conf"


def with_web(tmp_path, drop_in=None):
    """The unit and its web drop-in side by side, as systemd finds them, both pointed at
    this checkout's command."""
    tmp_path.mkdir(exist_ok=True)
    path = unit_here(tmp_path)
    folder = tmp_path / "companion.service.d"
    folder.mkdir()
    command = str(Path(sys.executable).with_name("companion"))
    (folder / WEB.name).write_text((drop_in or WEB.read_text()).replace(INSTALLED, command))
    return path


@pytest.mark.usefixtures("needs_systemd")
def test_the_web_drop_in_verifies_and_is_read(tmp_path):
    out = subprocess.run(
        ["systemd-analyze", "verify", str(with_web(tmp_path))], capture_output=True, text=True
    )
    assert (out.returncode, out.stdout + out.stderr) == (0, "")
    typo = WEB.read_text().replace("PrivateNetwork=no", "PrivateNetwrk=no")
    out = subprocess.run(
        ["systemd-analyze", "verify", str(with_web(tmp_path / "typo", typo))],
        capture_output=True,
        text=True,
    )
    assert "Unknown key 'PrivateNetwrk'" in out.stdout + out.stderr  # the drop-in was read


@pytest.mark.usefixtures("needs_systemd")
def test_the_service_with_the_web_stays_hardened(tmp_path):
    out = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(with_web(tmp_path))],
        capture_output=True,
        text=True,
    )
    report = out.stdout
    line = next(x for x in report.splitlines() if "Overall exposure level" in x)
    assert float(line.split(":")[1].split()[0]) <= 2.0, line  # 1.6 here, README says so
    assert "✗ PrivateNetwork=" in report  # the drop-in took effect: the network is open


def test_the_web_drop_in_changes_only_what_the_web_needs():
    keys = [
        line.split("=")[0]
        for line in WEB.read_text().splitlines()
        if "=" in line and not line.startswith("#")
    ]
    needed = {"Environment", "PrivateNetwork", "RestrictAddressFamilies", "IPAddressAllow"}
    assert set(keys) == needed  # not ExecStart: the unit's command line stays whole
    text = WEB.read_text()
    assert "--web wlan0:8080" in text and "AF_NETLINK" in text and "IPAddressDeny" not in keys


README = ROOT / "README.md"
#: what README.md has a table's owner write to give the service its pads
OWNER_ARGS = "COMPANION_ARGS=--handset /dev/ttyACM0 --handset /dev/ttyACM1"


def effective_command(tmp_path, *drop_ins: tuple[str, str]) -> list[str]:
    """The table unit's command line with the web drop-in, any further drop-ins
    (name, text), and the owner's /etc/default/companion as the README writes it."""
    folder = tmp_path / "companion.service.d"
    folder.mkdir(parents=True)
    shutil.copy(WEB, folder / WEB.name)
    for name, text in drop_ins:
        (folder / name).write_text(text)
    (tmp_path / "etc" / "default").mkdir(parents=True)
    (tmp_path / "etc" / "default" / "companion").write_text(f"# the pads\n{OWNER_ARGS}\n")
    unit = with_drop_ins(UNIT, folder)
    return command_line(unit, environment(unit, tmp_path))


def test_pads_and_the_web_together_keep_every_flag(tmp_path):
    assert f"    {OWNER_ARGS}\n" in README.read_text()  # the README's way, word for word
    args = effective_command(tmp_path)
    assert args == [
        INSTALLED, "run", "--board", "pi", "--headless", "--web", "wlan0:8080",
        "--handset", "/dev/ttyACM0", "--handset", "/dev/ttyACM1",
    ]  # fmt: skip
    # an owner's own override of other settings changes none of it
    assert effective_command(tmp_path / "more", ("override.conf", "[Service]\nNice=5\n")) == args


def test_a_drop_in_that_resets_the_command_would_drop_flags(tmp_path):
    """The merge honours systemd's reset: the old way (a drop-in with ``ExecStart=`` and a
    whole new line, sorted after the owner's) loses the pads without a word."""
    command = f"{INSTALLED} run --board pi --headless --web wlan0:8080"
    old_web = f"[Service]\nExecStart=\nExecStart={command}\n"
    args = effective_command(tmp_path, ("web.conf", old_web))
    assert "--web" in args and "--handset" not in args


def test_without_the_owner_file_or_the_web_the_command_is_the_plain_one(tmp_path):
    unit = read([UNIT])
    assert command_line(unit, environment(unit, tmp_path)) == [
        INSTALLED, "run", "--board", "pi", "--headless",
    ]  # fmt: skip


def test_the_file_limit_is_set_and_the_web_stays_under_it():
    from companion.web.guard import IN_FLIGHT, RESERVED_FILES, connection_cap

    limit = int(last(read([UNIT]), "Service", "LimitNOFILE"))
    assert limit == 1024
    assert "LimitNOFILE=1024" in (ROOT / "systemd" / "companion-kiosk.service").read_text()
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
    try:
        assert connection_cap() == limit - RESERVED_FILES - IN_FLIGHT
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
