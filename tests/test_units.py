"""What the two units promise together, as systemd reads them: the GPIO library can start
in the folders each gives it, they never run at once, and both give up after a crash loop.

The GPIO check imports the real ``lgpio`` (the PyPI wheel: the same Python as Raspberry Pi
OS's python3-lgpio; it imports anywhere, and only opening a chip needs a Pi) as a user who
may write only where the unit's sandbox lets the service write. Root writes anywhere, so a
root run drops its capabilities first (``setpriv``); any other user is held by the modes.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest

from companion.kiosk.safemode import FAILS
from tests.systemd_units import Unit, environment, last, names, with_drop_ins, writable

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "systemd" / "companion.service"
KIOSK = ROOT / "systemd" / "companion-kiosk.service"
UNITS = [TABLE, KIOSK]


def as_a_service_user() -> list[str]:
    """The prefix that runs a command without the power to write where its modes forbid."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("setpriv (util-linux) is required in CI to drop root's capabilities")
        pytest.skip("setpriv is not installed: root would write anywhere")
    return ["setpriv", "--bounding-set=-all", "--inh-caps=-all", "--no-new-privs"]


def needs_lgpio() -> None:
    """The test extra installs lgpio; missing, it fails in CI and skips elsewhere."""
    if importlib.util.find_spec("lgpio") is None:  # importing it would make a pipe here
        if os.environ.get("CI") == "true":
            pytest.fail("lgpio is required in CI: pip install -e '.[test]'")
        pytest.skip("lgpio is not installed (the test extra has it)")


def import_lgpio(unit: Unit, root: Path) -> subprocess.CompletedProcess[str]:
    """``import lgpio`` in the unit's working folder with its ``LG_WD``, the unit's paths laid
    out under ``root``: the folders its sandbox makes writable are the user's own (0700), every
    other one read-only (0555), as /opt/companion is."""
    allowed = writable(unit)
    env = environment(unit, root)
    work = PurePosixPath(last(unit, "Service", "WorkingDirectory", "/").lstrip("-"))
    wanted = [work] + ([PurePosixPath(env["LG_WD"])] if env.get("LG_WD") else [])
    for path in wanted:
        (root / path.relative_to("/")).mkdir(parents=True, exist_ok=True)
    for folder in sorted(root.rglob("*"), reverse=True):
        inside = PurePosixPath("/", folder.relative_to(root))
        free = any(inside == w or w in inside.parents for w in allowed)
        folder.chmod(0o700 if free else 0o555)
    if env.get("LG_WD"):
        env["LG_WD"] = str(root / env["LG_WD"].lstrip("/"))
    try:
        return subprocess.run(
            [*as_a_service_user(), sys.executable, "-I", "-c", "import lgpio"],
            cwd=root / work.relative_to("/"),
            env={"PATH": os.environ["PATH"], **env},
            capture_output=True,
            text=True,
        )
    finally:
        for folder in root.rglob("*"):
            if folder.is_dir():
                folder.chmod(0o700)


@pytest.mark.parametrize("path", UNITS, ids=lambda p: p.name)
def test_lgpio_imports_in_the_folders_the_unit_gives_it(path, tmp_path):
    needs_lgpio()
    done = import_lgpio(with_drop_ins(path), tmp_path)
    assert (done.returncode, done.stderr) == (0, "")


def test_the_check_fails_in_a_read_only_working_folder(tmp_path):
    """The units' old working folder, root's /opt/companion: the import fails as on a Pi."""
    needs_lgpio()
    unit = with_drop_ins(TABLE)
    unit["Service"]["WorkingDirectory"] = ["/opt/companion"]
    done = import_lgpio(unit, tmp_path / "old")
    assert done.returncode != 0 and "FileNotFoundError" in done.stderr
    assert ".lgd-nfy" in done.stderr
    unit = with_drop_ins(TABLE)
    unit["Service"]["Environment"].append("LG_WD=/opt/companion")  # lgpio moves into it
    done = import_lgpio(unit, tmp_path / "lg_wd")
    assert done.returncode != 0 and ".lgd-nfy" in done.stderr


@pytest.mark.parametrize("path", UNITS, ids=lambda p: p.name)
def test_the_sandbox_is_not_widened_for_it(path):
    unit = with_drop_ins(path)
    assert last(unit, "Service", "ProtectSystem") == "strict"
    assert unit["Service"]["ReadWritePaths"] == []
    assert [str(p) for p in writable(unit)] == [
        "/var/lib/companion",
        "/run/companion",
        "/tmp",
        "/var/tmp",
    ]
    assert not any(str(p).startswith("/opt") for p in writable(unit))


def test_the_table_and_the_kiosk_never_run_together():
    """Each unit names the other in ``Conflicts=``: starting either stops the other, even
    where only one of the two is installed (systemd adds the reverse only for units it has)."""
    table, kiosk = with_drop_ins(TABLE), with_drop_ins(KIOSK)
    assert KIOSK.name in names(table, "Unit", "Conflicts")
    assert TABLE.name in names(kiosk, "Unit", "Conflicts")


@pytest.mark.parametrize("path", UNITS, ids=lambda p: p.name)
def test_a_crash_loop_ends_with_the_unit_failed(path):
    """Restarts have a limit, and a crash loop reaches it: the restarts a burst needs fit
    well inside the interval; giving up does not reboot the box."""
    unit = with_drop_ins(path)
    interval = int(last(unit, "Unit", "StartLimitIntervalSec", "0"))  # unset: 10 s, never met
    burst = int(last(unit, "Unit", "StartLimitBurst", "0"))
    pause = float(last(unit, "Service", "RestartSec"))
    assert interval > 0 and 1 <= burst <= 10  # 0 would mean "restart forever"
    assert burst * pause < interval / 2 and pause >= 1
    assert not unit["Unit"]["StartLimitAction"]


def test_the_kiosk_reaches_its_safe_mode_before_the_limit():
    """The kiosk starts in safe mode after FAILS failed starts: the limit allows that start."""
    assert int(last(with_drop_ins(KIOSK), "Unit", "StartLimitBurst", "0")) >= FAILS + 1
