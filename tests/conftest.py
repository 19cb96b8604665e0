import os

import pytest
from hypothesis import settings

from companion.games import GAMES, game_class

# Property tests explore new examples on a developer's machine; in CI they replay the same
# derandomized examples, so a run is green or red for what the change did, not by chance.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")


def available_games() -> list[str]:
    names = []
    for name, record in GAMES.items():
        try:
            record.load("engine")
        except ModuleNotFoundError:
            continue
        names.append(name)
    return names


def table_sizes(name: str) -> list[int]:
    cls = game_class(name)
    return list(range(cls.min_players, cls.max_players + 1))


@pytest.fixture(params=available_games())
def game_name(request):
    return request.param


@pytest.fixture
def shown_screens(monkeypatch):
    """Every screen the table draws from now on, with the name of the mode it was drawn in
    ("handoff", "cursor", ...)."""
    from companion.table import Table

    shown = []
    original = Table.screen

    def spy(self):
        screen = original(self)
        shown.append((type(self.mode).__name__.lower(), screen))
        return screen

    monkeypatch.setattr(Table, "screen", spy)
    return shown


@pytest.fixture
def box():
    """A virtual box on a virtual clock."""
    from companion.box import VirtualClock, open_box

    box = open_box("virtual", clock=VirtualClock())
    yield box
    box.close()
