"""Errors shared across the house, kept apart so that any room can raise them.

Every error a user can cause derives from ``CompanionError``, so the command
line turns each into one line and a non-zero exit. Each also inherits the
built-in it stands for (as gpiozero's errors do), so ``except ValueError``
keeps working. The handsets' ``FrameError`` stays outside: the wire protocol
also runs on MicroPython, which has no ``companion`` package.
"""


class CompanionError(Exception):
    """Something the user can fix; the message says what and, where it can, how."""


class IllegalMove(CompanionError, ValueError):
    """A move the rules forbid. The message names the rule; the game is unchanged."""


class SettingsError(CompanionError, ValueError):
    """Settings no game can start with: a player count, an option, options that clash."""


class BoardError(CompanionError, ValueError):
    """A Glasnost board description that cannot be read or breaks the schema or rule 5.1."""


class PinoutError(CompanionError, ValueError):
    """A pinout file that does not describe a box this code can drive."""


class HardwareError(CompanionError, OSError):
    """The box's parts cannot be reached: no I2C bus, no OLED on it, no GPIO access."""


class JournalError(CompanionError, RuntimeError):
    """The journal cannot be opened or written; the message says where and why."""
