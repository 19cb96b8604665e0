"""What the loop writes to the journal, and what the journal says back.

The journal may fail to write (a full card, a read-only one) and says so in its
``news``: the first line is shown once on the box (``tell``), the log has the
rest, and the game goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from companion.games import Game
from companion.table.names import Naming
from companion.table.resume import Resumed, Watch, resume
from companion.ui.canvas import Screen

if TYPE_CHECKING:
    from companion.store import Journal, News


class Record:
    """The loop's pen: one call a step, each a no-op without a journal."""

    def __init__(self, journal: Journal | None, tell: Callable[[News], None]) -> None:
        self.journal = journal
        self.tell = tell  # shows what the journal has to say, in the table's language
        self.games = 0  # games begun: an unsaved game's names are told apart by it
        #: the seats' names, kept beside the journal, each game's under its key
        self.names = Naming(None if journal is None else journal.path, self._names_key)
        self.watch = Watch()  # a resumed step, until it has proved itself

    @property
    def named(self) -> dict[int, str]:
        """The seats' names in the game on the table."""
        return self.names.seats

    def _names_key(self) -> str:
        return self.key() or f"unsaved {self.games}"

    def _write(self, write: Callable[..., Any], *args: Any) -> None:
        write(*args)
        self.news()

    def news(self) -> None:
        """The journal's first news, told once."""
        if self.journal is not None and self.journal.news:
            news = self.journal.news[0]
            self.journal.news.clear()  # the log has every line; the screen the first
            self.tell(news)

    def retry(self) -> None:
        """While unsaved, the journal tries again on its own pace (``Journal.retry``: at most
        once in ``RETRY`` seconds) though no step comes: a table left waiting for a seat
        does not keep its steps in memory only. Saving again is said, as after a step."""
        if self.journal is not None and not self.journal.saving:
            self.journal.retry()
            self.news()

    def resume(self, stopped: tuple[int, str] | None = None) -> Resumed | None:
        """The journal's game in progress at the step that passes the checks, watched from
        here on (``stopped``: a step that just failed in play)."""
        found = None if self.journal is None else resume(self.journal, stopped)
        if found is not None:
            self.watch.resumed(found.step)
        return found

    def key(self) -> str | None:
        """Which game this is in the journal, so phones rejoin the same game after a power cut."""
        journal = self.journal
        return None if journal is None or journal.game_id is None else f"{journal.game_id}"

    def reveals(self) -> list[tuple[Screen, ...]]:
        """The game's reveals so far, as the table showed them (none without a journal, or
        that the journal cannot read back)."""
        if self.journal is None:
            return []
        try:
            return [tuple(Screen.from_json(s) for s in step) for step in self.journal.reveals()]
        except ValueError:
            return []

    def begin(self, game: Game, settings: dict[str, Any]) -> None:
        self.games += 1
        if self.journal is not None:
            self._write(self.journal.begin, game.name, settings, game.to_record())

    def abandon(self, game: Game) -> None:
        """Never resumed: an open game is marked abandoned; one over (its last reveals left
        unread) is finished."""
        if self.journal is not None:
            self._write(self.journal.finish if game.over else self.journal.abandon)

    def step(self, game: Game | None, shown: Sequence[Screen]) -> None:
        """The step into the journal, with the reveals it puts on screen."""
        if self.journal is None or game is None:
            return
        reveal = [screen.to_json() for screen in shown]
        if game.over or game.saveable:
            self._write(self.journal.step, game.to_record(), reveal)
            self.watch.saved(self.journal)
        if game.over and not reveal:  # else finished once the last reveal is dismissed
            self._write(self.journal.finish)

    def seen(self, game: Game | None, left: Sequence[Screen]) -> None:
        """The journal keeps the reveal screens still to show, for a power cut meanwhile."""
        if self.journal is None or game is None:
            return
        if not left and game.over:
            self._write(self.journal.finish)
        else:
            self._write(self.journal.showing, [s.to_json() for s in left])
