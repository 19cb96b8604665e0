"""The names of decisions and phases: each game types its own, in its folder's ``kinds``.

They stay plain strings at run time (``Literal`` types, not enums), so saved
records, journal rows, views and the web's messages carry the same text; a
game's ``kinds`` module holds its ``Literal`` types, which mypy
(``strict_equality``) holds each use in the game to. The house sees any kind as
a ``Kind``.
"""

from __future__ import annotations

#: what a decision asks (``Decision.kind``): a game's own kinds, as plain text
Kind = str
