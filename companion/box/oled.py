"""The OLED: luma's real drivers, sending only the pages that changed.

luma's ssd1306 sends the whole 1 KiB frame on every update (about 23 ms on a
400 kHz I2C bus). ``PagedSSD1306`` keeps luma's driver (initialisation,
contrast, rotation) and overrides only ``display`` to send the 8-row pages
that differ from what the panel already shows. It also packs the frame with
Pillow instead of ``Image.getdata()``, which Pillow 14 deprecates.
"""

from __future__ import annotations

from typing import Any

from luma.oled.device import sh1106, ssd1306
from PIL import Image

from companion.box.pinout import Oled


def page_bytes(image: Image.Image, page: int) -> bytes:
    """One page in SSD1306 order: a byte per column, bit k = row 8 * page + k."""
    strip = image.crop((0, 8 * page, image.width, 8 * page + 8))
    # Turned a quarter clockwise, each column is a row of 8 pixels, bottom one first
    # (the most significant bit), so packing the bits gives the controller's bytes.
    return strip.transpose(Image.Transpose.ROTATE_270).tobytes()


class PagedSSD1306(ssd1306):
    """luma's ssd1306, sending only changed pages."""

    _shown: list[bytes | None] | None = None  # set by the first display (luma clears in init)

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode
        assert image.size == self.size
        image = self.preprocess(image)
        if self._shown is None:
            self._shown = [None] * self._pages
        for page in range(self._pages):
            data = page_bytes(image, page)
            if data == self._shown[page]:
                continue
            self.command(
                self._const.COLUMNADDR, self._colstart, self._colend - 1,
                self._const.PAGEADDR, page, page,
            )  # fmt: skip
            self.data(list(data))
            self._shown[page] = data

    def invalidate(self) -> None:
        """Forget what the panel shows (after a reset or a reconnect)."""
        self._shown = None


def open_oled(config: Oled, serial_interface: Any) -> Any:
    """luma's driver for the configured panel over ``serial_interface``."""
    kwargs = {"width": config.width, "height": config.height, "rotate": config.rotate}
    if config.driver == "sh1106":
        return sh1106(serial_interface, **kwargs)
    return PagedSSD1306(serial_interface, **kwargs)
