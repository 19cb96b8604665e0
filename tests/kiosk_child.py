"""A kiosk on the virtual board, driven to a state and then left running to be killed.

``python -m tests.kiosk_child STATE JOURNAL`` prints READY once the kiosk is in
STATE (attract, game, staff), then keeps stepping until it is killed.
"""

import sys
from pathlib import Path

from companion.kiosk.booth import Attract, Playing, Staff
from companion.kiosk.chord import CHORD, CHORD_HOLD, CODE
from companion.kiosk.day import Day


def main(state: str, journal: str) -> None:
    day = Day(seed=3, journal=Path(journal))
    if state == "attract":
        while not isinstance(day.kiosk.mode, Attract):
            day.wait(0.5)
    elif state == "game":
        day.press("ok")
        day.press("ok")
        table = day.kiosk.table
        while table.game is None:
            day.press("ok")
        for _ in range(6):
            day.press("ok")  # hand-overs and first answers: a game well under way
        assert isinstance(day.kiosk.mode, Playing)
    elif state == "staff":
        day.hold_together(sorted(CHORD), CHORD_HOLD + 0.5)
        for button in CODE:
            day.press(button)
        while day.kiosk.mode.row != 4:
            day.press("down")
        day.press("ok")  # a new idle time, kept at once
        assert isinstance(day.kiosk.mode, Staff)
    print("READY", day.kiosk.idle, flush=True)
    while True:
        day.wait(0.5)


if __name__ == "__main__":
    main(*sys.argv[1:3])
