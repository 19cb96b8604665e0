"""The kiosk's systemd unit and polkit rule, and its commands."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
KIOSK = ROOT / "systemd" / "companion-kiosk.service"
TABLE = ROOT / "systemd" / "companion.service"
INSTALLED = "/opt/companion/.venv/bin/companion"


def systemd_analyze() -> str:
    """The tool's path; under CI=true a missing tool fails the test, elsewhere it skips."""
    path = shutil.which("systemd-analyze")
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("systemd-analyze is missing: make tools installs it")
        pytest.skip("systemd-analyze is not installed")
    return path


def unit_here(tmp_path: Path) -> Path:
    command = Path(sys.executable).with_name("companion")
    path = tmp_path / KIOSK.name
    path.write_text(KIOSK.read_text().replace(INSTALLED, str(command)))
    return path


def settings(path: Path) -> dict[str, str]:
    """Each setting line of a unit, with the comment lines just above it."""
    out, comments = {}, []
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            comments.append(line)
        elif "=" in line:
            out[line] = "\n".join(comments)
            comments = []
        else:
            comments = []
    return out


def test_systemd_analyze_verify_says_nothing(tmp_path):
    out = subprocess.run(
        [systemd_analyze(), "verify", str(unit_here(tmp_path))], capture_output=True, text=True
    )
    assert (out.returncode, out.stdout + out.stderr) == (0, "")


def test_the_kiosk_is_hardened_to_at_most_two(tmp_path):
    out = subprocess.run(
        [systemd_analyze(), "security", "--offline=yes", str(unit_here(tmp_path))],
        capture_output=True,
        text=True,
    )
    line = next(x for x in out.stdout.splitlines() if "Overall exposure level" in x)
    assert float(line.split(":")[1].split()[0]) <= 2.0, line


def test_every_setting_that_differs_from_the_table_service_says_why():
    table = settings(TABLE)
    for line, comment in settings(KIOSK).items():
        key = line.split("=")[0]
        if line in table or key in ("Description", "ExecStart"):
            continue
        assert "Differs" in comment or "\n" in comment, f"{line}: no reason given"


def test_the_kiosk_starts_the_kiosk_and_restarts():
    text = KIOSK.read_text()
    assert f"ExecStart={INSTALLED} kiosk --board pi" in text
    assert "Restart=always" in text  # within the start limit (tests/test_units.py)


def test_the_polkit_rule_grants_power_off_and_reboot_to_the_kiosk_user_only():
    rule = (ROOT / "systemd" / "50-companion-kiosk.rules").read_text()
    actions = {a for a in rule.split('"') if a.startswith("org.freedesktop.")}
    assert actions == {
        "org.freedesktop.login1.power-off",
        "org.freedesktop.login1.power-off-multiple-sessions",
        "org.freedesktop.login1.reboot",
        "org.freedesktop.login1.reboot-multiple-sessions",
    }
    assert 'subject.user === "companion"' in rule


def companion(*args, cwd=ROOT):
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], capture_output=True, text=True, cwd=cwd
    )


def test_kiosk_day_prints_json_and_stats_reads_the_same_from_the_journal(tmp_path):
    journal = tmp_path / "journal.sqlite"
    out = companion(
        "kiosk", "--board", "virtual", "--headless", "--day", "0.2", "--seed", "2",
        "--journal", str(journal), "--json",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    stats = companion("stats", "--journal", str(journal), "--date", "booth day", "--json")
    assert stats.returncode == 0, stats.stderr
    assert json.loads(stats.stdout) == report["stats"]


def test_stats_without_a_journal_is_one_line(tmp_path):
    out = companion("stats", "--journal", str(tmp_path / "none.sqlite"))
    assert out.returncode != 0 and len(out.stderr.strip().splitlines()) == 1
