"""The hooks every game's ui module provides, as a typed protocol.

The table, the setup screens and the tests reach a game's screens only
through these names. Optional hooks have a default in ``companion.ui.defaults``
that a ui module imports (and so re-exports) when it has nothing better to
say; each game folder binds its screens to a name typed ``GameUI`` (for the
type checker only), so mypy holds every game's module to this protocol.
"""

from __future__ import annotations

from typing import Any, Protocol

from companion.games import Choice, Decision, IllegalMove
from companion.ui.canvas import Screen
from companion.ui.i18n import Translate

View = dict[str, Any]


class GameUI(Protocol):
    """A game's screens, drawn from its views only."""

    #: the game's name on the setup screen
    TITLE: str
    #: setup rows: option -> values, the first the default ("players" first), from the
    #: engine's declared options (``companion.ui.settings.setup_rows``)
    SETTINGS: dict[str, tuple[Any, ...]]
    #: the screen's English text (a catalog message with the facts as fields) for each
    #: refusal code of the game; the contract's own are in ``companion.ui.refusals``
    REFUSALS: dict[str, str]

    def setting_label(self, key: str, t: Translate) -> str: ...

    def setting_value(self, key: str, value: Any, t: Translate) -> str: ...

    def status(self, view: View, t: Translate) -> str:
        """The top line: turn, score."""
        ...

    def bar(self, view: View) -> int:
        """LEDs lit on the bar, 0-10."""
        ...

    def role_of(self, decision: Decision, view: View, t: Translate) -> str:
        """What the seat asked is about to do (hand-over screen), naming what is at stake
        when the public view says (Politburo's ministry, Glasnost's crisis)."""
        ...

    def tracker(self, view: View, t: Translate) -> list[str]:
        """More lines for the hand-over screen, for a track the status line has no room for."""
        ...

    def prompt(self, decision: Decision, view: View, t: Translate) -> list[str]:
        """Up to three lines that name the seat and the question (a multi-pick: its picks)."""
        ...

    def candidates(self, decision: Decision, view: View) -> list[Any]:
        """What the cursor runs through for an open choice; refused values may be among
        them, so that the refusal is explained (the table puts the legal ones first)."""
        ...

    def option_label(self, option: Any, t: Translate) -> str: ...

    def choice_label(self, decision: Decision, view: View, option: Any, t: Translate) -> str:
        """The cursor's label (and the log's), when a value means different things in
        different decisions."""
        ...

    def option_detail(
        self, decision: Decision, view: View, option: Any, t: Translate
    ) -> str | None:
        """One line about the option under the cursor, or None."""
        ...

    def cursor_start(self, decision: Decision, options: tuple[Choice, ...]) -> int:
        """Where the cursor starts among ``options`` (the table's order, legal ones first)."""
        ...

    def opening(self, view: View, t: Translate) -> list[Screen]:
        """Screens the table reads before the first decision (what setup lays out)."""
        ...

    def choice_buttons(self, decision: Decision) -> tuple[Choice, Choice] | None:
        """The two options on the A and B buttons for a secret choice, or None."""
        ...

    def open_check(self, decision: Decision, view: View, t: Translate) -> list[str] | None:
        """The countdown's lines when this secret decision, put to every seat, counts only for
        seats nobody knows and is asked in the open (``companion.table.countdown``: a seat
        that does not claim answers the decision's last option); else None."""
        ...

    def cards_label(self, cards: list[str]) -> str:
        """Cards as the game writes them: a private hand on a phone's page."""
        ...

    def peek(self, view: View, t: Translate) -> Screen:
        """The private screen shown while PEEK is held, on a decision of kind "peek" and at
        the seat's own prompt (``view`` is that seat's own)."""
        ...

    def refusal(self, refused: IllegalMove, t: Translate) -> str:
        """The game's refusal as shown, written from its code and facts (translated, still
        naming the rule and the seat)."""
        ...

    def announcements(self, before: View, after: View, t: Translate) -> list[Screen]:
        """Screens the table must see after a move (reveals), each dismissed with OK."""
        ...

    def final(self, view: View, t: Translate) -> list[Screen]:
        """The pages of the last screen."""
        ...
