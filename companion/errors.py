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
    """A move the rules forbid, as data; the game is unchanged.

    ``code`` says which refusal it is (a game declares its own, ``Game.REFUSALS``),
    ``rule`` the rule it cites ("G3", "5.1"; "" for the contract's own) and
    ``facts`` the values a sentence in any language is written from (seat
    numbers as printed, counted from 1). The message, ``str(exc)``, is the
    English sentence for the log; a screen writes its own text from the code
    and the facts through the language's catalog, never from the message.
    """

    def __init__(
        self,
        message: str,
        code: str = "",
        rule: str = "",
        facts: dict[str, str | int] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule
        self.facts: dict[str, str | int] = dict(facts or {})


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
