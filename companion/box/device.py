"""The box: a board with its input queue and its outputs, on one clock."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from companion.box.board import Board, VirtualBoard, open_board
from companion.box.clock import VirtualClock, WallClock
from companion.box.inputs import Inputs
from companion.box.outputs import Outputs
from companion.box.pinout import BUTTONS, Pinout, load_pinout

if TYPE_CHECKING:  # pyserial is loaded only for a box with handsets
    from companion.box.handsets import Handsets


class Box:
    """A board with its input queue and its outputs, on one clock."""

    def __init__(
        self, board: Board, clock: WallClock | VirtualClock, handsets: Handsets | None = None
    ) -> None:
        self.board = board
        self.clock = clock
        self.inputs = Inputs(BUTTONS, clock.now)
        self.outputs = Outputs(board, clock.now)
        self.handsets = handsets
        #: the privacy hood over the screen and A, B, PEEK; a front end without one (the
        #: terminal) says so, and the table then hides a seat's private lines until PEEK
        self.hooded = True
        board.connect(self.inputs.edge)

    @property
    def virtual(self) -> bool:
        return isinstance(self.board, VirtualBoard)

    @property
    def virtual_board(self) -> VirtualBoard:
        """The board software can press and read back: a demo's, a test's or a terminal's."""
        if not isinstance(self.board, VirtualBoard):
            raise RuntimeError("only the virtual board's buttons can be pressed by software")
        return self.board

    def close(self) -> None:
        self.board.close()
        if self.handsets is not None:
            self.handsets.close()


def open_box(
    kind: str = "auto",
    pinout: Pinout | None = None,
    clock: WallClock | VirtualClock | None = None,
    handsets: Iterable[str] = (),
) -> Box:
    """The box of ``kind``, with handsets on the serial ports ``handsets`` (if any)."""
    clock = clock or WallClock()
    board = open_board(kind, pinout or load_pinout())
    urls = list(handsets)
    if not urls:
        return Box(board, clock)
    from companion.box.handsets import Handsets

    return Box(board, clock, Handsets(urls, clock.now))
