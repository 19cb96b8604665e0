"""The vote's reveals, as ``tests/test_reveals.py`` checks them on the demo's tables.

A round's reveal is its choices (the shuffled cards, the count, or each option's seats),
three lines a page: the cards grow with the voters, so its pages are counted here from
the game's own sentences at the largest table, each voter choosing the longest option.
"""

from __future__ import annotations

from typing import Any

from companion.games.vote.rules import CHOICES, REVEALS, Vote
from companion.games.vote.screens import option_label, reveal_lines
from companion.ui.canvas import BODY_LINES, wrap
from companion.ui.i18n import translator

#: the tables played: the smallest and the largest, and the largest counting four options
TABLES: list[tuple[int, dict[str, Any]]] = [
    (Vote.min_players, {}),
    (Vote.max_players, {}),
    (Vote.max_players, {"choice": "abcd", "reveal": "tally"}),
]


def most_pages() -> int:
    """The most pages a round's reveal takes (in English, as the test plays)."""
    t, seats = translator("en"), list(range(Vote.max_players))
    most = 0
    for choices in CHOICES.values():
        longest = max(choices, key=lambda option: len(option_label(option, t)))
        for reveal in REVEALS:
            line = {
                "voters": seats,
                "tally": [len(seats) if c == longest else 0 for c in choices],
                "cards": [longest] * len(seats) if reveal == "cards" else None,
                "open": [longest] * len(seats) if reveal == "open" else None,
            }
            lines = [part for said in reveal_lines(line, list(choices), t) for part in wrap(said)]
            most = max(most, -(-len(lines) // BODY_LINES))
    return most


#: the decision answered -> the kind of reveal it brings
CAUSES = {"vote": "round", "next": "the end"}
#: the most screens a reveal of each kind takes: the round's choices (V5); the count of
#: the rounds, once the chair ends the game (V6)
CAPS = {"round": most_pages(), "the end": 1}
#: kinds whose text grows with the table: every page but the last is full
PAGED = {"round"}
#: the secret ballots every table reaches, each anonymous (its reveal names no voter)
BALLOTS = ANONYMOUS = {"vote"}
