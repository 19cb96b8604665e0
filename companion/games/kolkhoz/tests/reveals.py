"""Kolkhoz's reveals, as ``tests/test_reveals.py`` checks them on the demo's tables.

Kolkhoz always seats four: the test plays one table a deal. A move may end a trick,
complete jobs and close the year at once, so its reveal is cut into those parts by
what the screens say. Kolkhoz has no secret ballot.
"""

from __future__ import annotations

from typing import Any

from companion.ui.canvas import BODY_LINES, Screen

#: the tables played: four seats, with each deal
TABLES: list[tuple[int, dict[str, Any]]] = [(4, {"deal": "cards"}), (4, {"deal": "box"})]
#: the most lines a year's close has (K5, ``kolkhoz/screens.py``): "Year y is over.", then
#: for each of the four jobs "<job> failed:" and a line for each of the four seats sending
#: cards north
YEAR_END_LINES = 1 + 4 * (1 + 4)
#: the most screens a part of each kind takes
CAPS = {
    "trick winner": 1,
    "job done": 4,  # one screen a job completed by the move: four jobs
    "year end": -(-YEAR_END_LINES // BODY_LINES),  # K5, three lines a page
    "new year": 1,  # its hand size, tricks and jobs
}
#: kinds whose text grows with what must be read: every page but the last is full
PAGED = {"year end"}
#: no secret ballot
BALLOTS: set[str] = set()


def new_year(screen: Screen) -> bool:
    """The screen that opens a year: its hand size, tricks and jobs."""
    return (
        bool(screen.body)
        and screen.body[0].startswith("Year ")
        and screen.body[0].endswith(" each,")
    )


def parts(cause: str, screens: list[Screen]) -> list[tuple[str, list[Screen]]]:
    """A reveal cut into its parts by what its screens say."""
    found: list[tuple[str, list[Screen]]] = []
    for screen in screens:
        text = " ".join(screen.body)
        if "wins trick" in text:
            kind = "trick winner"
        elif " done!" in text:
            kind = "job done"
        elif new_year(screen):
            kind = "new year"
        elif " is over." in text or (found and found[-1][0] == "year end"):
            kind = "year end"
        else:
            kind = f"? {text}"
        if found and found[-1][0] == kind:
            found[-1][1].append(screen)
        else:
            found.append((kind, [screen]))
    return found
