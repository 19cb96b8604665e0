"""The screen on the wire: drawing, packing and sending frames, checked on recorded games.

One game of each of the four is played on the virtual box; its screens and the frames
handed to the OLED driver are what the drawing cache and the drivers are checked on.
"""

import pytest
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from companion.box import VirtualClock, open_box
from companion.box.oled import DRIVERS, WindowSH1106, WindowSSD1306, pages
from companion.box.panel import VirtualPanel
from companion.demo import play
from companion.games import GAMES as REGISTRY
from companion.games import game_class
from companion.table import Settings, Table
from companion.ui import canvas
from companion.ui.canvas import BIG_SIZES, COLUMNS, HEIGHT, LINE, WIDTH, Screen, fit, font, wrap

# Small tables keep the games short; French and Kolkhoz bring accents and Cyrillic.
GAMES = [
    (name, game_class(name).min_players, ("fr", "en")[n % 2]) for n, name in enumerate(REGISTRY)
]


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
            options = {"deal": "box"} if name == "kolkhoz" else {}  # the box deals, as before
            play(Settings(name, players, lang, options), seed=3, box=box)
        finally:
            Table.screen = original  # type: ignore[method-assign]
            box.close()
        games[name] = (screens, frames)
    return games


# -- drawing ------------------------------------------------------------------------


def line_drawn(image, xy, text, face, fill):
    """A line of the body's size as Pillow draws it, each card suit its own bitmap."""
    for i, ch in enumerate(text):
        if ch in canvas.SUIT_ROWS:
            image.paste(fill, (xy[0] + 6 * i, xy[1]), canvas.suit_glyph(ch))
    blank = "".join(" " if ch in canvas.SUIT_ROWS else ch for ch in text)
    ImageDraw.Draw(image).text(xy, blank, font=face, fill=fill)


def drawn_directly(screen: Screen) -> Image.Image:
    """The canvas as Pillow draws it with no cache: every line drawn afresh."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, LINE - 1), fill=1)
    line_drawn(image, (1, 0), screen.status[:COLUMNS], font(bold=True), 0)
    body = [line for entry in screen.body for line in wrap(entry)]
    if screen.big is not None:
        if body:
            line_drawn(image, (0, LINE + 1), fit(body, 1)[0], font(), 1)
        big = next(
            f
            for f in (font(bold=True, size=size) for size in BIG_SIZES)
            if draw.textlength(screen.big, font=f) <= WIDTH or f.size == 12
        )
        width = draw.textlength(screen.big, font=big)
        draw.text(((WIDTH - width) / 2, 2 * LINE), screen.big, font=big, fill=1)
    else:
        for i, line in enumerate(fit(body)):
            line_drawn(image, (0, LINE + 1 + i * LINE), line, font(), 1)
    if screen.keys:
        draw.line((0, HEIGHT - LINE - 1, WIDTH - 1, HEIGHT - LINE - 1), fill=1)
        line_drawn(image, (0, HEIGHT - LINE), screen.keys[:COLUMNS], font(), 1)
    return image


EDGE_CASES = [
    Screen("Été: Ç è é ÉÈ", ("Колхоз: урожай, ёЁй", "ÀÂÎÔÛ àâîôû ÿ", "gjpqy |[]{}"), "▲▼ ok"),
    Screen("x" * 40, ("y" * 60, "a line that wraps over more than three lines " * 3), "k" * 30),
    Screen("Result", ("Seat 3 wins",), "OK", big="RED"),
    Screen("Result", (), "", big="Колхозник"),
    Screen("Result", ("one", "two"), "OK", big="a word far too wide for the panel"),
    Screen(""),
    Screen("Trump ♣♦♥♠", ("10♠ J♣ Q♦ K♥ ♣", "♥38h ♦12h ♣✓ ♠0h"), "♣ ♦ ♥ ♠"),
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


# -- packing and sending ------------------------------------------------------------


def cropped_pages(image: Image.Image) -> list[bytes]:
    """The pages packed one 8-row strip at a time (the packing before a single transpose)."""
    return [
        image.crop((0, 8 * page, 128, 8 * page + 8)).transpose(Image.Transpose.ROTATE_270).tobytes()
        for page in range(8)
    ]


def test_one_transpose_packs_the_same_bytes_as_eight_crops(recorded):
    frames = [frame for _, shown in recorded.values() for frame in shown]
    for frame in frames:
        assert pages(frame) == cropped_pages(frame)


def replay(controller: str, kind: str, frames: list[Image.Image], rotate: int = 0) -> float:
    """Bytes per update of ``frames`` sent by a driver, each checked on the panel's glass."""
    panel = VirtualPanel(controller)
    device = DRIVERS[controller][kind](panel, rotate=rotate)
    start = panel.sent
    for i, frame in enumerate(frames):
        device.display(frame)
        glass = panel.image()
        expected = frame if rotate == 0 else frame.rotate(180)
        assert glass.tobytes() == expected.tobytes(), f"{controller} {kind}: frame {i}"
    return (panel.sent - start) / len(frames)


