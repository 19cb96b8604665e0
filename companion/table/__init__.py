"""The table room: the loop that owns the game, the journal, undo and the mode.

- ``loop``: ``Table``, the loop, and the port every way of answering calls;
- ``cursor``: the one cursor rule; ``answers``: the one seam for answers (``Answerer``, ``Port``);
- ``watchers``: the one seam for listeners (the TV, a scoreboard: ``Table.watch``), and
  ``Step``, the public view worked out once a step and handed to every screen;
- ``modes``: what the box waits for; ``screens``: what it draws meanwhile;
- ``setup``: the setup form and its ``Settings``; ``record``: its journal writes;
  ``resume``: which saved step resumes, and the watch that keeps a bad one from looping;
- the ways of answering: ``buttons`` (the box itself), ``handsets`` (wired
  pads), ``phones`` (the web room's phones), ``countdown`` (a question asked
  in the open).
"""

from companion.table.loop import Table
from companion.table.setup import Settings

__all__ = ["Settings", "Table"]
