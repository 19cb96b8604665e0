"""The real start: ``companion run`` shows its setup form before it opens the journal, so a
journal another program holds locked never keeps the screen dark; the box says it plays
unsaved, and says so again once it saves."""

import subprocess
import sys

import pytest

from companion.box import VirtualClock, open_box
from companion.box.outputs import Outputs
from companion.cli import main, parser
from companion.games import new_game
from companion.service import Service
from companion.store import SAVING_AGAIN, UNSAVED, Journal
from companion.table import Settings, Table
from companion.table.modes import Setup
from companion.table.resume import resume

HOLD = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA locking_mode=EXCLUSIVE")
db.execute("BEGIN EXCLUSIVE")
db.execute("UPDATE games SET started = started")
print("held", flush=True)
sys.stdin.read()
"""


def shown_text(table) -> str:
    screen = table.screen()
    return " ".join([screen.status, *screen.body])


def test_a_locked_journal_never_delays_the_first_screen_and_is_written_once_free(
    tmp_path, monkeypatch
):
    path = tmp_path / "journal.sqlite"
    Journal(path).close()  # a journal with no game in it
    events: list[object] = []
    show = Outputs.show

    def shown(self, image):
        done = show(self, image)
        if done and self.frames_shown == 1:
            events.append("first frame")
        return done

    opened = Journal.__init__

    def opening(self, *args, **kwargs):
        events.append(("journal", kwargs.get("lock_wait")))
        opened(self, *args, **kwargs)

    seen: dict[str, object] = {}

    def run(service):  # the service loop, scripted: the lock goes, a game is played
        table = service.step.__self__
        service.step()
        seen["unsaved"] = (table.journal.saving, shown_text(table))
        holder.stdin.close()
        holder.wait(timeout=10)
        table.start(Settings("gulag", 5, "en"))
        service.step()
        seen["saved"] = (table.journal.saving, shown_text(table))

    monkeypatch.setattr(Outputs, "show", shown)
    monkeypatch.setattr(Journal, "__init__", opening)
    monkeypatch.setattr(Service, "run", run)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "held\n"
        assert main(["run", "--board", "virtual", "--headless", "--journal", str(path)]) == 0
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    # The setup form is up before the journal is even opened, which waits for no lock.
    assert events == ["first frame", ("journal", 0.0)]
    saving, text = seen["unsaved"]
    assert not saving and UNSAVED.split(":")[0] in text  # "Not saving", on the box
    saving, text = seen["saved"]
    assert saving and SAVING_AGAIN.split(":")[0] in text  # and said once it saves
    rows = Journal(path)
    try:
        assert rows.unfinished() is not None  # the game begun meanwhile is on disk
    finally:
        rows.close()


def test_the_journal_opened_after_the_first_frame_gives_setup_its_last_settings(tmp_path):
    """Opened once the form is up, the journal still decides what comes next: its ended
    game's settings start the form again (language included), its unfinished game resumes."""
    path = tmp_path / "journal.sqlite"
    settings = Settings("politburo", 6, "fr")
    game = new_game("politburo", players=6, seed=3)
    journal = Journal(path)
    journal.begin("politburo", settings.to_json(), game.to_record())
    journal.close()
    for ended in (True, False):
        if ended:
            journal = Journal(path)
            assert resume(journal) is not None  # the resume room makes it the journal's game
            journal.finish()
            journal.close()
        else:
            journal = Journal(path)
            journal.begin("politburo", settings.to_json(), game.to_record())
            journal.close()
        box = open_box("virtual", clock=VirtualClock())
        try:
            table = Table(box, seed=1)
            table.step()  # the first frame: the form at its defaults, in English
            assert isinstance(table.mode, Setup) and table.last_settings == Settings()
            assert table.open_journal(Journal(path)) is not ended
            assert table.last_settings == settings
            if ended:
                assert isinstance(table.mode, Setup)
                assert table.mode.form.values["game"] == "politburo"
            else:
                assert table.game is not None and table.game.to_record() == game.to_record()
            table.step()  # and drawn
        finally:
            table.journal.close()
            box.close()


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--board", "virtual", "--headless", "--lang", "fr"],
        ["simulate", "gulag", "--games", "3"],
        ["kiosk", "--headless", "--no-journal"],
        ["bench", "--games", "5", "--json"],
    ],
)
def test_a_command_parses_alike_with_only_its_own_parsers_built(argv):
    """A start builds its own command's parsers only: what it parses is the same."""
    built = parser(argv[0])
    assert vars(built.parse_args(argv)) == vars(parser().parse_args(argv))
