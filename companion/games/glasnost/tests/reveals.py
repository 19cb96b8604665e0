"""Glasnost's reveals, as ``tests/test_reveals.py`` checks them on the demo's tables.

The reveal that follows each decision answered ("opening": the game's start), and the
most screens it takes at any table size; the secret ballots its tables reach at the
test's seed, and which of them are anonymous (two voters' choices swapped, the table
sees the same): not the purge, revealed by seat (S4), nor the coup offer, which counts
only the leader's.
"""

from companion.games.glasnost.board import BOARD

#: the decision answered -> the kind of reveal it brings
CAUSES = {
    "opening": "crisis cards",
    "sit": "crisis called",
    "crisis_vote": "vote",
    "purge": "purge",
    "coup_offer": "coup question",
    "coup_name": "coup named",
    "coup_vote": "coup vote",
}
#: kinds that take the same number of screens at every table: rule 3.2, one screen a
#: crisis card, as many as the board has
EXACT = {"crisis cards": len(BOARD["crises"])}
#: the most screens a reveal of each kind takes; each but the crisis cards may be followed
#: by the next crisis called, or by "THE END"
CAPS = {
    **EXACT,
    "crisis called": 1,
    # the three voters' cards, shuffled; the policy or the call to purge (5.2)
    "vote": 2 + 1,
    # the three voters' purges; the token turned down (or the cycle); the policy (5.4)
    "purge": 3 + 1,
    # the leader's answer (5.5)
    "coup question": 1 + 1,
    "coup named": 1 + 1,
    # every seat's vote, counted on one screen; the outcome (5.5)
    "coup vote": 2 + 1,
}
#: the kinds every table reaches
MAIN = {"crisis cards", "vote", "purge", "coup question", "coup vote"}
#: the secret ballots every table reaches
BALLOTS = {"crisis_vote", "purge", "coup_offer", "coup_vote"}
#: those whose result names no voter
ANONYMOUS = {"crisis_vote", "coup_vote"}
