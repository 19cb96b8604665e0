"""The optional ui hooks' defaults, imported by the ui modules that have nothing better to say."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from companion.games import Decision
from companion.ui.canvas import Screen
from companion.ui.i18n import Translate

View = dict[str, Any]
ChoiceLabel = Callable[[Decision, View, Any, Translate], str]


def tracker(view: View, t: Translate) -> list[str]:
    """No track beyond the status line."""
    return []


def option_detail(decision: Decision, view: View, option: Any, t: Translate) -> str | None:
    """Nothing more to say about an option than its label."""
    return None


def open_check(decision: Decision, view: View, t: Translate) -> list[str] | None:
    """Every secret choice is asked seat by seat."""
    return None


def cards_label(cards: list[str]) -> str:
    """Cards by their names, as the game's views give them."""
    return ", ".join(cards)


def peek(view: View, t: Translate) -> Screen:
    """A game without private cards to read."""
    return Screen(t("Nothing to read"), (), t("Release to hide"))


def cursor_start(decision: Decision, options: tuple[Any, ...]) -> int:
    """The cursor starts on the first option (the first legal one)."""
    return 0


def opening(view: View, t: Translate) -> list[Screen]:
    """Nothing to lay out before the first decision."""
    return []


def label_by_option(option_label: Callable[[Any, Translate], str]) -> ChoiceLabel:
    """A ``choice_label`` for games whose options mean the same in every decision."""

    def choice_label(decision: Decision, view: View, option: Any, t: Translate) -> str:
        return option_label(option, t)

    return choice_label


def headers_wait(screens: list[Screen], early: str) -> list[Screen]:
    """Every reveal screen but the last keeps ``early``, the header of before the move, so
    that the header never tells a result before the screen that reveals it."""
    return [dataclasses.replace(s, status=early) for s in screens[:-1]] + screens[-1:]
