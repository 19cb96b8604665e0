"""Politburo's reveals, as ``tests/test_reveals.py`` checks them on the demo's tables.

The reveal that follows each decision answered, and the most screens it takes at any
table size; the secret ballots its tables reach at the test's seed, and which of them
are anonymous (two voters' choices swapped, the table sees the same). The open plan vote
is an answer, not a ballot: the secretary enters the count of thumbs up.
"""

#: the decision answered -> the kind of reveal it brings
CAUSES = {
    "plan_vote": "plan vote",
    "plan_count": "plan vote",
    "casting": "plan vote",
    "execute": "execution",
    "point": "purge",
}
#: the most screens a reveal of each kind takes
CAPS = {
    # the count (or the secretary's casting vote), then the third plan approved unvoted
    "plan vote": 2,
    # P5/P6: the counts of the three executors' cards only
    "execution": 1,
    # P7: the three numbered cards, the three pointings, the losses (three executors)
    "purge": 3,
}
#: the secret ballots every table reaches
BALLOTS = {"execute", "point"}
#: those whose result names no voter (P6's third execution is dealt by seat, but its
#: reveal is the counts: the cards are named at the purge)
ANONYMOUS = {"execute"}
