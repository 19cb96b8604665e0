"""A wheel install runs the box: every file it reads ships inside the package.

The wheel is built from a copy of the sources (so the repository gets no build
folders) and installed, with its compiled bytecode, into a fresh virtual
environment that borrows only the dependencies from this one. The box then
plays a demo from there, outside the source tree, and must show exactly what
the source tree's box shows.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: what a build reads: the package, its metadata and licence, and the hardware files it copies in
SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "companion", "hardware")
#: what setup.py copies from hardware/ into the package: what `companion hardware` reads
HARDWARE = ("pinout.toml", "panel.toml", "wiring.md", "bom.md")
DEMO = ["demo", "gulag", "--players", "5", "--board", "virtual", "--headless", "--seed", "2"]


def run(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"{args} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def frames(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_wheel_install_runs_the_box(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "COMPANION_"))}
    env["COMPANION_DATA"] = str(tmp_path / "data")
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name)
        else:
            shutil.copyfile(ROOT / name, source / name)
    for generated in (*source.rglob("__pycache__"), *source.rglob("*.mo")):
        shutil.rmtree(generated) if generated.is_dir() else generated.unlink()
    for name in HARDWARE:  # the build makes these copies itself
        (source / "companion" / "data" / name).unlink(missing_ok=True)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    run(
        [
            *pip,
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            "dist",
            "./source",
        ],
        tmp_path,
        env,
    )
    (wheel,) = (tmp_path / "dist").glob("companion-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        licence = next(n for n in names if n.endswith("LICENSE") and ".dist-info/" in n)
        assert archive.read(licence) == (ROOT / "LICENSE").read_bytes()
        fonts = (ROOT / "companion" / "ui" / "fonts" / "OFL.txt").read_bytes()
        assert archive.read("companion/ui/fonts/OFL.txt") == fonts
        # every file the package keeps beside its code (fonts, catalogs, data, web pages)
        tracked = run(["git", "ls-files", "companion"], ROOT, env).split()
        assert {n for n in tracked if not n.endswith(".py")} <= set(names)

    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path, env)
    python = venv / "bin" / "python"
    site = Path(
        run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            tmp_path,
            env,
        ).strip()
    )
    # The dependencies (gpiozero, luma, Pillow) from this environment, after the wheel's own
    # package: a plain path line, so this environment's editable companion stays out.
    (site / "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    run(
        [*pip, "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)],
        tmp_path,
        env,
    )

    package = site / "companion"
    where = run([str(python), "-c", "import companion; print(companion.__file__)"], tmp_path, env)
    assert Path(where.strip()) == package / "__init__.py"
    for name in HARDWARE:
        assert (package / "data" / name).read_bytes() == (ROOT / "hardware" / name).read_bytes()
    compiled = {p.name.split(".")[0] for p in (package / "box" / "__pycache__").glob("*.pyc")}
    assert {p.stem for p in (package / "box").glob("*.py")} <= compiled  # bytecode at install

    installed = tmp_path / "installed"
    run(
        [str(venv / "bin" / "companion"), *DEMO, "--frames", str(installed), "--lang", "fr"],
        tmp_path,
        env,
    )
    tree = tmp_path / "tree"
    run(
        [sys.executable, "-m", "companion", *DEMO, "--frames", str(tree), "--lang", "fr"], ROOT, env
    )
    assert len(frames(installed)) > 20
    assert frames(installed) == frames(tree)

    # the hardware check reads the pinout, the panel layout, the wiring and the BOM
    checked = run([str(venv / "bin" / "companion"), "hardware"], tmp_path, env)
    assert checked.startswith(str(package / "data" / "pinout.toml")) and "up to date" in checked


#: the Pi that `make dist` packs for: Raspberry Pi OS 64-bit, Bookworm (CPython 3.11 on aarch64,
#: glibc 2.36: it runs manylinux wheels up to manylinux_2_36)
PI = ["--implementation", "cp", "--python-version", "3.11", "--abi", "cp311"]
PI += ["--platform", "manylinux2014_aarch64"]
PI += [arg for v in range(17, 37) for arg in ("--platform", f"manylinux_2_{v}_aarch64")]


def dist_archive(tmp_path: Path, env: dict[str, str]) -> Path:
    """The archive `make dist` wrote: CI builds it (a one-off fetch of the Pi's wheels from
    the package index); elsewhere the one in dist/, or the test skips saying so."""
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    name = f"companion-{version}.tar.gz"
    if os.environ.get("CI") == "true":
        # with this interpreter's pip, and never a reinstall of .venv while other tests run
        make = ["make", "-s", "-o", ".venv/.installed", "dist", f"DIST={tmp_path}"]
        run([*make, f"PY={sys.executable}"], ROOT, env)
        return tmp_path / name
    if not (ROOT / "dist" / name).is_file():
        pytest.skip(f"no dist/{name}: `make dist` makes it (CI=true builds it here)")
    return ROOT / "dist" / name


def test_the_dist_installs_on_the_pi_with_no_index(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_"))}
    env["PIP_CONFIG_FILE"] = os.devnull  # this machine's extra indexes and wheel folders out
    archive = dist_archive(tmp_path / "dist", env)
    unpacked = tmp_path / "pi"
    unpacked.mkdir()
    with tarfile.open(archive) as tar:
        tar.extractall(unpacked, filter="data")
    tree = unpacked / "companion"
    for name in ("Makefile", "pyproject.toml", "LICENSE", "systemd/companion.service"):
        assert (tree / name).is_file(), f"{archive} lacks {name}"
    project = tomllib.loads((tree / "pyproject.toml").read_text())
    wanted = [*project["project"]["dependencies"], *project["build-system"]["requires"]]
    house = tree / "wheelhouse"
    assert (house / "requirements.txt").read_text().split() == wanted
    report = tmp_path / "report.json"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", "install"]
    run(
        [
            *pip, "--dry-run", "--ignore-installed", "--report", str(report),
            "--no-index", "--find-links", str(house), "--only-binary=:all:", *PI,
            "-r", str(house / "requirements.txt"),
        ],
        tmp_path,
        env,
    )  # fmt: skip
    chosen = json.loads(report.read_text())["install"]
    names = {canonical(item["metadata"]["name"]) for item in chosen}
    assert {canonical(re.split(r"[<>=!~;\[ ]", w)[0]) for w in wanted} <= names
    for item in chosen:  # each wheel is one the Pi runs: pure Python, or built for aarch64
        wheel = item["download_info"]["url"].rsplit("/", 1)[-1]
        assert wheel.endswith("-none-any.whl") or "aarch64" in wheel, wheel
    assert not list(house.glob("pip-*")), "the Pi's pip stays as it came"


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
