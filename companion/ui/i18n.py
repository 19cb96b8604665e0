"""English and French for everything shown, through gettext catalogs.

English is the source language; ``locale/fr/LC_MESSAGES/companion.po`` is the
only copy of the French text and is compiled to ``.mo`` at install time
(``setup.py``), never committed compiled.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "fr")
DOMAIN = "companion"

Translate = Callable[[str], str]


def locale_dir() -> str:
    """The compiled catalogs, as files in the package (as the fonts: ``companion.ui.canvas``)."""
    return str(Path(__file__).resolve().parents[1] / "locale")


@cache
def translator(lang: str) -> Translate:
    """The function that turns an English message into ``lang``."""
    if lang not in LANGUAGES:
        raise ValueError(f"no language {lang!r} (languages: {', '.join(LANGUAGES)})")
    if lang == "en":
        return str
    import gettext  # English, the source, needs no catalog: a first frame in it loads none

    try:
        catalog = gettext.translation(DOMAIN, locale_dir(), languages=[lang])
    except FileNotFoundError:
        raise RuntimeError(
            f"the {lang} catalog is not compiled: reinstall the package (make test or pip install)"
        ) from None
    return catalog.gettext
