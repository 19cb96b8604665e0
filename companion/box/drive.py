"""What the GPIOs drive, in milliamps: the LEDs and the buzzer's transistor against a budget.

A GPIO is a weak 3.3 V source. The Pi's pads meet their logic levels up to their drive
strength (8 mA by default) and all of them together should source no more than about
50 mA; the Pico's RP2040 defaults to 4 mA a pin, 50 mA for all its IOs. Twelve LEDs at
330 ohm drew 47-55 mA, the header's whole allowance, so the box uses high-efficiency LEDs
at 1 kohm (about 1.1-1.6 mA each, plenty behind a panel indoors) and drives the buzzer
through a transistor. The currents are computed from the parts the pinout declares, at
the resistor's tolerance and the LED's lowest and highest forward voltage, and a pinout
whose worst case leaves the budget is refused. The budget is half the chips' total so
that a bright part swapped in later, or the pull-ups, still find room.
"""

from __future__ import annotations

from companion.errors import PinoutError
from companion.valueclass import valueclass

SUPPLY_V = 3.3
RESISTOR_TOLERANCE = 0.05  # the BOM's resistors are 5 %
VISIBLE_MA = 1.0  # a high-efficiency LED below this is too dim to read across a table
BASE_RESISTOR = 1000  # ohm, GPIO to the buzzer transistor's base
BASE_EMITTER_V = 0.7
#: Buzzer types the box can drive: each goes through an NPN transistor from 5 V (a GPIO
#: gives 3.3 V and a few mA; the buzzer wants 5 V and up to 30-40 mA); a magnetic one is
#: a coil, whose switch-off spike the flyback diode across it takes. Piezo: no diode.
BUZZERS = ("magnetic", "piezo")


@valueclass(frozen=True)
class LedPart:
    """The LED every output lights (the box's bar and status LEDs, a pad's LED)."""

    resistor: int  # ohm, one per LED: GPIO -> resistor -> anode, cathode -> ground
    forward_voltage: tuple[float, float]  # V, lowest and highest of the part near 1-2 mA

    def current_ma(self) -> tuple[float, float]:
        """The lowest and highest current through one LED, resistor tolerance included."""
        v_low, v_high = self.forward_voltage
        low = (SUPPLY_V - v_high) / (self.resistor * (1 + RESISTOR_TOLERANCE))
        high = (SUPPLY_V - v_low) / (self.resistor * (1 - RESISTOR_TOLERANCE))
        return low * 1000, high * 1000


def base_current_ma() -> float:
    """The most the buzzer transistor's base takes from its GPIO."""
    return (SUPPLY_V - BASE_EMITTER_V) / (BASE_RESISTOR * (1 - RESISTOR_TOLERANCE)) * 1000


@valueclass(frozen=True)
class Budget:
    """How much one board's GPIOs may source: each pin, and all of them at once."""

    board: str
    per_pin_ma: float
    total_ma: float


PI_BUDGET = Budget("Raspberry Pi", per_pin_ma=8.0, total_ma=25.0)
PICO_BUDGET = Budget("Raspberry Pi Pico", per_pin_ma=4.0, total_ma=25.0)


@valueclass(frozen=True)
class Load:
    """One GPIO's load at its worst: ``ma`` when everything it drives is on."""

    what: str
    ma: float


def check(loads: list[Load], budget: Budget, part: LedPart) -> float:
    """The total of ``loads`` (all on at once), or one line saying which limit it breaks."""
    low = part.current_ma()[0]
    if low < VISIBLE_MA:
        raise PinoutError(
            f"leds.resistor: {part.resistor} ohm gives as little as {low:.2f} mA an LED, "
            f"too dim (at least {VISIBLE_MA:g} mA): use a smaller resistor"
        )
    for load in loads:
        if load.ma > budget.per_pin_ma:
            raise PinoutError(
                f"{load.what} draws up to {load.ma:.1f} mA, over the {budget.board}'s "
                f"{budget.per_pin_ma:g} mA a pin: use a larger resistor or a driver"
            )
    total = sum(load.ma for load in loads)
    if total > budget.total_ma:
        raise PinoutError(
            f"the {budget.board}'s GPIOs would source up to {total:.1f} mA with every LED on, "
            f"over its {budget.total_ma:g} mA budget: use larger resistors (high-efficiency "
            "LEDs) or a driver (ULN2003, transistors)"
        )
    return total


def summary(loads: list[Load], budget: Budget, part: LedPart) -> str:
    """One sentence for the wiring notes: the numbers the check above compared."""
    low, high = part.current_ma()
    total = check(loads, budget, part)
    return (
        f"{budget.board}: each LED {low:.1f}-{high:.1f} mA (3.3 V, "
        f"{part.forward_voltage[0]:g}-{part.forward_voltage[1]:g} V LED, {part.resistor} ohm "
        f"+/-{RESISTOR_TOLERANCE:.0%}); at most {total:.1f} mA from "
        f"{len(loads)} GPIO{'s' if len(loads) > 1 else ''} with everything on, inside the "
        f"budget of {budget.per_pin_ma:g} mA a pin and {budget.total_ma:g} mA in all."
    )
