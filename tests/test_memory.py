"""Days of play on one box: memory does not grow with presses."""

import random
import tracemalloc

from companion.box import VirtualClock, open_box
from companion.box.pinout import BUTTONS
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

        tracemalloc.start()
        mash(5_000)
        early = tracemalloc.get_traced_memory()[0]
        mash(45_000)
        late = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        assert box.outputs.frames_shown > 5_000  # the table really moved
        assert len(box.outputs.trace) < 2 * box.outputs.trace_limit
        pin = box.board.factory.pin(box.board.pinout.status_a)
        assert len(pin.states) <= 64
        assert late - early < MIB, f"{(late - early) / MIB:.2f} MiB more after 45,000 presses"
    finally:
        box.close()
