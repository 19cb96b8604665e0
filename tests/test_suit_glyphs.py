"""The four card suits tell apart at the panel's size: every pair differs in at least a
quarter of the pixels either lights, in the body's face and in the status line's bold.

``docs/screens/suits.png`` is a panel frame with them, four times its size, for a person
to judge; COMPANION_UPDATE_REFERENCES=1 rewrites it (look at it before committing).
"""

import itertools
import os
from pathlib import Path

import pytest
from PIL import Image

from companion.ui.canvas import LINE, Screen, render

SUITS = "♣♦♥♠"
CELL = 6  # pixels a character takes on a line (21 columns of 128)
PICTURE = Path(__file__).resolve().parents[1] / "docs" / "screens" / "suits.png"


def lit(image, left, top, invert=False):
    """The lit pixels of the character cell at ``(left, top)`` (inverted: the status bar)."""
    return {
        (x, y)
        for x in range(CELL)
        for y in range(LINE)
        if bool(image.getpixel((left + x, top + y))) != invert
    }


def glyphs(bold):
    """Each suit as the canvas draws it: in the bold status bar (dark on lit), or a body
    line, after a letter as on a card ("Q♣")."""
    image = render(Screen(" ".join(f"Q{s}" for s in SUITS), (" ".join(f"Q{s}" for s in SUITS),)))
    top = 0 if bold else LINE + 1
    left = 1 if bold else 0  # the status line starts one pixel in
    return {s: lit(image, left + (3 * i + 1) * CELL, top, invert=bold) for i, s in enumerate(SUITS)}


@pytest.mark.parametrize("bold", [False, True], ids=["body", "bold status"])
def test_every_pair_of_suits_differs_in_a_quarter_of_their_lit_pixels(bold):
    drawn = glyphs(bold)
    for suit, pixels in drawn.items():
        assert len(pixels) >= 12, f"{suit} lights {len(pixels)} pixels: too faint to read"
    for a, b in itertools.combinations(SUITS, 2):
        union = drawn[a] | drawn[b]
        share = len(drawn[a] ^ drawn[b]) / len(union)
        assert share >= 0.25, f"{a} and {b} differ in {share:.0%} of their lit pixels"


def test_a_suit_keeps_its_place_on_the_line():
    """Drawn in its own cell: the characters around it are where the font puts them."""
    line = render(Screen("", ("10♠ 7♥ x",)))
    plain = render(Screen("", ("10  7  x",)))
    for column in (0, 1, 3, 4, 6, 7):  # 1, 0, space, 7, space, x
        assert lit(line, column * CELL, LINE + 1) == lit(plain, column * CELL, LINE + 1)
    assert lit(line, 2 * CELL, LINE + 1) == glyphs(False)["♠"]
    assert lit(line, 5 * CELL, LINE + 1) == glyphs(False)["♥"]


def frame():
    """A Kolkhoz-like panel frame with the four suits, four times its size."""
    screen = Screen(
        "Year 1/5 Trump ♣",
        ("7♣ 8♦ 9♥ 10♠ J♣ Q♦", "♥38h ♦12h ♣✓ ♠0h", "▲ ♦ Жатва 12h ▼"),
        "♣ ♦ ♥ ♠",
    )
    image = render(screen)
    return image.resize((image.width * 4, image.height * 4), Image.Resampling.NEAREST)


def test_the_picture_of_the_suits_is_the_panels():
    image = frame()
    if os.environ.get("COMPANION_UPDATE_REFERENCES") == "1":
        image.save(PICTURE)
    assert PICTURE.exists(), "missing docs/screens/suits.png (COMPANION_UPDATE_REFERENCES=1)"
    assert Image.open(PICTURE).convert("1").tobytes() == image.convert("1").tobytes()
