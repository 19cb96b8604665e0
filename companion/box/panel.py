"""A virtual OLED panel: the I2C end of the virtual board.

luma's real driver talks to it exactly as it talks to the bus on a Pi; the
panel decodes the SSD1306/SH1106 command stream (addressing modes, column
and page windows, display on/off, inversion) into its own display RAM. What
the terminal front end and the tests see is that RAM, so they check what the
driver really sent, not the picture it was handed.
"""

from __future__ import annotations

from PIL import Image

# Commands followed by argument bytes, by controller; every other command stands alone.
# The SH1106 has no addressing modes or windows: it always writes a page at a time.
ARGUMENTS = {
    "ssd1306": {
        0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1,
        0xA3: 2, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1,
    },
    "sh1106": {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1},
}  # fmt: skip
HORIZONTAL, VERTICAL, PAGE = 0, 1, 2
INVERT = bytes(255 - byte for byte in range(256))


class VirtualPanel:
    """SSD1306-style display RAM fed by a driver's ``command`` and ``data`` calls."""

    def __init__(self, controller: str = "ssd1306", width: int = 128, height: int = 64) -> None:
        self.arguments = ARGUMENTS[controller]
        columns = 132
        self.width = width
        self.height = height
        self.pages = height // 8
        self.columns = columns  # RAM columns (the SH1106 has 132, the SSD1306 uses 128)
        self.ram = [bytearray(columns) for _ in range(self.pages)]
        self.mode = PAGE  # the controller's reset state
        self.col_window = (0, width - 1)
        self.page_window = (0, self.pages - 1)
        self.col = 0
        self.page = 0
        self.on = False
        self.inverted = False
        # The first RAM column shown: 128-pixel SH1106 modules show columns 2-129.
        self.offset = 2 if controller == "sh1106" else 0
        self.command_bytes = 0
        self.data_bytes = 0
        self.updates = 0

    # -- the serial interface luma calls ---------------------------------------------
    def command(self, *cmd: int) -> None:
        self.command_bytes += len(cmd)
        arguments = self.arguments
        i = 0
        while i < len(cmd):
            op = cmd[i]
            i += 1
            if self.mode == PAGE:  # page addressing: a window's page and start column
                if op < 0x10:
                    self.col = (self.col & 0xF0) | op
                    continue
                if op < 0x20:
                    self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)
                    continue
                if 0xB0 <= op <= 0xB7:
                    self.page = op & 0x07
                    continue
            n = arguments.get(op, 0)
            self._command(op, cmd[i : i + n])
            i += n

    def data(self, data: list[int] | bytes) -> None:
        self.data_bytes += len(data)
        self.updates += 1
        data = bytes(data)
        if self.mode == PAGE and self.col + len(data) <= self.columns:
            # The common write, a window within the page, in one slice.
            self.ram[self.page][self.col : self.col + len(data)] = data
            self.col = min(self.col + len(data), self.columns - 1)
            return
        while data and self.mode != VERTICAL:
            # A run up to the end of the column window (or of the RAM in page mode).
            last = self.col_window[1] if self.mode == HORIZONTAL else self.columns - 1
            n = max(1, min(len(data), last - self.col + 1))
            self.ram[self.page][self.col : self.col + n] = data[:n]
            self.col += n - 1
            data = data[n:]
            self._advance()
        for byte in data:
            self.ram[self.page][self.col] = byte
            self._advance()

    def cleanup(self) -> None:
        self.on = False

    # -- the controller ---------------------------------------------------------------
    def _command(self, op: int, args: tuple[int, ...]) -> None:
        if op == 0x20 and self.arguments is ARGUMENTS["ssd1306"]:
            self.mode = args[0] & 0x03
        elif op == 0x21 and args:
            self.col_window = (args[0], args[1])
            self.col = args[0]
        elif op == 0x22 and args:
            self.page_window = (args[0] & 0x07, args[1] & 0x07)
            self.page = args[0] & 0x07
        elif 0xB0 <= op <= 0xB7 or op <= 0x1F:
            pass  # page addressing commands (``command`` decodes them in page mode, the
            # SSD1306 ignores them in its other modes)
        elif op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif op in (0xA6, 0xA7):
            self.inverted = op == 0xA7

    def _advance(self) -> None:
        first_col, last_col = self.col_window
        first_page, last_page = self.page_window
        if self.mode == PAGE:
            self.col = min(self.col + 1, self.columns - 1)
        elif self.mode == HORIZONTAL:
            self.col += 1
            if self.col > last_col:
                self.col = first_col
                self.page = first_page if self.page >= last_page else self.page + 1
        else:
            self.page += 1
            if self.page > last_page:
                self.page = first_page
                self.col = first_col if self.col >= last_col else self.col + 1

    # -- what the glass shows -----------------------------------------------------------
    @property
    def sent(self) -> int:
        return self.command_bytes + self.data_bytes

    def image(self) -> Image.Image:
        """The lit pixels as a 1-bit image (all dark while the display is off)."""
        if not self.on:
            return Image.new("1", (self.width, self.height), 0)
        # Column x of the glass, bottom pixel first, is row x of the image turned a quarter
        # clockwise: its bytes are the pages' bytes for that column, last page first.
        count = self.pages
        columns = bytearray(self.width * count)
        for page in range(count):
            columns[count - 1 - page :: count] = self.ram[page][
                self.offset : self.offset + self.width
            ]
        if self.inverted:
            columns = columns.translate(INVERT)
        turned = Image.frombytes("1", (self.height, self.width), bytes(columns))
        return turned.transpose(Image.Transpose.ROTATE_90)
