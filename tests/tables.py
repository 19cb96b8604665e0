"""What the table tests of every game share: starting a table, reading the LEDs, references."""

import os
import tempfile
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw

from companion.demo import GAP, Player
from companion.table import Table
from companion.ui.canvas import overflow

#: the modes whose screen waits for one seat, and must say which
WAITING = ("handoff", "choose", "confirm", "cursor", "peek")

REFERENCES = Path(__file__).parent / "reference"


def started(box, settings, seed):
    """A table that has just started ``settings``, its first screen read."""
    table = Table(box, seed=seed)
    table.start(settings)
    player = Player(box, table, box.clock)
    player.wait(GAP)
    return table, player


def every_screen_fits_and_says_who(shown, players, must_see, names_seat=lambda screen: True):
    """Check every screen drawn (``shown``: (mode, screen) pairs): it fits the panel, and
    each screen of a waiting mode names a seat (unless ``names_seat(screen)`` says it need
    not: a card on show under PEEK). Returns how many of each were checked; fails on a walk
    that saw none of ``must_see`` (modes it must have drawn) or checked no seat at all."""
    fits = named = 0
    seen = set()
    for mode, screen in shown:
        assert overflow(screen) == [], (mode, screen)
        fits += 1
        seen.add(mode)
        if mode in WAITING and names_seat(screen):
            text = " ".join((*screen.body, screen.keys))
            assert any(f" {n}" in text for n in range(1, players + 1)), screen
            named += 1
    assert set(must_see) <= seen, f"the walk never drew {set(must_see) - seen}"
    assert fits > 0 and named > 0, f"the walk checked {fits} screens, {named} seats named"
    return {"fits": fits, "named": named}


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
