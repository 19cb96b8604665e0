"""The virtual box in a terminal, driven over a pseudo-terminal as over SSH."""

import codecs
import fcntl
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import tarfile
import termios
import time
from pathlib import Path

import pytest

from companion.box import VirtualClock, open_box
from companion.box.terminal import COLUMNS, ROWS, art_pixels, oled_art, split_keys
from companion.demo import GAP, Player
from companion.games import game_class
from companion.games.kolkhoz import screens as kolkhoz_ui
from companion.table import Settings, Table
from companion.table.modes import Choose
from companion.ui.canvas import Screen, render

ROOT = Path(__file__).resolve().parents[1]
ART = re.compile(r"^([\u2800-\u28ff]{64}) │")


def test_art_round_trips_every_pixel():
    image = render(Screen("Turn 1/7 Canal 0", ("Siège 4: Колхоз é è ç",), "OK"))
    assert art_pixels(oled_art(image)).tobytes() == image.tobytes()
    assert [len(line) for line in oled_art(image)] == [64] * 16  # braille: 2 x 4 pixels a cell


def test_escape_sequences_stay_whole():
    assert split_keys("\x1b[Aa\r\x1b[B") == ["\x1b[A", "a", "\r", "\x1b[B"]


class Pty:
    """A program on a pseudo-terminal: type keys, read the last screen it drew."""

    def __init__(self, argv, cwd=ROOT, env=None, size=(COLUMNS, ROWS)):
        # subprocess forks and execs in C: no Python code (or lock held by another
        # thread of the test process) runs in the child before the program starts.
        self.fd, child_end = pty.openpty()
        columns, rows = size
        fcntl.ioctl(child_end, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.process = subprocess.Popen(
            argv,
            cwd=cwd,
            env={**os.environ, **(env or {}), "TERM": "xterm"},
            stdin=child_end,
            stdout=child_end,
            stderr=child_end,
            start_new_session=True,
        )
        os.close(child_end)
        self.pid = self.process.pid
        self.buffer = ""
        # A read may end in the middle of a character: decode across reads.
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def read(self, seconds):
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = self.decoder.decode(os.read(self.fd, 65536))
            except OSError:
                break
            if not chunk:
                break
            self.buffer += chunk

    def drain(self):
        """Read what the exited program left in the pty, to its end (EIO once it is read:
        the child's side is closed)."""
        while True:
            ready, _, _ = select.select([self.fd], [], [], 1.0)
            if not ready:
                return
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return
            if not data:
                return
            self.buffer += self.decoder.decode(data)

    def frames(self, since=0):
        """Every complete picture drawn after ``since`` characters of output: (art, lines)."""
        drawn = []
        for frame in self.buffer[since:].split("\x1b[H"):
            text = frame.replace("\x1b[K", "").replace("\x1b[J", "").replace("\x1b[?25h", "")
            lines = [line.rstrip("\r") for line in text.split("\n")]
            art = [m.group(1) for line in lines if (m := ART.match(line))]
            if len(art) == 16:
                drawn.append((art, lines))
        return drawn

    def screen(self):
        """The last complete OLED picture drawn, as art lines, and the whole terminal's text."""
        drawn = self.frames()
        return (drawn[-1][0], "\n".join(drawn[-1][1])) if drawn else (None, "")

    def wait_for(self, expected, seconds=60):
        """Read until the screen shows ``expected`` (a Screen), or fail."""
        end = time.monotonic() + seconds
        want = oled_art(render(expected))
        while time.monotonic() < end:
            self.read(0.3)
            art, _ = self.screen()
            if art == want:
                return
        art, text = self.screen()
        raise AssertionError(f"the terminal never showed {expected}; last:\n{text[-3000:]}")

    def wait_for_change(self, art, seconds=60):
        """Read until the screen shows something other than ``art`` (None: anything)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.read(0.2)
            if self.screen()[0] not in (None, art):
                return
        raise AssertionError(f"the terminal never changed; last:\n{self.screen()[1][-3000:]}")

    def settle(self, quiet=0.5, seconds=30):
        """Read until the program has written nothing for ``quiet`` seconds (at most
        ``seconds``): a screen on a busy machine is drawn late, and in parts."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            before = len(self.buffer)
            self.read(quiet)
            if len(self.buffer) == before:
                return

    def type(self, keys):
        """Type after a moment, as a person who has read the screen (the box drops
        presses made within its guard time of a new prompt)."""
        self.read(0.4)
        os.write(self.fd, keys.encode())

    def finish(self, seconds=10):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if (code := self.process.poll()) is not None:
                self.drain()  # what it wrote last may still wait in the pty
                os.close(self.fd)
                return code
            self.read(0.2)
        self.process.kill()
        raise AssertionError("the program did not quit")


def setup_screen(row, values):
    """The setup screen as the table draws it, row ``row`` selected."""
    labels = [
        f"Game: {values[0]}",
        f"Players: {values[1]}",
        f"Deal: {values[2]}",
        f"Deck: {values[3]}",
        f"Language: {values[4]}",
    ]
    first = max(0, min(row - 1, len(labels) - 3))
    lines = tuple(("►" if i == row else " ") + labels[i] for i in range(first, first + 3))
    last = row == len(labels) - 1
    return Screen("New game", lines, "▲▼ change  OK: start" if last else "▲▼ change  OK: next")


DEFAULTS = ["Gulag", 7, "by the box", "English", "English"]


def test_the_virtual_box_runs_in_a_terminal_and_keys_press_its_buttons(tmp_path):
    term = Pty(
        [sys.executable, "-m", "companion", "run", "--board", "virtual", "--seed", "1"],
        env={"COMPANION_DATA": str(tmp_path)},
    )
    term.wait_for(setup_screen(0, DEFAULTS))
    term.type("\r")  # OK: to the players row
    term.wait_for(setup_screen(1, DEFAULTS))
    term.type("\x1b[A")  # Up: 8 players
    term.wait_for(setup_screen(1, ["Gulag", 8, "by the box", "English", "English"]))
    _, text = term.screen()
    lines = text.split("\n")
    # The whole box fits 80 x 24: the panel, the LEDs beside it, the keys below.
    assert len(lines) < ROWS and max(map(len, lines)) <= COLUMNS
    assert lines[0].endswith("│ A ○  B ○") and lines[2].endswith("│ □□□□□□□□□□")
    assert lines[-1].startswith("↑↓/ws move")
    term.type("qq")  # q asks first, the second quits
    assert term.finish() == 0


def oks_to_a_secret_choice(game, seed):
    """How many OK presses take a new game of ``game`` (seeded, fewest players) from its
    first hand-over to a seat's secret A/B screen, and the screen A then draws: played on a
    virtual box beside it."""
    box = open_box("virtual", clock=VirtualClock())
    try:
        table = Table(box, seed=seed)
        table.start(Settings(game, game_class(game).min_players, "en"))
        player = Player(box, table, box.clock)
        player.wait(GAP)
        while not isinstance(table.mode, Choose):
            player.press("ok")
        oks = player.presses
        player.press("choice_a")
        return oks, oled_art(render(table.screen()))
    finally:
        box.close()


def after_a_secret_press(tmp_path, key):
    """What the terminal draws once a seat presses ``key`` at its secret screen."""
    run = ["run", "--board", "virtual", "--seed", "1", "--game", "gulag", "--players", "5"]
    run.append("--no-journal")  # the fewest players, as oks_to_a_secret_choice counts them
    term = Pty(
        [sys.executable, "-m", "companion", *run],
        env={"COMPANION_DATA": str(tmp_path)},
    )
    term.wait_for_change(None)  # the first frame
    for _ in range(oks_to_a_secret_choice("gulag", 1)[0]):  # to a worker's Work or Strike
        art, _ = term.screen()
        term.type("\r")
        term.wait_for_change(art)  # each press on its own screen: a busy machine is slow
    term.settle()  # the secret screen drawn whole before the press: only its after is compared
    before = len(term.buffer)
    os.write(term.fd, key.encode())
    term.read(1.5)  # the press's blink and beep come and go
    drawn = term.frames(before)
    term.type("qq")  # q asks first, the second quits
    assert term.finish() == 0
    return drawn


def test_onlookers_cannot_tell_an_a_press_from_a_b_press(tmp_path):
    a = after_a_secret_press(tmp_path, "a")
    b = after_a_secret_press(tmp_path, "b")
    assert a and b, "no picture drawn after the press"
    assert a[-1][0] == oks_to_a_secret_choice("gulag", 1)[1]  # "Seat 2: chosen. OK: play it"
    assert a[-1] == b[-1]  # the whole terminal, LEDs and all
    assert {tuple(art) for art, _ in a} == {tuple(art) for art, _ in b}
    assert not any("choice_" in line for _, lines in a + b for line in lines)


def test_a_terminal_too_small_is_told_the_size_the_box_needs(tmp_path):
    term = Pty(
        [sys.executable, "-m", "companion", "run", "--board", "virtual", "--no-journal"],
        env={"COMPANION_DATA": str(tmp_path)},
        size=(60, 20),
    )
    term.read(3.0)
    assert "The box needs 80 x 24 characters; this terminal has 60 x 20." in term.buffer
    assert term.screen() == (None, "")
    term.type("qq")  # q asks first, the second quits
    assert term.finish() == 0


@pytest.mark.skipif(
    shutil.which("make") is None or shutil.which("git") is None, reason="needs make and git"
)
def test_the_readme_run_command_starts_the_box_from_a_fresh_clone(tmp_path):
    readme = (ROOT / "README.md").read_text()
    assert "\n    make run\n" in readme
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    # The committed tree only: the clone has no virtual environment yet.
    assert not (clone / ".venv").exists()
    term = Pty(["make", "run"], cwd=clone, env={"COMPANION_DATA": str(tmp_path / "data")})
    term.wait_for(setup_screen(0, DEFAULTS), seconds=900)  # a first install, on a busy machine
    term.type("qq")  # q asks first, the second quits
    assert term.finish(seconds=30) == 0
    # What a Pi gets: the runtime, none of the test tools.
    assert (clone / ".venv" / "bin" / "companion").exists()
    assert not any((clone / ".venv" / "bin" / tool).exists() for tool in ("pytest", "ruff", "mypy"))
    # and the committed tree in one archive, to copy there without a hosting address.
    subprocess.run(["make", "-s", "dist"], cwd=clone, check=True, capture_output=True)
    (archive,) = (clone / "dist").glob("companion-*.tar.gz")
    with tarfile.open(archive) as tar:
        names = set(tar.getnames())
    assert {"companion/Makefile", "companion/hardware/pinout.toml"} <= names
    assert {"companion/systemd/companion.service", "companion/companion/cli.py"} <= names


# -- safe by construction: PEEK, quitting, holds ----------------------------------------------
class Desk:
    """A Terminal on a virtual box beside a table, driven key by key on the virtual clock."""

    def __init__(self, game, players, seed=1, options=None):
        import io

        from companion.box.terminal import Terminal

        self.box = open_box("virtual", clock=VirtualClock())
        self.table = Table(self.box, seed=seed)
        self.table.start(Settings(game, players, "en", options or {}))
        self.term = Terminal(self.box, self.table.step, out=io.StringIO())
        self.frames = []
        self.box.outputs.frame_sinks.append(lambda image, t: self.frames.append(self.term.frame))
        self.wait(GAP)

    def wait(self, seconds):
        end = self.box.clock.now() + seconds
        while self.box.clock.now() < end:
            self.box.clock.advance(0.02)
            self.term.release_due()
            self.table.step()

    def key(self, text, then=GAP):
        alive = self.term.key(text)
        self.wait(then)
        return alive

    def peeks(self):
        """What PEEK shows each seat: the screens no other seat may see."""
        game = self.table.game
        screens = (self.table.ui.peek(game.view(s), self.table.t) for s in range(game.players))
        return {tuple(oled_art(render(screen))) for screen in screens}

    def close(self):
        self.box.close()


def test_peek_never_crosses_a_hand_over():
    """Politburo: Enter, p, Enter, Enter once showed seat 2's card to seat 1."""
    desk = Desk("politburo", 5)
    try:
        desk.key("\r")  # seat 1 takes the box
        desk.key("p")
        assert desk.box.inputs.is_down("peek")
        assert tuple(desk.term.frame) in desk.peeks()  # seat 1 reads its own card
        seen = len(desk.frames)
        desk.key("\r")  # read: the box goes to seat 2
        desk.key("\r")  # seat 2 takes it
        assert not desk.box.inputs.is_down("peek") and "peek" not in desk.term.toggled
        assert not any(tuple(f) in desk.peeks() for f in desk.frames[seen:])
        assert "PEEK held" not in "\n".join(desk.term.lines())
    finally:
        desk.close()


def test_peek_lets_go_by_itself_after_a_few_seconds():
    from companion.box.terminal import PEEK_SHOW

    desk = Desk("politburo", 5)
    try:
        desk.key("\r")
        desk.key("p", then=PEEK_SHOW - 1)
        assert desk.box.inputs.is_down("peek")
        desk.wait(1.5)
        assert not desk.box.inputs.is_down("peek")
        assert tuple(desk.term.frame) not in desk.peeks()
    finally:
        desk.close()


def test_quitting_asks_first_and_any_other_key_carries_on_doing_nothing():
    from companion.box.terminal import ASK_QUIT, HELP, QUIT_CONFIRM

    desk = Desk("gulag", 5)
    try:
        before = desk.table.mode
        assert desk.key("q") is True and desk.term.lines()[-1] == ASK_QUIT
        assert desk.key("\r") is True  # answers "Quit?": no, and is not an OK
        assert desk.table.mode == before and desk.term.lines()[-1] == HELP
        assert desk.key("q", then=QUIT_CONFIRM + 0.5) is True  # asked, then forgotten
        assert desk.term.lines()[-1] == HELP
        assert desk.key("q") is True and desk.key("q") is False
        desk.term.quit_until = None
        desk.term._interrupted(2, None)  # Ctrl-C asks too
        assert desk.term.lines()[-1] == ASK_QUIT
        with pytest.raises(KeyboardInterrupt):
            desk.term._interrupted(2, None)  # and a second one quits
    finally:
        desk.close()


def test_one_key_holds_back_and_one_holds_ok_and_the_help_line_names_them():
    from companion.box.inputs import HOLD_TIME
    from companion.box.terminal import HELP, HOLD, HOLDS

    assert HOLDS == {"O": "ok", "X": "back"} and "O/X hold OK/Back" in HELP
    assert HOLD > HOLD_TIME
    desk = Desk("gulag", 5)
    try:
        desk.key("X", then=HOLD + GAP)
        assert type(desk.table.mode).__name__ == "Abandon"  # a long Back asks to abandon
    finally:
        desk.close()


def test_the_readme_and_the_code_agree_on_the_hold_time():
    from companion.box.inputs import HOLD_TIME

    readme = (ROOT / "README.md").read_text()
    assert HOLD_TIME == 1.5 and "Hold Back for 1.5 seconds" in readme
    assert "two seconds" not in readme and "| X (capital) | hold Back" in readme


def test_every_key_of_the_terminal_is_in_the_readmes_laptop_section():
    from companion.box.terminal import CHORD_KEY, HOLDS, KEYS, PEEK_KEY

    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Try it on a laptop", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    names = {"\x1b[A": "↑", "\x1b[B": "↓", "\r": "Enter", "\n": "Enter", " ": "Space"}
    names |= {"\x7f": "Backspace", "\x08": "Backspace", "\x1b": "Esc"}
    keys = [*KEYS, *HOLDS, CHORD_KEY, PEEK_KEY, "q"]
    for key in keys:
        name = names.get(key, key)
        assert any(re.search(rf"(^|[ |,]){re.escape(name)}([ |,]|$)", r) for r in rows), key
    assert "Ctrl-C" in section and "README" not in section


def test_quitting_over_a_terminal_asks_then_wipes_the_screen(tmp_path):
    from companion.box.terminal import ASK_QUIT, CLEAR

    term = Pty(
        [sys.executable, "-m", "companion", "run", "--board", "virtual", "--no-journal"],
        env={"COMPANION_DATA": str(tmp_path)},
    )
    term.wait_for(setup_screen(0, DEFAULTS))
    term.type("q")
    term.read(1.0)
    assert term.process.poll() is None  # still running, asking
    assert term.screen()[1].split("\n")[-1] == ASK_QUIT
    term.type("q")
    assert term.finish() == 0
    assert term.buffer.endswith(CLEAR)  # the last frame is wiped, scrollback too


def test_over_a_terminal_peek_is_let_go_before_the_hand_over(tmp_path):
    """Enter, p, Enter, Enter: seat 1 reads its card, passes the box, seat 2 takes it; the
    terminal never draws seat 2's card, nor any card once the box moved on."""
    desk = Desk("politburo", 5)  # the same seeded game, beside the terminal's
    try:
        peeks = desk.peeks()
        first = desk.table.screen()
        desk.key("\r")
        taken = desk.table.screen()  # seat 1 has the box: "hold PEEK, then OK"
    finally:
        desk.close()
    run = ["run", "--board", "virtual", "--seed", "1", "--game", "politburo", "--players", "5"]
    term = Pty([sys.executable, "-m", "companion", *run, "--no-journal"])
    term.wait_for(first)
    term.type("\r")
    term.wait_for(taken)
    term.type("p")
    end = time.monotonic() + 30
    while tuple(term.screen()[0] or ()) not in peeks and time.monotonic() < end:
        term.read(0.3)
    assert tuple(term.screen()[0]) in peeks and "PEEK held" in term.screen()[1]
    term.settle()  # the card drawn whole: only what comes after the Enters is looked at
    since = len(term.buffer)
    for _ in range(2):
        term.type("\r")
        term.read(0.8)
    drawn = term.frames(since)
    term.type("qq")
    assert term.finish() == 0
    assert drawn and not any(tuple(art) in peeks for art, _ in drawn)
    assert "PEEK held" not in "\n".join(drawn[-1][1])


def test_quitting_lets_peek_go_before_it_asks():
    """q or Ctrl-C while p shows a card: the card goes before "Quit?" comes."""
    from companion.box.terminal import ASK_QUIT

    desk = Desk("politburo", 5)
    try:
        desk.key("\r")  # seat 1 takes the box
        for ask in (lambda: desk.key("q"), lambda: desk.term._interrupted(2, None)):
            desk.term.quit_until = None  # the last "Quit?" forgotten
            desk.key("p")
            assert tuple(desk.term.frame) in desk.peeks()
            ask()
            desk.wait(GAP)
            assert not desk.box.inputs.is_down("peek") and "peek" not in desk.term.toggled
            assert tuple(desk.term.frame) not in desk.peeks()
            assert desk.term.lines()[-1] == ASK_QUIT
            assert "PEEK held" not in "\n".join(desk.term.lines())
    finally:
        desk.close()


def test_one_key_makes_the_kiosks_staff_chord_and_its_help_line_names_it():
    import io

    from companion.box.terminal import CHORD_KEY, KIOSK_HELP, Terminal
    from companion.kiosk.booth import Kiosk, Staff
    from companion.kiosk.chord import CHORD, CHORD_HOLD, CODE

    assert f"{CHORD_KEY} staff" in KIOSK_HELP and len(KIOSK_HELP) <= 80
    box = open_box("virtual", clock=VirtualClock())
    try:
        kiosk = Kiosk(box, seed=1)
        term = Terminal(box, kiosk.step, out=io.StringIO(), chord=(CHORD, CHORD_HOLD))
        assert term.lines()[-1] == KIOSK_HELP

        def wait(seconds):
            end = box.clock.now() + seconds
            while box.clock.now() < end:
                box.clock.advance(0.02)
                term.release_due()
                kiosk.step()

        wait(GAP)
        term.key(CHORD_KEY)
        wait(CHORD_HOLD + 1.0)
        keys = {"up": "\x1b[A", "down": "\x1b[B", "choice_a": "a", "choice_b": "b"}
        for button in CODE:
            term.key(keys[button])
            wait(GAP)
        assert isinstance(kiosk.mode, Staff)
    finally:
        box.close()


def test_a_demo_into_a_pipe_says_in_one_line_that_it_draws_nothing(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "companion", "demo", "gulag", "--players", "5", "--seed", "2"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("\n") == 1 and "not a terminal" in done.stderr
    assert not any(0x2800 <= ord(ch) <= 0x28FF for ch in done.stdout)  # no braille art
    assert done.stdout.startswith("gulag: ") and done.stdout.count("\n") == 1


def test_a_seats_private_lines_wait_for_p_on_a_terminal_but_show_under_the_hood():
    """Kolkhoz dealt by the box: the hand is on the seat's prompt under the box's hood; a
    laptop has none, so the terminal shows it only while p holds PEEK."""
    desk = Desk("kolkhoz", 4, options={"deal": "box"})
    try:
        desk.key("\r")  # seat 1, the planner, takes the box: its hand, then trump
        hand = desk.table.game.view(0)["hand"]
        body = desk.table.screen().body
        assert "Hidden: p shows it" in body
        assert not any(line.startswith("Hand") for line in body)
        cards = {kolkhoz_ui.card_label(c) for c in hand}
        assert not any(card in " ".join(body[1:2]) for card in cards)
        desk.key("p")
        shown = " ".join(desk.table.screen().body)
        assert all(card in shown for card in cards)  # PEEK (p) shows the hand
        desk.key("p")  # let go: hidden again
        assert "Hidden: p shows it" in desk.table.screen().body
    finally:
        desk.close()
    box = open_box("virtual", clock=VirtualClock())  # the real box, its hood on
    try:
        table = Table(box, seed=1)
        table.start(Settings("kolkhoz", 4, "en", {"deal": "box"}))
        player = Player(box, table, box.clock)
        player.wait(GAP)
        player.press("ok")
        body = table.screen().body
        assert any(line.startswith("Hand") for line in body)
        assert "Hidden: p shows it" not in body
    finally:
        box.close()
