"""A refused move on the screen, written from its code and facts in the table's language.

A game refuses with an ``IllegalMove`` that carries a code, the rule it cites
and its facts (``companion.games.base``); each game's ui module holds the
screen's English text for every code of its game, a gettext message with the
facts as fields, and says how a fact is shown (a suit's sign, a ministry's
name). The engine's own sentence stays the log's and is never parsed. A
code with no screen text is a test failure (``tests/test_refusals.py``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from companion.errors import IllegalMove
from companion.ui.i18n import Translate

log = logging.getLogger(__name__)

Facts = dict[str, str | int]
#: a game's own way of showing its facts: the facts, in the table's language
ShowFacts = Callable[[Facts, Translate], Facts]

#: the screen's texts for the refusals of the contract itself, which every game shares
CONTRACT: dict[str, str] = {
    "over": "The game is over: nothing more can be played.",
    "no_seat": "There is no seat {seat} at a table of {players}.",
    "not_asked": "Seat {seat} is not asked now; the box waits for seat {waiting}.",
    "not_a_choice": "{choice} is not a choice now (choices: {choices}).",
}


def same_facts(facts: Facts, t: Translate) -> Facts:
    """Facts shown as they are (seat numbers, counts)."""
    return facts


def render(
    refused: IllegalMove, texts: Mapping[str, str], t: Translate, show: ShowFacts = same_facts
) -> str:
    """The screen's text for ``refused``: its code's text in the table's language, with the
    facts as the game shows them. A code without a text (a test fails on it first) is shown
    in the game's own English words, and said in the log."""
    text = texts.get(refused.code) or CONTRACT.get(refused.code)
    if text is None:
        log.error("no screen text for the refusal %r", refused.code)
        return str(refused)
    return t(text).format(**show(refused.facts, t))
