"""gpiozero, loaded without ``importlib.metadata`` and without the devices the box does not
use, and the Pi's pin factory named outright.

gpiozero imports ``importlib.metadata`` when it loads, only to look up a pin
factory by entry point when ``$GPIOZERO_PIN_FACTORY`` names one. That import
(email parsing, zipfile and the rest) is the largest single cost of the box's
first second; on a Pi Zero it is most of one. So gpiozero is loaded here, first,
with an ``entry_points`` that imports ``importlib.metadata`` only when called. The same
goes for ``statistics`` (with ``fractions`` and ``decimal``: the averages of its smoothed
sensors) and ``colorzero`` (an RGB LED's colour), each a fifth as costly: names the box
never calls, imported when first called.

gpiozero's package body then imports every device it has, and with them
``subprocess``, ``datetime``, ``importlib.resources``, ``pprint`` and more (boards,
internal and SPI devices, segment fonts): over a third of its cost. The box drives
buttons, LEDs and a buzzer only, so the package is put in place with its body not
yet run: the modules the box uses import without it, and the first name looked up
on ``gpiozero`` itself runs it then (``gpiozero.LED``, ``from gpiozero import X``
work as ever). The LED bar is ten of gpiozero's ``LED``, lit from the first, as
its ``LEDBarGraph`` (which lives with the boards) lights them. A button is a plain
``DigitalInputDevice``: gpiozero's ``Button`` adds hold events, with a thread for each
button, which the box does not use (its own debouncer times holds, on the box's clock).

On a Pi, the box names its pin factory (lgpio) itself rather than have gpiozero
try each library in turn; ``$GPIOZERO_PIN_FACTORY`` still wins when set.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import types
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


#: what gpiozero imports at load and calls only for devices the box does not have: module,
#: and the names taken from it
LATER = {
    "importlib_metadata": ("entry_points",),
    "statistics": ("median", "mean"),
    "colorzero": ("Color",),
}


def _on_first_call(module: str, name: str) -> Callable[..., Any]:
    """``module.name``, imported when first called (from the real ``importlib.metadata`` for
    gpiozero's backport)."""
    real = "importlib.metadata" if module == "importlib_metadata" else module

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(real), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


def _without_metadata(load: Callable[[], T]) -> T:
    """``load()`` with stand-ins for the modules of ``LATER`` not yet loaded."""
    # A stand-in is there for the time of the import only: it is removed at once, so that
    # nobody else mistakes it for the module (or gpiozero's backport of importlib.metadata).
    stand_ins = [module for module in LATER if module not in sys.modules]
    for module in stand_ins:
        stand_in = types.ModuleType(module)
        for name in LATER[module]:
            setattr(stand_in, name, _on_first_call(module, name))
        sys.modules[module] = stand_in
    try:
        return load()
    finally:
        for module in stand_ins:
            del sys.modules[module]


def _package_in_place() -> None:
    """``gpiozero`` in ``sys.modules``, its body run on the first name looked up on it."""
    if "gpiozero" in sys.modules:
        return
    spec = importlib.util.find_spec("gpiozero")
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError("No module named 'gpiozero'", name="gpiozero")
    package = importlib.util.module_from_spec(spec)
    loader = spec.loader

    def run_body(name: str) -> Any:
        """PEP 562's hook, called for a name the package does not have (yet): the body
        defines them all, from the submodules already loaded, and the hook goes."""
        if name.startswith("__"):  # probes for dunders never need the body
            raise AttributeError(f"module 'gpiozero' has no attribute {name!r}")
        del package.__dict__["__getattr__"]
        _without_metadata(lambda: loader.exec_module(package))
        return getattr(package, name)

    package.__dict__["__getattr__"] = run_body
    sys.modules["gpiozero"] = package


def import_without_metadata(name: str) -> types.ModuleType:
    """Import gpiozero's module ``name`` (its package's body not run) with the stand-ins of
    ``LATER`` (``importlib.metadata`` above all)."""
    if name in sys.modules:
        return sys.modules[name]
    _package_in_place()
    return _without_metadata(lambda: importlib.import_module(name))


import_without_metadata("gpiozero.input_devices")
import_without_metadata("gpiozero.output_devices")

from gpiozero.exc import GPIOZeroError, GPIOZeroWarning  # noqa: E402
from gpiozero.input_devices import DigitalInputDevice  # noqa: E402
from gpiozero.output_devices import LED, PWMLED, Buzzer  # noqa: E402

__all__ = [
    "LED",
    "PWMLED",
    "Buzzer",
    "DigitalInputDevice",
    "GPIOZeroError",
    "GPIOZeroWarning",
    "LedBar",
    "import_without_metadata",
    "pi_pin_factory",
]


class LedBar(tuple[LED, ...]):
    """The LED bar: its LEDs in order, the first ``lit`` on (what ``LEDBarGraph.value =
    lit / len(bar)`` lights, without loading gpiozero's boards)."""

    def __new__(cls, pins: tuple[int, ...], pin_factory: Any = None) -> LedBar:
        leds: list[LED] = []
        try:
            for pin in pins:
                leds.append(LED(pin, pin_factory=pin_factory))
        except BaseException:
            for led in leds:
                led.close()
            raise
        return super().__new__(cls, leds)

    def light(self, lit: int) -> None:
        for index, led in enumerate(self):
            led.value = index < lit

    def close(self) -> None:
        for led in self:
            led.close()


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
