"""The kinds of board the box runs on, named apart from the box.

The CLI offers them as ``--board`` choices; keeping them here lets ``companion
--help`` list them without loading gpiozero, luma or Pillow.
"""

from __future__ import annotations

BOARDS = ("auto", "pi", "virtual")
