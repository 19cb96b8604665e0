"""What a game folder declares to the house: its record, and the parts it names.

Each game is a folder, ``companion/games/<game>/``, whose ``__init__`` holds one
``GameRecord``; the registry (``companion.games.registry``) lists the records.
A part is a function that imports it on first use, so loading the registry
imports no game's rules, screens, bots, TV texts or Learn pages: a start
imports only the chosen game's, and the arrows stay plain imports that the type
checker, the import contract and a reader all see (OpenSpiel's one record a
game, ``_GAME_TYPE``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
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

    ``hidden`` names the fields of the game's state that hold what one seat
    knows and no other may see (the tests swap them between seats and check
    that nothing shown changes). ``state_shape`` is the declaration a saved
    state is checked against when the journal resumes it (``companion.games.shape``).
    ``read_option`` turns an option's value given on the command line (a file
    name, say) into the value the game takes: games do no I/O. ``bot_options``
    are the options under which bots play a whole game alone (the booth's
    attract games, the speed measures); ``bot_seed`` gives the bots' seed from
    the game's (apart, unless the bots must deal the table's own cards);
    ``bench_players`` are table sizes the bench plays besides the smallest and
    the largest. ``booth``: a game a convention booth offers strangers (its
    attract games, its Join and Learn menus, the staff's list); a game that only
    serves another one on the table (the vote) is not a booth's.
    """

    name: str
    hidden: tuple[str, ...]
    engine: Callable[[], Any]
    ui: Callable[[], Any]
    bots: Callable[[], Any]
    tv: Callable[[], Any]
    learn: Callable[[], Any]
    migrations: Callable[[], Any]
    state_shape: Callable[[], Any]
    commands: tuple[Command, ...] = ()
    read_option: Callable[[str, str], Any] = field(default=lambda key, value: value)
    bot_options: dict[str, str] = field(default_factory=dict)
    bot_seed: Callable[[dict[str, Any], int], int] = field(default=lambda options, seed: seed + 1)
    bench_players: tuple[int, ...] = ()
    booth: bool = True

    def load(self, part: Part) -> Any:
        """The object a part names, imported on first use."""
        loader: Callable[[], Any] = getattr(self, part)
        return loader()
