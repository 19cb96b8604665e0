"""A monkey over every screen and the kiosk: random presses, holds, chords and bounces never
break the box (the engine and its checks: ``companion/monkey.py``).

Each game at its smallest and largest table, in English and French, is played by random
bots (so the monkey meets every mode a game reaches, the last reveal and the end screens
included), and between their moves the monkey presses at random. The kiosk, in each
language, meets the same monkey on attract, Join, Watch, Learn, real games, the idle
warning, the staff chord, code and menu, and pulled plugs, then on a real game's last
reveal. After every action: nothing raised; no seat's private card is on screen unless that
seat holds the box and PEEK (also while held, mid-hold); the key hint names only the box's
buttons; the journal reads back (a game in progress resumes, none after an abandon or the
end).

Budget in ``make test``: about 30 CPU-s for the file on the development machine (``ACTIONS``
actions a table and a quarter as many from its last reveal, some 25 CPU-s; ``KIOSK_ACTIONS``
in the kiosk in each language, some 5). At that budget it still finds a box that crashes
when Back is held on a game's last reveal, that leaves a game given up there for the
journal to resume, that shows the next seat's card on its hand-over while PEEK is held, or
whose staff menu or last Learn page crashes. ``MONKEY_ACTIONS=N`` sets both counts by
hand; the long run is ``companion bench --monkey N``.
"""

import os

import pytest

from companion import monkey
from companion.cli import main
from companion.monkey import KIOSK_LANGS, TABLES, run_kiosk, run_table
from companion.table import Settings

ACTIONS = int(os.environ.get("MONKEY_ACTIONS", "120"))
KIOSK_ACTIONS = int(os.environ.get("MONKEY_ACTIONS", "150"))


@pytest.mark.parametrize("settings", TABLES, ids=lambda s: f"{s.game}-{s.players}-{s.lang}")
def test_no_press_breaks_the_box(tmp_path, settings):
    run_table(settings, ACTIONS, tmp_path / "journal.sqlite")


@pytest.mark.parametrize("lang", KIOSK_LANGS)
def test_no_press_breaks_the_kiosk(tmp_path, lang):
    run_kiosk(lang, KIOSK_ACTIONS, tmp_path / "journal.sqlite")


def test_the_long_run_reports_each_run_and_its_status_says_what_it_found(monkeypatch, capsys):
    """``companion bench --monkey N``: a run that finds a fault is told (and the next runs
    still go), and the status is 1; a count that is no count is one line and status 2."""

    def crashing_kiosk(lang, actions, path, seed=0):
        raise RuntimeError(f"a kiosk that crashes in {lang}")

    monkeypatch.setattr(monkey, "TABLES", (Settings("gulag", 5, "en", {"deal": "box"}),))
    monkeypatch.setattr(monkey, "run_kiosk", crashing_kiosk)
    assert main(["bench", "--monkey", "4", "--seed", "2"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["gulag", "5", "en", "4", lines[1].split()[4], "ok"]
    assert lines[2].endswith("RuntimeError: a kiosk that crashes in en")
    assert lines[3].endswith("RuntimeError: a kiosk that crashes in fr")
    assert main(["bench", "--monkey", "0"]) == 2
    assert capsys.readouterr().err == "companion: --monkey must be from 1 to 1,000,000, not 0\n"
