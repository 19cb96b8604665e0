"""The reference pictures: the README shows only pinned screens, and a mismatch shows where."""

import re
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from companion.bots import make_bots
from companion.box import VirtualClock, open_box
from companion.demo import play
from companion.table import Settings
from tests.tables import REFERENCES, match_references

ROOT = Path(__file__).resolve().parents[1]


def readme_screens():
    return re.findall(r"\(docs/screens/([\w-]+\.png)\)", (ROOT / "README.md").read_text())


def test_every_screen_the_readme_shows_is_a_reference_picture_at_twice_its_size():
    names = readme_screens()
    assert len(names) >= 21
    for name in names:
        reference = REFERENCES / name
        assert reference.exists(), f"the README shows {name}, which no test draws"
        shown = Image.open(ROOT / "docs" / "screens" / name).convert("1")
        half = shown.resize((shown.width // 2, shown.height // 2), Image.Resampling.NEAREST)
        assert half.tobytes() == Image.open(reference).convert("1").tobytes(), name


def test_a_gulag_game_reads_as_the_readme_shows_it():
    """Seven seats, seed 3: the first supervisor's order, its inspection, the two last pages."""
    box = open_box("virtual", clock=VirtualClock())
    game = []
    drawn = []  # (the decision open when the frame was drawn, the frame)

    def bots(new_game, rng):
        game.append(new_game)
        return make_bots(new_game, "smart", rng)

    def keep(image, t):
        decision = game[0].decision if game else None
        drawn.append((decision and decision.kind, box.virtual_board.glass()))

    box.outputs.frame_sinks.append(keep)
    try:
        play(Settings("gulag", 7, "en"), seed=3, bots=bots, box=box)
    finally:
        box.close()
    kinds = [kind for kind, _ in drawn]
    order = next(i for i in range(1, len(kinds)) if kinds[i - 1] == "supervise" != kinds[i])
    shots = {
        "order": drawn[order][1],
        "inspection": drawn[order + 1][1],
        # The demo ends on the last page, then Down (the seats) and Up again.
        "final": drawn[-3][1],
        "seats": drawn[-2][1],
    }
    match_references("gulag", "en", shots)


def test_a_frame_that_differs_is_written_with_the_difference_boxed(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_REFERENCE_OUT", str(tmp_path))
    frame = Image.open(REFERENCES / "gulag-en-setup.png").convert("1")
    ImageDraw.Draw(frame).rectangle((100, 30, 104, 33), fill=1)
    with pytest.raises(AssertionError) as failure:
        match_references("gulag", "en", {"setup": frame})
    out = tmp_path / "companion-references"
    message = str(failure.value)
    assert "within (100, 30, 105, 34)" in message
    assert str(out / "gulag-en-setup.actual.png") in message
    assert str(out / "gulag-en-setup.diff.png") in message
    assert Image.open(out / "gulag-en-setup.actual.png").tobytes() == frame.tobytes()
    diff = Image.open(out / "gulag-en-setup.diff.png").convert("RGB")
    assert diff.size == (4 * 128, 4 * 64)
    # The box is drawn in green around the changed pixels, which are red or grey inside it.
    assert diff.getpixel((4 * 100 - 2, 4 * 32)) == (0, 255, 0)
    assert diff.getpixel((4 * 105, 4 * 32)) == (0, 255, 0)
    assert diff.getpixel((4 * 100 + 1, 4 * 30 + 1)) in {(255, 0, 0), (160, 160, 160)}
    assert (255, 0, 0) in {colour for _, colour in diff.getcolors(1 << 20)}
