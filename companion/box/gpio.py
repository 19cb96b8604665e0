"""gpiozero, loaded without ``importlib.metadata``, and the Pi's pin factory named outright.

gpiozero imports ``importlib.metadata`` when it loads, only to look up a pin
factory by entry point when ``$GPIOZERO_PIN_FACTORY`` names one. That import
(email parsing, zipfile and the rest) is the largest single cost of the box's
first second; on a Pi Zero it is most of one. So gpiozero is loaded here, first,
with an ``entry_points`` that imports ``importlib.metadata`` only when called.
On a Pi, the box names its pin factory (lgpio) itself rather than have gpiozero
try each library in turn; ``$GPIOZERO_PIN_FACTORY`` still wins when set.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from typing import Any


def _entry_points(**selection: Any) -> Any:
    """``importlib.metadata.entry_points``, imported on the first call only."""
    from importlib.metadata import entry_points

    return entry_points(**selection)


def import_without_metadata(name: str) -> types.ModuleType:
    """Import gpiozero's module ``name`` with the lazy ``entry_points``."""
    if name in sys.modules:
        return sys.modules[name]
    # gpiozero tries the importlib_metadata backport first: a stand-in for the time of the
    # import gives it the lazy entry_points. It is removed at once, so that nobody else
    # mistakes it for the backport.
    stand_in = types.ModuleType("importlib_metadata")
    stand_in.entry_points = _entry_points  # type: ignore[attr-defined]
    had = sys.modules.get("importlib_metadata")
    sys.modules["importlib_metadata"] = stand_in
    try:
        return importlib.import_module(name)
    finally:
        if had is None:
            del sys.modules["importlib_metadata"]
        else:
            sys.modules["importlib_metadata"] = had


import_without_metadata("gpiozero")

from gpiozero import PWMLED, Button, Buzzer, LEDBarGraph  # noqa: E402
from gpiozero.exc import GPIOZeroError, GPIOZeroWarning  # noqa: E402

__all__ = [
    "PWMLED",
    "Button",
    "Buzzer",
    "GPIOZeroError",
    "GPIOZeroWarning",
    "LEDBarGraph",
    "import_without_metadata",
    "pi_pin_factory",
]


def pi_pin_factory() -> Any:
    """The Pi's pin factory, lgpio, made directly; None (gpiozero's own choice, with its
    fallbacks and messages) when ``$GPIOZERO_PIN_FACTORY`` names one or lgpio cannot open."""
    if os.environ.get("GPIOZERO_PIN_FACTORY"):
        return None
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    except Exception:  # lgpio missing or no GPIO chip: gpiozero's chain says why
        return None
