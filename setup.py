"""Whenever the package is built or installed: compiles the gettext catalogs (.po -> .mo) and
copies the repository's pinout into the package, so that a wheel carries every file the box
reads (``hardware/pinout.toml`` stays the one source; the copy is not committed)."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).parent


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        shutil.copyfile(
            HERE / "hardware" / "pinout.toml", HERE / "companion" / "data" / "pinout.toml"
        )
        catalogs = [*HERE.glob("companion/locale/*/LC_MESSAGES/*.po")]
        catalogs += HERE.glob("companion/games/*/locale/*/LC_MESSAGES/*.po")  # a game's own
        for po in catalogs:
            with po.open("rb") as source:
                catalog = read_po(source)
            with po.with_suffix(".mo").open("wb") as target:
                write_mo(target, catalog)
        super().run()


setup(cmdclass={"build_py": BuildWithCatalogs})