@pytest.mark.parametrize("controller", sorted(DRIVERS))
def test_window_drivers_light_every_recorded_frame_exactly_for_far_fewer_bytes(
    recorded, controller
):
    sent = {kind: 0.0 for kind in DRIVERS[controller]}
    for name, (_, frames) in recorded.items():
        # luma sends the same bytes for every frame (its test is that it shows them): a few do.
        per_update = {
            kind: replay(controller, kind, frames[:8] if kind == "luma" else frames)
            for kind in DRIVERS[controller]
        }
        assert per_update["window"] < per_update["paged"] < per_update["luma"], name
        for kind, size in per_update.items():
            sent[kind] += size * len(frames)
    assert sent["window"] <= 0.45 * sent["luma"]


@pytest.mark.parametrize("controller", sorted(DRIVERS))
def test_a_turned_panel_shows_the_same_frames(recorded, controller):
    replay(controller, "window", recorded["gulag"][1], rotate=2)


@pytest.mark.parametrize(
    ("driver", "controller", "opening"),
    [(WindowSSD1306, "ssd1306", 3), (WindowSH1106, "sh1106", 3)],
)
def test_a_change_costs_its_columns_and_a_window_apiece(driver, controller, opening):
    panel = VirtualPanel(controller)
    device = driver(panel)
    frame = Image.new("1", (128, 64))
    frame.putpixel((40, 20), 1)  # page 2
    device.display(frame)
    before = panel.sent
    frame.putpixel((41, 21), 1)
    frame.putpixel((44, 22), 1)  # three unchanged columns between: one window of 4
    device.display(frame)
    assert panel.sent - before == opening + 4
    before = panel.sent
    frame.putpixel((10, 60), 1)  # page 7
    frame.putpixel((100, 60), 1)  # far apart: two windows of one column
    device.display(frame)
    assert panel.sent - before == 2 * (opening + 1)
    assert panel.image().tobytes() == frame.tobytes()
    before = panel.sent
    device.display(frame)
    assert panel.sent == before  # nothing changed, nothing sent


def test_luma_sh1106_sends_every_page_whole():
    """Why WindowSH1106 exists: the stock driver's cost of a one-pixel change."""
    panel = VirtualPanel("sh1106")
    device = sh1106(panel)
    frame = Image.new("1", (128, 64))
    device.display(frame)
    before = panel.sent
    frame.putpixel((5, 5), 1)
    device.display(frame)
    assert panel.sent - before == 8 * (3 + 128)


def test_the_ssd1306_ignores_page_addressing_in_luma_horizontal_mode():
    """The panel follows the chip: a start column means nothing outside page addressing,
    so a driver that forgot to switch modes would be caught on the glass."""
    panel = VirtualPanel("ssd1306")
    ssd1306(panel)  # initialised in horizontal mode, cleared
    panel.command(0xB3, 0x05, 0x12)  # page 3, column 0x25: ignored
    panel.data([0xFF])
    assert panel.ram[0][0] == 0xFF and not any(panel.ram[3])
