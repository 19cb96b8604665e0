"""The box's parts: the pinout, the debouncer and queue, the OLED driver and panel."""

import random
import subprocess
import sys

import pytest
from luma.oled.device import sh1106, ssd1306
from PIL import Image

from companion.box import VirtualClock, open_box
from companion.box.inputs import Debouncer, Inputs, debounce
from companion.box.oled import PagedSH1106, PagedSSD1306, WindowSH1106, WindowSSD1306
from companion.box.panel import VirtualPanel
from companion.box.pinout import DEFAULT_PATH, PinoutError, load_pinout, parse_pinout
from companion.box.wiring import bom, header_pin, wiring

# -- the pinout --------------------------------------------------------------------


def test_the_shipped_pinout_wires_every_part_once():
    pinout = load_pinout()
    assert set(pinout.buttons) == {"up", "down", "ok", "back", "choice_a", "choice_b", "peek"}
    assert len(pinout.bar) == 10
    pins = list(pinout.pins().values())
    assert len(pins) == len(set(pins))
    assert pinout.oled.driver == "ssd1306" and pinout.oled.address == 0x3C


def test_wiring_and_bom_match_the_pinout():
    pinout = load_pinout()
    folder = DEFAULT_PATH.parent
    assert (folder / "wiring.md").read_text() == wiring(pinout)
    assert (folder / "bom.md").read_text() == bom(pinout)
    assert header_pin(2) == 3 and header_pin(21) == 40  # SDA, and the last header pin
    for use, gpio in pinout.pins().items():
        assert f"| {use} | GPIO{gpio} | {header_pin(gpio)} |" in wiring(pinout)


def good_pinout():
    import tomllib

    return tomllib.loads(DEFAULT_PATH.read_text())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["buttons"].pop("ok"), r"\[buttons\]: 'ok' is missing"),
        (lambda d: d["buttons"].update(ok=5), "GPIO5 is wired twice"),
        (lambda d: d["buttons"].update(ok=40), "buttons.ok: GPIO40 is not on the Raspberry Pi's"),
        (lambda d: d["buttons"].update(ok="16"), "buttons.ok: expected int"),
        (lambda d: d["buttons"].update(turbo=7), "unknown button 'turbo'"),
        (lambda d: d["leds"].update(bar=[4, 17]), "the bar has 10 LEDs, found 2"),
        (lambda d: d["leds"].update(status_a=2), "GPIO2 is wired twice: to .* and to OLED SDA"),
        (lambda d: d["oled"].update(driver="st7735"), "oled.driver: 'st7735' is not one of"),
        (lambda d: d["oled"].update(address=0x100), "not a 7-bit I2C address"),
        (lambda d: d["oled"].update(rotate=1), "landscape"),
        (lambda d: d.pop("buzzer"), r"the \[buzzer\] section is missing"),
    ],
)
def test_a_broken_pinout_is_refused_with_the_line_that_is_wrong(change, message):
    data = good_pinout()
    change(data)
    with pytest.raises(PinoutError, match=message):
        parse_pinout(data)


def test_a_missing_or_garbled_pinout_file_says_so(tmp_path):
    with pytest.raises(PinoutError, match="no pinout file"):
        load_pinout(tmp_path / "none.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[buttons\nup = 5")
    with pytest.raises(PinoutError, match="not valid TOML"):
        load_pinout(bad)


