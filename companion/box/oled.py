"""The OLED: luma's real drivers, sending only what changed.

luma's ssd1306 and sh1106 send the whole 1 KiB frame on every update (about
23 ms on a 400 kHz I2C bus). The drivers here keep luma's (initialisation,
contrast, rotation) and override only ``display``:

- ``PagedSSD1306`` and ``PagedSH1106`` send the 8-row pages that differ from
  what the panel shows;
- ``WindowSSD1306`` and ``WindowSH1106`` send, of each changed page, only the
  window of columns from the first to the last that changed (two windows when
  more than three unchanged columns lie between them). Both use page
  addressing, the SH1106's only mode: a window is the page, its first column
  (low and high nibbles, three command bytes in all), then its bytes. The
  SSD1306 could be given a window with its column and page address commands,
  but those cost six bytes.

They pack a frame into pages with one Pillow transpose rather than
``Image.getdata()``, which Pillow 14 deprecates.

luma's serial interfaces import ``multiprocessing`` (with ``pickle`` and ``socket``)
in a class body, for the backlight fades of one I/O expander the box does not have: a
tenth of the first frame's imports. luma is loaded with a stand-in there whose
``Process`` imports the real one when a fade makes one.
"""

from __future__ import annotations

import functools
import re
import sys
import types
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from PIL import Image

from companion.box.pinout import Oled


class _Process:
    """``multiprocessing.Process``, imported when one is made."""

    def __new__(cls, *args: Any, **kwargs: Any) -> Any:
        from multiprocessing import Process

        return Process(*args, **kwargs)


def _import_luma() -> None:
    """luma's serial interfaces, with ``multiprocessing`` imported only when a fade needs it."""
    if "multiprocessing" in sys.modules:
        return  # loaded already: nothing to spare
    stand_in = types.ModuleType("multiprocessing")
    stand_in.Process = _Process  # type: ignore[attr-defined]
    sys.modules["multiprocessing"] = stand_in
    try:
        import luma.core.interface.serial  # noqa: F401
    finally:  # gone at once, so that nobody else mistakes it for the real one
        del sys.modules["multiprocessing"]


_import_luma()

import luma.oled.const  # noqa: E402
from luma.core.device import device  # noqa: E402
from luma.core.error import DeviceDisplayModeError  # noqa: E402
from luma.oled.device import sh1106, ssd1306  # noqa: E402

# Page addressing commands (the SH1106's only mode, the SSD1306's at reset).
PAGE = 0xB0  # + page: the page the next bytes go to
LOW_COLUMN = 0x00  # + the start column's low nibble
HIGH_COLUMN = 0x10  # + the start column's high nibble
PAGE_ADDRESSING = 0x02  # the SSD1306's memory mode (command 0x20) for it


def pages(image: Image.Image) -> list[bytes]:
    """Every page in SSD1306/SH1106 order: a byte per column, bit k = row 8 * page + k."""
    # Turned a quarter clockwise, column x is row x, read from the bottom pixel up: its
    # bytes are the pages' bytes for that column, last page first, each with its bottom
    # row as the most significant bit, which is the controllers' order.
    count = image.height // 8
    columns = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return [columns[count - 1 - page :: count] for page in range(count)]


@functools.cache
def _runs(cost: int) -> re.Pattern[bytes]:
    """Runs of changed (non-zero) bytes of a page's diff, with the gaps of at most ``cost``
    unchanged bytes between them: each match is one window."""
    if cost == 0:
        return re.compile(rb"[^\x00]+")
    return re.compile(rb"[^\x00]+(?:\x00{1,%d}[^\x00]+)*" % cost)


def windows(shown: bytes | None, new: bytes, cost: int) -> list[tuple[int, int]]:
    """The column windows ``(first, last)`` to send so the panel shows ``new`` instead of
    ``shown`` in the fewest bytes: a run of unchanged columns splits two windows only when
    it is longer than the ``cost`` in bytes of starting a window (no change: no window)."""
    if shown is None or cost >= len(new):
        return [(0, len(new) - 1)]
    diff = (int.from_bytes(shown, "big") ^ int.from_bytes(new, "big")).to_bytes(len(new), "big")
    return [(run.start(), run.end() - 1) for run in _runs(cost).finditer(diff)]


class _Memory:
    """What the panel shows, page by page, so that a driver sends only changes."""

    _shown: list[bytes | None] | None = None  # set by the first display (luma clears in init)
    window_cost = 128  # command bytes that start a window (a page's width: pages go whole)

    def changes(self, image: Image.Image) -> Iterator[tuple[int, list[tuple[int, int]], bytes]]:
        """``(page, windows, page bytes)`` for each page that changed, remembered as shown
        (the caller sends it)."""
        new = pages(image)
        if self._shown is None:
            self._shown = [None] * len(new)
        for page, data in enumerate(new):
            if data != self._shown[page]:
                spans = windows(self._shown[page], data, self.window_cost)
                self._shown[page] = data
                yield page, spans, data


