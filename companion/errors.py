"""Errors shared across the house, kept apart so that any room can raise them."""


class IllegalMove(ValueError):
    """A move the rules forbid. The message names the rule; the game is unchanged."""
