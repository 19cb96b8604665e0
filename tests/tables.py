"""What the table tests of every game share: starting a table, reading the LEDs, references."""

import os
import tempfile
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

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
    A shot that differs is written next to a picture marking where, in the
    folder the failure names (``$COMPANION_REFERENCE_OUT``, or the temporary one).
    """
    update = os.environ.get("COMPANION_UPDATE_REFERENCES") == "1"
    for name, image in shots.items():
        path = REFERENCES / f"{game}-{lang}-{name}.png"
        if update:
            path.parent.mkdir(exist_ok=True)
            image.save(path)
        assert path.exists(), f"missing reference {path.name} (COMPANION_UPDATE_REFERENCES=1)"
        expected = Image.open(path).convert("1")
        if image.tobytes() != expected.tobytes():
            raise AssertionError(explain_difference(path, expected, image.convert("1")))


def explain_difference(path, expected, actual):
    """Write the actual frame and a picture of the difference; the message says where."""
    out = Path(os.environ.get("COMPANION_REFERENCE_OUT") or tempfile.gettempdir())
    out = out / "companion-references"
    out.mkdir(parents=True, exist_ok=True)
    stem = path.stem
    actual.save(out / f"{stem}.actual.png")
    if expected.size != actual.size:
        return f"{path.name} is {expected.size}, the frame {actual.size}: {out / stem}.actual.png"
    box = ImageChops.difference(expected, actual).getbbox()
    diff_path = out / f"{stem}.diff.png"
    difference_picture(expected, actual, box).save(diff_path)
    return (
        f"{path.name} differs within {box} (left, top, right, bottom): the frame is "
        f"{out / stem}.actual.png, the difference (red: only in the frame, blue: only in "
        f"the reference, green box: where) is {diff_path}"
    )


def difference_picture(expected, actual, box, scale=4):
    """Both pictures at once, ``scale`` times their size: grey where they agree."""
    width, height = actual.size
    picture = Image.new("RGB", actual.size)
    was, now = expected.load(), actual.load()
    colours = {(0, 0): (0, 0, 0), (1, 1): (160, 160, 160), (0, 1): (255, 0, 0), (1, 0): (0, 0, 255)}
    for y in range(height):
        for x in range(width):
            picture.putpixel((x, y), colours[(was[x, y] > 0, now[x, y] > 0)])
    picture = picture.resize((width * scale, height * scale), Image.Resampling.NEAREST)
    left, top, right, bottom = box
    ImageDraw.Draw(picture).rectangle(
        (left * scale - 2, top * scale - 2, right * scale + 1, bottom * scale + 1),
        outline=(0, 255, 0),
        width=2,
    )
    return picture