class _SSD1306(ssd1306):
    """luma's ssd1306, initialised as luma does it but without the two lookup tables its own
    ``display()`` reads (8,192 entries each, built pixel by pixel: a twentieth of a start),
    since every driver here sends frames its own way. ``tests/test_box_parts.py`` holds the
    bytes this sends to those luma's ``__init__`` sends."""

    #: luma's ssd1306 modes: (width, height) -> multiplex, clock divide, COM pins, first column
    MODES = {
        (128, 64): (0x3F, 0x80, 0x12, 0),
        (128, 32): (0x1F, 0x80, 0x02, 0),
        (96, 16): (0x0F, 0x60, 0x02, 0),
        (64, 48): (0x2F, 0x80, 0x12, 32),
        (64, 32): (0x1F, 0x80, 0x12, 32),
    }

    def __init__(
        self, serial_interface: Any = None, width: int = 128, height: int = 64, rotate: int = 0
    ) -> None:
        device.__init__(self, luma.oled.const.ssd1306, serial_interface)
        self.capabilities(width, height, rotate)
        mode = self.MODES.get((width, height))
        if mode is None:
            raise DeviceDisplayModeError(f"Unsupported display mode: {width} x {height}")
        multiplex, clock, compins, self._colstart = mode
        self._pages = height // 8
        self._colend = self._colstart + self._w
        c = self._const
        self.command(
            c.DISPLAYOFF,
            c.SETDISPLAYCLOCKDIV, clock,
            c.SETMULTIPLEX, multiplex,
            c.SETDISPLAYOFFSET, 0x00,
            c.SETSTARTLINE,
            c.CHARGEPUMP, 0x14,
            c.MEMORYMODE, 0x00,
            c.SETSEGMENTREMAP,
            c.COMSCANDEC,
            c.SETCOMPINS, compins,
            c.SETPRECHARGE, 0xF1,
            c.SETVCOMDETECT, 0x40,
            c.DISPLAYALLON_RESUME,
            c.NORMALDISPLAY,
        )  # fmt: skip
        self.contrast(0xCF)
        self.clear()
        self.show()


class PagedSSD1306(_Memory, _SSD1306):
    """luma's ssd1306, sending only changed pages, whole."""

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode
        assert image.size == self.size
        for page, _, data in self.changes(self.preprocess(image)):
            self.command(
                self._const.COLUMNADDR, self._colstart, self._colend - 1,
                self._const.PAGEADDR, page, page,
            )  # fmt: skip
            self.data(list(data))


class _PageAddressing(_Memory):
    """Page addressing, which both controllers have: a page, a start column (low and high
    nibbles), then bytes to the right: three command bytes a window."""

    window_cost = 3
    first_column = 0  # the RAM column of the module's first pixel

    if TYPE_CHECKING:  # luma's device, which each driver below also is
        mode: str
        size: tuple[int, int]

        def command(self, *cmd: int) -> None: ...
        def data(self, data: list[int]) -> None: ...
        def preprocess(self, image: Image.Image) -> Image.Image: ...

    def send(self, page: int, column: int, data: bytes) -> None:
        """``data`` to ``page`` from the module's ``column`` (its first pixel is column 0)."""
        column += self.first_column
        self.command(PAGE | page, LOW_COLUMN | (column & 0x0F), HIGH_COLUMN | (column >> 4))
        self.data(list(data))

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode
        assert image.size == self.size
        for page, spans, data in self.changes(self.preprocess(image)):
            for first, last in spans:
                self.send(page, first, data[first : last + 1])


class PagedSH1106(_PageAddressing, sh1106):
    """luma's sh1106, sending only changed pages, whole."""

    window_cost = 128

    @property
    def first_column(self) -> int:  # type: ignore[override]
        return int(self._page_address_offset)  # 2 on 128-pixel modules


class WindowSH1106(PagedSH1106):
    """luma's sh1106, sending of each changed page only the columns that changed.

    Luma sends every page whole. The SH1106 has no column window: it writes from a
    start column to the right, so a window costs three command bytes (page, low and
    high nibble) and two windows are sent apart when more than three unchanged
    columns lie between them.
    """

    window_cost = _PageAddressing.window_cost


class WindowSSD1306(_PageAddressing, _SSD1306):
    """luma's ssd1306, sending of each changed page only the columns that changed.

    Luma sets the horizontal addressing mode and sends the whole frame. This driver
    switches the controller to page addressing, as the SH1106 works, where a window
    costs three command bytes against six for the column and page address commands.
    """

    @property
    def first_column(self) -> int:  # type: ignore[override]
        return int(self._colstart)  # 0 on 128-pixel modules

    def display(self, image: Image.Image) -> None:
        if self._shown is None:  # luma's initialisation (or a reset) left another mode
            self.command(self._const.MEMORYMODE, PAGE_ADDRESSING)
        super().display(image)


DRIVERS: dict[str, dict[str, Any]] = {
    "ssd1306": {"luma": ssd1306, "paged": PagedSSD1306, "window": WindowSSD1306},
    "sh1106": {"luma": sh1106, "paged": PagedSH1106, "window": WindowSH1106},
}  # by controller, then kind: what the bench compares


def open_oled(config: Oled, serial_interface: Any) -> Any:
    """The window driver for the configured panel over ``serial_interface``."""
    kwargs = {"width": config.width, "height": config.height, "rotate": config.rotate}
    return DRIVERS[config.driver]["window"](serial_interface, **kwargs)
