"""Compiles the gettext catalogs (.po -> .mo) whenever the package is built or installed."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in Path(__file__).parent.glob("companion/locale/*/LC_MESSAGES/*.po"):
            with po.open("rb") as source:
                catalog = read_po(source)
            with po.with_suffix(".mo").open("wb") as target:
                write_mo(target, catalog)
        super().run()


setup(cmdclass={"build_py": BuildWithCatalogs})
