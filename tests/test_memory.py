"""Days of play on one box: memory does not grow with presses, by a probe cheap enough to
leave on (the resident memory), which still sees a leak of a few bytes a press."""

import random

from companion.box import VirtualClock, open_box
from companion.box.pinout import BUTTONS
from companion.memory import resident_bytes
from companion.table import Settings, Table

MIB = 1 << 20


def test_memory_is_flat_over_50000_mashed_presses():
    box = open_box("virtual", clock=VirtualClock())
    rng = random.Random(5)
    buttons = [b for b in BUTTONS if b != "peek"]
    try:
        table = Table(box, seed=3)
        table.start(Settings("gulag", 5, "en", {"deal": "cards"}))

        def mash(presses):
            for _ in range(presses):
                button = rng.choice(buttons)
                box.board.drive(button, True)
                box.clock.advance(rng.uniform(0.03, 0.12))
                box.board.drive(button, False)
                box.clock.advance(rng.uniform(0.03, 0.3))
                table.step()

        mash(5_000)
        early = resident_bytes()
        mash(45_000)
        late = resident_bytes()
        assert box.outputs.frames_shown > 5_000  # the table really moved
        assert len(box.outputs.trace) < 2 * box.outputs.trace_limit
        pin = box.board.factory.pin(box.board.pinout.status_a)
        assert len(pin.states) <= 64
        assert late - early < MIB, f"{(late - early) / MIB:.2f} MiB more after 45,000 presses"
    finally:
        box.close()


def test_the_probe_sees_a_leak_of_a_few_bytes_a_press():
    """The bound above allows 1 MiB over 45,000 presses, some 23 bytes a press: a press that
    kept the smallest object Python has room for (a 24-byte string, 57 bytes in memory) would
    break it, and the probe sees it."""
    kept = []
    early = resident_bytes()
    for _ in range(45_000):
        kept.append(bytes(24))
    late = resident_bytes()
    assert late - early > MIB, f"a leak of {len(kept)} small strings read as {late - early} bytes"
