"""The device: buttons, LEDs, OLED and buzzer, on a Raspberry Pi or a virtual board."""

from __future__ import annotations

from companion.box.board import Board, open_board
from companion.box.clock import VirtualClock, WallClock
from companion.box.inputs import Inputs
from companion.box.outputs import Outputs
from companion.box.pinout import BUTTONS, Pinout, load_pinout

__all__ = ["Box", "VirtualClock", "WallClock", "open_box"]


class Box:
    """A board with its input queue and its outputs, on one clock."""

    def __init__(self, board: Board, clock: WallClock | VirtualClock) -> None:
        self.board = board
        self.clock = clock
        self.inputs = Inputs(BUTTONS, clock.now)
        self.outputs = Outputs(board, clock.now)
        board.connect(self.inputs.edge)

    @property
    def virtual(self) -> bool:
        return self.board.kind == "virtual"

    def close(self) -> None:
        self.board.close()


def open_box(
    kind: str = "auto",
    pinout: Pinout | None = None,
    clock: WallClock | VirtualClock | None = None,
) -> Box:
    board = open_board(kind, pinout or load_pinout())
    return Box(board, clock or WallClock())
