"""The screen on the wire: drawing, packing and sending frames, checked on recorded games.

One game of each of the four is played on the virtual box; its screens and the frames
handed to the OLED driver are what the drawing cache and the drivers are checked on.
"""

import pytest
from PIL import Image, ImageDraw

from companion.box import VirtualClock, open_box
from companion.demo import play
from companion.table import Settings, Table
from companion.ui import canvas
from companion.ui.canvas import BIG_SIZES, COLUMNS, HEIGHT, LINE, WIDTH, Screen, fit, font, wrap

# Small tables keep the games short; French and Kolkhoz bring accents and Cyrillic.
GAMES = [("gulag", 5, "fr"), ("politburo", 5, "en"), ("glasnost", 4, "fr"), ("kolkhoz", 4, "en")]


@pytest.fixture(scope="module")
def recorded():
    """Per game: the screens the table drew and the frames it handed to the driver."""
    games = {}
    original = Table.screen
    for name, players, lang in GAMES:
        screens: list[Screen] = []
        frames: list[Image.Image] = []

        def spy(self, screens=screens):
            screen = original(self)
            screens.append(screen)
            return screen

        Table.screen = spy  # type: ignore[method-assign]
        box = open_box("virtual", clock=VirtualClock())
        box.outputs.frame_sinks.append(lambda image, t, frames=frames: frames.append(image.copy()))
        try:
            play(Settings(name, players, lang), seed=3, box=box)
        finally:
            Table.screen = original  # type: ignore[method-assign]
            box.close()
        games[name] = (screens, frames)
    return games


# -- drawing ------------------------------------------------------------------------


def drawn_directly(screen: Screen) -> Image.Image:
    """The canvas as Pillow draws it with no cache: every line drawn afresh."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, LINE - 1), fill=1)
    draw.text((1, 0), screen.status[:COLUMNS], font=font(bold=True), fill=0)
    body = [line for entry in screen.body for line in wrap(entry)]
    if screen.big is not None:
        if body:
            draw.text((0, LINE + 1), fit(body, 1)[0], font=font(), fill=1)
        big = next(
            f
            for f in (font(bold=True, size=size) for size in BIG_SIZES)
            if draw.textlength(screen.big, font=f) <= WIDTH or f.size == 12
        )
        width = draw.textlength(screen.big, font=big)
        draw.text(((WIDTH - width) / 2, 2 * LINE), screen.big, font=big, fill=1)
    else:
        for i, line in enumerate(fit(body)):
            draw.text((0, LINE + 1 + i * LINE), line, font=font(), fill=1)
    if screen.keys:
        draw.line((0, HEIGHT - LINE - 1, WIDTH - 1, HEIGHT - LINE - 1), fill=1)
        draw.text((0, HEIGHT - LINE), screen.keys[:COLUMNS], font=font(), fill=1)
    return image


EDGE_CASES = [
    Screen("Été: Ç è é ÉÈ", ("Колхоз: урожай, ёЁй", "ÀÂÎÔÛ àâîôû ÿ", "gjpqy |[]{}"), "▲▼ ok"),
    Screen("x" * 40, ("y" * 60, "a line that wraps over more than three lines " * 3), "k" * 30),
    Screen("Result", ("Seat 3 wins",), "OK", big="RED"),
    Screen("Result", (), "", big="Колхозник"),
    Screen("Result", ("one", "two"), "OK", big="a word far too wide for the panel"),
    Screen(""),
]


def test_cached_lines_draw_the_same_pixels_as_pillow(recorded):
    screens = {screen for shown, _ in recorded.values() for screen in shown}
    assert len(screens) > 500
    for screen in [*EDGE_CASES, *screens, *EDGE_CASES]:  # the edge cases cold, then cached
        assert canvas.render(screen).tobytes() == drawn_directly(screen).tobytes(), screen


def test_the_line_cache_is_bounded_all_day_long():
    for i in range(canvas.LINES_KEPT + 50):
        canvas.render(Screen(f"Round {i}", (f"Seat {i % 12}: vote {i}",), "A yes B no"))
    assert canvas._line.cache_info().currsize <= canvas.LINES_KEPT
    assert canvas._wrapped.cache_info().currsize <= canvas.LINES_KEPT
