"""A wheel install runs the box: every file it reads ships inside the package.

The wheel is built from a copy of the sources (so the repository gets no build
folders) and installed, with its compiled bytecode, into a fresh virtual
environment that borrows only the dependencies from this one. The box then
plays a demo from there, outside the source tree, and must show exactly what
the source tree's box shows.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

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
