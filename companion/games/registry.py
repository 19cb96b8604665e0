"""One record per game: every part of the house that knows the game, by import path.

A part is named "module" or "module:attribute" and imported only when asked
for (``GameRecord.load``), so a command that draws nothing imports no screen,
and the rules never import the rooms that show them. A new game is one record
here, beside its engine, screens, bots, TV picture and learn pages.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Literal

#: the parts a record names by import path
Part = Literal["engine", "ui", "bots", "picture", "learn", "migrations", "state_shape"]


@dataclass(frozen=True)
class GameRecord:
    """Where each part of one game lives.

    ``hidden`` names the fields of the game's state that hold what one seat
    knows and no other may see (the tests swap them between seats and check
    that nothing shown changes). ``state_shape`` names the declaration a saved
    state is checked against when the journal resumes it (``companion.games.shape``).
    """

    name: str
    engine: str
    ui: str
    bots: str
    picture: str
    learn: str
    migrations: str
    hidden: tuple[str, ...]
    state_shape: str

    def load(self, part: Part) -> Any:
        """The object a part names, imported on first use."""
        target = getattr(self, part)
        module, _, attr = target.partition(":")
        loaded = importlib.import_module(module)
        return getattr(loaded, attr) if attr else loaded


def _record(name: str, engine: str, hidden: tuple[str, ...]) -> GameRecord:
    """A game whose parts sit where the house keeps every game's."""
    return GameRecord(
        name=name,
        engine=f"companion.games.{name}:{engine}",
        ui=f"companion.ui.{name}",
        bots=f"companion.bots.{name}:make_bots",
        picture=f"companion.web.pictures:{name}",
        learn=f"companion.kiosk.learn:{name.upper()}",
        migrations=f"companion.migrate:{name.upper()}",
        hidden=hidden,
        state_shape=f"companion.games.{name}_shape:SHAPE",
    )


#: The one registry of games, in the order the setup screen lists them.
GAMES: dict[str, GameRecord] = {
    record.name: record
    for record in (
        _record("gulag", "Gulag", ("roles",)),
        _record("kolkhoz", "Kolkhoz", ("hands", "plots")),
        _record("politburo", "Politburo", ("members",)),
        _record("glasnost", "Glasnost", ("objectives",)),
    )
}
