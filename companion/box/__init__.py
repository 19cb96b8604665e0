"""The device: buttons, LEDs, OLED and buzzer, on a Raspberry Pi or a virtual board.

The names below are loaded on first use, so that a part that needs only the pinout
(``companion.box.pinout``) does not load gpiozero, luma and Pillow with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.box.board import VirtualBoard
    from companion.box.clock import VirtualClock, WallClock
    from companion.box.device import Box, open_box

__all__ = ["Box", "VirtualBoard", "VirtualClock", "WallClock", "open_box"]

_HOMES = {
    "Box": "companion.box.device",
    "open_box": "companion.box.device",
    "VirtualBoard": "companion.box.board",
    "VirtualClock": "companion.box.clock",
    "WallClock": "companion.box.clock",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