def test_the_cli_checks_the_hardware_docs():
    out = subprocess.run(
        [sys.executable, "-m", "companion", "hardware"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "up to date" in out.stdout


# -- the debouncer -----------------------------------------------------------------


def bouncy_trace(rng, presses, max_bounce=0.010, max_rate=15.0):
    """Raw edges of ``presses`` presses at up to ``max_rate`` a second, each edge bouncing."""
    edges, truth = [], []
    t = 0.0
    for _ in range(presses):
        period = rng.uniform(1 / max_rate, 0.4)
        hold = rng.uniform(0.015 + max_bounce, period - 0.015 - max_bounce)
        for level, at in ((True, t), (False, t + hold)):
            bounce_end = at + rng.uniform(0, max_bounce)
            n = rng.randrange(0, 6) * 2  # an even number of toggles: it settles on `level`
            times = sorted(rng.uniform(at, bounce_end) for _ in range(n))
            edges.append((at, level))
            for i, bt in enumerate(times):
                edges.append((max(bt, at + 1e-6), level if i % 2 else not level))
            truth.append((at, "press" if level else "release"))
        t += period
    edges.sort(key=lambda e: e[0])
    return edges, truth


def test_debouncer_counts_exactly_on_ten_thousand_bouncy_presses():
    rng = random.Random(12)
    edges, truth = bouncy_trace(rng, 10_000)
    assert len(edges) > 40_000  # there really is bounce in the trace
    events = debounce(edges)
    assert [kind for _, kind in events] == [kind for _, kind in truth]
    # Leading edge: every press is taken within the hold-off of the real one.
    for (t, _), (real, _) in zip(events, truth, strict=True):
        assert real <= t <= real + 0.015 + 1e-9


def test_without_debouncing_the_same_trace_would_overcount():
    edges, _ = bouncy_trace(random.Random(3), 200)
    presses = sum(1 for t, level in edges if level)
    assert presses > 200
    assert sum(1 for _, k in debounce(edges) if k == "press") == 200


def test_a_tap_shorter_than_the_hold_off_still_counts_once():
    assert debounce([(0.0, True), (0.005, False)]) == [(0.0, "press"), (0.015, "release")]


def test_a_long_press_becomes_one_hold():
    d = Debouncer(hold_time=1.5)
    assert d.edge(1.0, True) == [(1.0, "press")]
    assert d.poll(2.4) == []
    assert d.poll(2.6) == [(2.5, "hold")]
    assert d.poll(5.0) == []
    assert d.edge(5.0, False) == [(5.0, "release")]


def test_the_queue_is_bounded_and_counts_what_it_drops():
    clock = VirtualClock()
    inputs = Inputs(["ok"], clock.now, size=16)
    for _ in range(40):
        inputs.edge("ok", True)
        clock.advance(0.05)
        inputs.edge("ok", False)
        clock.advance(0.05)
    assert len(inputs.queue) == 16
    assert inputs.dropped == 80 - 16
    assert inputs.clear() == 16 and inputs.take() is None


def test_mock_pins_reach_the_queue_through_gpiozero():
    clock = VirtualClock()
    box = open_box("virtual", clock=clock)
    try:
        box.board.drive("choice_a", True)
        clock.advance(0.1)
        box.board.drive("choice_a", False)
        events = [box.inputs.take(), box.inputs.take()]
        assert [(e.button, e.kind, e.t) for e in events] == [
            ("choice_a", "press", 0.0),
            ("choice_a", "release", pytest.approx(0.1)),
        ]
    finally:
        box.close()


# -- the OLED ------------------------------------------------------------------------


def noise(seed, dots=900):
    image = Image.new("1", (128, 64))
    rng = random.Random(seed)
    for _ in range(dots):
        image.putpixel((rng.randrange(128), rng.randrange(64)), 1)
    return image


@pytest.mark.parametrize(
    ("driver", "controller"),
    [
        (ssd1306, "ssd1306"),
        (PagedSSD1306, "ssd1306"),
        (WindowSSD1306, "ssd1306"),
        (sh1106, "sh1106"),
        (PagedSH1106, "sh1106"),
        (WindowSH1106, "sh1106"),
    ],
)
@pytest.mark.parametrize("rotate", [0, 2])
def test_the_panel_shows_what_luma_sent(driver, controller, rotate):
    panel = VirtualPanel(controller)
    device = driver(panel, rotate=rotate)
    assert panel.on and panel.image().getbbox() is None  # luma clears and switches on
    for seed in range(3):
        image = noise(seed)
        device.display(image)
        expected = image if rotate == 0 else image.rotate(180)
        assert panel.image().tobytes() == expected.tobytes()
    device.hide()
    assert panel.image().getbbox() is None


def test_paged_driver_sends_only_the_pages_that_changed():
    panel = VirtualPanel()
    device = PagedSSD1306(panel)
    device.display(noise(1))
    full = panel.data_bytes
    before = panel.sent
    changed = noise(1)
    changed.putpixel((5, 20), 1 - changed.getpixel((5, 20)))  # page 2 only
    device.display(changed)
    assert panel.data_bytes - full == 128
    assert panel.sent - before == 128 + 6  # one page and its window (2 commands, 4 bytes)
    assert panel.image().tobytes() == changed.tobytes()
    before = panel.sent
    device.display(changed)
    assert panel.sent == before  # nothing changed, nothing sent


def test_luma_sends_the_whole_frame_every_time():
    """Why PagedSSD1306 exists: the stock driver's cost of a one-pixel change."""
    panel = VirtualPanel()
    device = ssd1306(panel)
    device.display(noise(1))
    before = panel.data_bytes
    device.display(noise(1))
    assert panel.data_bytes - before == 1024


# -- what the box leaves out of gpiozero and luma, still there when asked for ---------------


def run_fresh(script: str) -> str:
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_rest_of_gpiozero_is_there_on_first_use():
    """The box loads gpiozero's package without running its body; the first name looked up
    on it runs it, so any other user of gpiozero finds the whole of it."""
    out = run_fresh(
        "import sys\n"
        "import companion.box.gpio\n"
        "print('gpiozero.boards' in sys.modules)\n"
        "import gpiozero\n"
        "from gpiozero import LEDBarGraph, Device\n"
        "from gpiozero.pins.mock import MockFactory\n"
        "bar = LEDBarGraph(5, 6, pin_factory=MockFactory())\n"
        "bar.value = 0.5\n"
        "print(bar.value, 'gpiozero.boards' in sys.modules, hasattr(gpiozero, 'no_such_name'))\n"
        "print('importlib_metadata' in sys.modules)\n"
    )
    assert out.split() == ["False", "0.5", "True", "False", "False"]


def test_lumas_process_is_the_real_one_when_made():
    """luma is loaded with a stand-in for ``multiprocessing``; a fade that makes a process
    gets a real one, and the real module is there for everyone else."""
    out = run_fresh(
        "import sys\n"
        "import companion.box.oled\n"
        "print('multiprocessing' in sys.modules)\n"
        "from luma.core.interface.serial import pca9633\n"
        "process = pca9633.transition.Process(target=print)\n"
        "import multiprocessing\n"
        "print(isinstance(process, multiprocessing.Process))\n"
    )
    assert out.split() == ["False", "True"]


def test_the_bar_lights_its_first_leds():
    """``set_bar(n)`` lights the bar's first ``n`` LEDs and no other (as gpiozero's
    LEDBarGraph lights ``n / 10``), clamped to the bar."""
    box = open_box("virtual", clock=VirtualClock())
    try:
        pins = box.board.pinout.bar
        for lit in (3, 10, 0, 12, -1):
            box.outputs.set_bar(lit)
            states = [box.board.factory.pin(pin).state for pin in pins]
            shown = max(0, min(10, lit))
            assert states == [1] * shown + [0] * (10 - shown)
    finally:
        box.close()


def test_what_the_box_loaded_is_out_of_the_collectors_sight_after_the_first_frame():
    """The first frame freezes what the process made until then, so that no later full
    collection walks it (a press could pay for that walk); before a frame, nothing is."""
    script = (
        "import gc\n"
        "from companion.box import VirtualClock, open_box\n"
        "from companion.table import Table\n"
        "box = open_box('virtual', clock=VirtualClock())\n"
        "table = Table(box)\n"
        "print(gc.get_freeze_count())\n"
        "table.step()\n"
        "print(gc.get_freeze_count())\n"
        "Table(open_box('virtual', clock=VirtualClock())).step()  # a second box: once only\n"
        "print(gc.get_freeze_count())\n"
    )
    before, after, again = (int(n) for n in run_fresh(script).split())
    assert before == 0
    assert after > 5000
    assert again == after
