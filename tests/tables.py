"""What the table tests of every game share: starting a table, reading the LEDs, references."""

import os
from pathlib import Path

from PIL import Image

from companion.demo import GAP, Player
from companion.table import Table

REFERENCES = Path(__file__).parent / "reference"


def started(box, settings, seed):
    """A table that has just started ``settings``, its first screen read."""
    table = Table(box, seed=seed)
    table.start(settings)
    player = Player(box, table, box.clock)
    player.wait(GAP)
    return table, player


def lit_bar(box):
    """How many bar LEDs the mock pins have lit."""
    return sum(box.board.factory.pin(p).state for p in box.board.pinout.bar)


def match_references(game, lang, shots):
    """Each shot (panel RAM read back) equals its reference PNG.

    COMPANION_UPDATE_REFERENCES=1 rewrites them; look at them before committing.
    """
    update = os.environ.get("COMPANION_UPDATE_REFERENCES") == "1"
    for name, image in shots.items():
        path = REFERENCES / f"{game}-{lang}-{name}.png"
        if update:
            path.parent.mkdir(exist_ok=True)
            image.save(path)
        assert path.exists(), f"missing reference {path.name} (COMPANION_UPDATE_REFERENCES=1)"
        expected = Image.open(path).convert("1")
        assert image.tobytes() == expected.tobytes(), f"{path.name} differs"
