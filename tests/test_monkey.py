"""A monkey over every screen and the kiosk: random presses, holds, chords and bounces never
break the box (the engine and its checks: ``companion/monkey.py``).

Each game at its smallest and largest table, in English and French, is played by random
bots (so the monkey meets every mode a game reaches, the last reveal and the end screens
included), and between their moves the monkey presses at random. The kiosk, in each
language, meets the same monkey on attract, Join, Watch, Learn, real games, the idle
warning, the staff chord, code and menu, and pulled plugs, then on a real game's last
reveal. After every action: nothing raised; no seat's private card is on screen unless that
seat holds the box and PEEK; the journal reads back (a game in progress resumes, none after
an abandon or the end).

Budget in ``make test``: about 30 CPU-s for the file on the development machine (``ACTIONS``
actions a table and a quarter as many from its last reveal, some 22 CPU-s; ``KIOSK_ACTIONS``
in the kiosk in each language, some 8). It still finds the box that crashed, or left a game
given up on its last reveal for the journal to resume. ``MONKEY_ACTIONS=N`` sets both counts
by hand; the long run is ``companion bench --monkey N``.
"""

import os

import pytest

from companion.monkey import KIOSK_LANGS, TABLES, run_kiosk, run_table

ACTIONS = int(os.environ.get("MONKEY_ACTIONS", "120"))
KIOSK_ACTIONS = int(os.environ.get("MONKEY_ACTIONS", "200"))


@pytest.mark.parametrize("settings", TABLES, ids=lambda s: f"{s.game}-{s.players}-{s.lang}")
def test_no_press_breaks_the_box(tmp_path, settings):
    run_table(settings, ACTIONS, tmp_path / "journal.sqlite")


@pytest.mark.parametrize("lang", KIOSK_LANGS)
def test_no_press_breaks_the_kiosk(tmp_path, lang):
    run_kiosk(lang, KIOSK_ACTIONS, tmp_path / "journal.sqlite")
