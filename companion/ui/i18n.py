"""English and French for everything shown, through gettext catalogs.

English is the source language; ``locale/fr/LC_MESSAGES/companion.po`` is the
house's French text, and a game folder may hold its own words in its own catalog
(``games/<game>/locale/fr/LC_MESSAGES/companion.po``), so that a game arrives as
one folder. Each is compiled to ``.mo`` at install time (``setup.py``), never
committed compiled; the house's catalog is read first, the folders' after it.
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


def folder_locale_dirs() -> list[str]:
    """The catalogs game folders hold (``games/<game>/locale``), in a steady order."""
    games = Path(__file__).resolve().parents[1] / "games"
    return [str(found) for found in sorted(games.glob("*/locale")) if found.is_dir()]


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
        for folder in folder_locale_dirs():  # a game's own words, asked when the house has none
            catalog.add_fallback(gettext.translation(DOMAIN, folder, languages=[lang]))
    except FileNotFoundError:
        raise RuntimeError(
            f"the {lang} catalog is not compiled: reinstall the package (make test or pip install)"
        ) from None
    return catalog.gettext


def language_of(t: Translate) -> str:
    """The language code of a translator ``translator`` made (one per code: it is cached);
    any other (a test's) is taken for the source language."""
    return next((lang for lang in LANGUAGES if translator(lang) is t), "en")
