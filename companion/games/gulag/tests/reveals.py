"""Gulag's reveals, as ``tests/test_reveals.py`` checks them on the demo's tables.

The reveal that follows each decision answered, and the most screens it takes at any
table size; the secret ballots its tables reach at the test's seed, and which of them
are anonymous (two voters' choices swapped, the table sees the same).
"""

#: the decision answered -> the kind of reveal it brings
CAUSES = {"supervise": "inspection"}
#: the most screens a reveal of each kind takes: the supervisor's order (G5, when one was
#: given), the inspection (G6)
CAPS = {"inspection": 2}
#: the secret ballots every table reaches
BALLOTS = {"task"}
#: those whose result names no voter
ANONYMOUS = {"task"}
