"""Kolkhoz's reveals whichever deal: the table reads the same, but who deals."""

from __future__ import annotations

import re

from companion.games.kolkhoz.tests.reveals import new_year
from tests.test_reveals import play_case


def test_kolkhoz_reads_the_same_reveals_whichever_deal() -> None:
    """With real cards the box is told the tricks and the plots (between a trick's jobs and
    the year's end the seats enter their revealed plot cards); the table then reads, screen
    for screen, what it reads when the box deals, but for the new year's first line: a
    dealer deals real cards ("Year 2: deal 5 each,"); when the box has dealt, nobody deals
    ("Year 2: 5 cards each,")."""
    cards = play_case("kolkhoz", 4, {"deal": "cards"})
    box = play_case("kolkhoz", 4, {"deal": "box"})
    told = [s for r in cards.reveals for s in r.screens]
    dealt = [s for r in box.reveals for s in r.screens]
    assert len(told) == len(dealt)
    for by_hand, by_box in zip(told, dealt, strict=True):
        if new_year(by_hand):
            found = re.fullmatch(r"Year (\d): deal (\d+) each,", by_hand.body[0])
            assert found is not None
            year, size = found.groups()
            assert by_box.body[0] == f"Year {year}: {size} cards each,"
            assert by_hand.body[1:] == by_box.body[1:] and by_hand.status == by_box.status
        else:
            assert by_hand == by_box
