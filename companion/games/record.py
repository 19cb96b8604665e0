"""What a game folder declares to the house: its record, and the parts it names.

Each game is a folder, ``companion/games/<game>/``, whose ``__init__`` holds one
``GameRecord``; the registry (``companion.games.registry``) lists the records.
Every folder keeps its parts in the same modules under the same names
(``PLACES``), so a record is built from the folder's package name and loads a
part by importing its module on first use: loading the registry imports no
game's rules, screens, bots, TV texts or Learn pages, and a start imports only
the chosen game's (OpenSpiel's one record a game, ``_GAME_TYPE``). The type
checker still holds each folder's screens to ``companion.ui.contract.GameUI``:
the folder's ``__init__`` binds them to a name of that type for it alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

if TYPE_CHECKING:  # argparse loads gettext: a start in English loads neither
    import argparse

#: the Learn pages' headings (``companion.kiosk.learn``)
WHO, ASKS, WIN = "Who you are", "The box asks", "How you win"

#: a saved record, as ``Game.to_record`` writes it and a migration rewrites it
SavedRecord = dict[str, Any]
#: a game's migrations: {version it starts from: function to the next version}
Migrations = dict[int, Callable[[SavedRecord], SavedRecord]]


class Page(NamedTuple):
    """One Learn screen: its title, its one claim, and the rules it summarizes (their
    headings on the game's page in ``docs/rules/``, shown so a doubt can be looked up)."""

    title: str
    text: str
    rules: tuple[str, ...]


#: the parts a record names
Part = Literal["engine", "ui", "bots", "tv", "learn", "migrations", "state_shape"]
#: where each part lives in a game's folder: its module, and its name in that module (None:
#: the module itself; the engine's class is the one the record names)
PLACES: dict[Part, tuple[str, str | None]] = {
    "engine": ("rules", None),
    "ui": ("screens", None),
    "bots": ("bots", "make_bots"),
    "tv": ("tv", None),
    "learn": ("learn", "PAGES"),
    "migrations": ("migrations", "MIGRATIONS"),
    "state_shape": ("shape", "SHAPE"),
}


@dataclass(frozen=True)
class Command:
    """A command of the game's own on the CLI (``companion <name>``): its arguments are
    declared here, its work (``run``, returning the exit status) is imported when run."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[], Callable[[argparse.Namespace], int]]


@dataclass(frozen=True)
class GameRecord:
    """Where each part of one game lives, each loaded on first use.

    ``package`` is the folder's (``companion.games.<name>``: its ``__name__``), and
    ``engine`` the name of the game's class in its ``rules``; the other parts are where
    ``PLACES`` says. ``hidden`` names the fields of the game's state that hold what one
    seat knows and no other may see (the tests swap them between seats and check that
    nothing shown changes). The ``state_shape`` part is the declaration a saved state is
    checked against when the journal resumes it (``companion.games.shape``).
    ``read_option`` turns an option's value given on the command line (a file name, say)
    into the value the game takes: games do no I/O. ``bot_options`` are the options
    under which bots play a whole game alone (the booth's attract games, the speed
    measures); ``bot_seed`` gives the bots' seed from the game's (apart, unless the bots
    must deal the table's own cards); ``bench_players`` are table sizes the bench plays
    besides the smallest and the largest. ``booth``: a game a convention booth offers
    strangers (its attract games, its Join and Learn menus, the staff's list); a game
    that only serves another one on the table (the vote) is not a booth's.
    """

    package: str
    engine: str
    hidden: tuple[str, ...]
    commands: tuple[Command, ...] = ()
    read_option: Callable[[str, str], Any] = field(default=lambda key, value: value)
    bot_options: dict[str, str] = field(default_factory=dict)
    bot_seed: Callable[[dict[str, Any], int], int] = field(default=lambda options, seed: seed + 1)
    bench_players: tuple[int, ...] = ()
    booth: bool = True

    @property
    def name(self) -> str:
        """The game's key: its folder's name."""
        return self.package.rpartition(".")[2]

    def load(self, part: Part) -> Any:
        """The object a part names, its module imported on first use."""
        module, attribute = PLACES[part]
        found = import_module(f"{self.package}.{module}")
        name = self.engine if part == "engine" else attribute
        return found if name is None else getattr(found, name)
