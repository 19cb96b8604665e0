"""Whenever the package is built or installed: compiles the gettext catalogs (.po -> .mo) and
copies the repository's hardware files that the box and ``companion hardware`` read into the
package, so that a wheel carries every file they read (``hardware/`` stays the one source;
the copies are not committed). The box reads the pinout; ``companion hardware`` reads the
pinout, the panel layout beside it and the wiring, BOM and diagram it checks are up to date."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).parent
#: copied from hardware/ into companion/data/ (pyproject.toml's package data lists them)
HARDWARE = ("pinout.toml", "panel.toml", "wiring.md", "bom.md", "wiring.svg")


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for name in HARDWARE:
            shutil.copyfile(HERE / "hardware" / name, HERE / "companion" / "data" / name)
        for po in HERE.glob("companion/locale/*/LC_MESSAGES/*.po"):
            with po.open("rb") as source:
                catalog = read_po(source)
            with po.with_suffix(".mo").open("wb") as target:
                write_mo(target, catalog)
        super().run()


setup(cmdclass={"build_py": BuildWithCatalogs})
