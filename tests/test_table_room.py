"""The table room's shape: one seam for answers, no reach-ins, no import cycles.

The loop asks every way of answering through ``companion.table.answers``; a new
one (here a scripted remote serving two seats) joins through that seam alone and
plays a whole game, which must end exactly as the engine alone ends it.
"""

import ast
import random
import subprocess
import sys
from pathlib import Path

from companion.bots import RandomBot
from companion.box import VirtualClock, open_box
from companion.demo import GAP, Player, presses_for
from companion.games import Choice, Decision, new_game
from companion.table import Settings, Table
from companion.table.answers import Answerer, Port
from companion.table.modes import (
    Announce,
    Choose,
    Confirm,
    Cursor,
    Handoff,
    Mode,
    Notice,
    Over,
    Peek,
    Remote,
)
from companion.table.watchers import Step, Watcher
from companion.ui.canvas import Screen

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"


# -- imports -----------------------------------------------------------------------------
def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, modules: set[str], root: Path = ROOT) -> set[str]:
    """Every companion module ``path`` imports, wherever the import stands (module level,
    in a function, under TYPE_CHECKING): ``from a import b`` counts ``a.b`` when it is a
    module, else ``a``."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
    return {m for m in found if m in modules and m != name}


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    paths = sorted((root / "companion").rglob("*.py"))
    modules = {module_name(p, root) for p in paths}
    return {module_name(p, root): imported(p, modules, root) for p in paths}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as a list of modules (the first again at the end), or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)) is not None:
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)) is not None:
            return cycle
    return None


def test_the_cycle_finder_finds_a_cycle_through_an_in_function_import(tmp_path):
    """The control: a cycle made only by an import inside a function is found, and one
    made only under TYPE_CHECKING, and a relative import counts too."""
    package = tmp_path / "companion"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("import companion.b\n")
    (package / "b.py").write_text("def f():\n    from companion import a\n")
    assert find_cycle(import_graph(tmp_path)) == ["companion.a", "companion.b", "companion.a"]
    (package / "b.py").write_text("")
    assert find_cycle(import_graph(tmp_path)) is None
    (package / "sub" / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..a import x\n"
    )
    (package / "b.py").write_text("from companion.sub import c\n")
    assert find_cycle(import_graph(tmp_path)) is not None


def test_no_companion_module_imports_itself_back_by_any_path():
    graph = import_graph()
    assert graph.get("companion.table.loop")
    assert find_cycle(graph) is None


# -- the loop's shape ----------------------------------------------------------------------
def ruff(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return done.stdout


TABLE_SIDE = [
    "companion/table",
    "companion/kiosk",
    "companion/demo.py",
    "companion/web/room.py",
]


def test_no_answerer_nor_driver_reaches_into_a_private_name():
    assert ruff("--select", "SLF001", *TABLE_SIDE).strip().endswith("All checks passed!")


def test_no_function_of_the_table_room_is_too_tangled_to_follow():
    found = ruff(
        "--select", "C901", "--config", "lint.mccabe.max-complexity = 12", "companion/table"
    )
    assert found.strip().endswith("All checks passed!"), found


def test_the_loop_class_stays_under_400_lines():
    tree = ast.parse((PACKAGE / "table" / "loop.py").read_text(encoding="utf-8"))
    (table,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Table"]
    assert table.end_lineno is not None
    assert table.end_lineno - table.lineno + 1 < 400


# -- a fifth way of answering, through the seam alone -----------------------------------------
SEED = 5
REMOTE_SEATS = {1, 3}


def seat_bots(players: int) -> list[RandomBot]:
    """Each seat its own bot and its own dice: what a seat answers does not depend on the
    order in which the seats are asked."""
    return [RandomBot(random.Random(SEED * 100 + seat)) for seat in range(players)]


class ScriptedRemote(Answerer):
    """A remote serving ``seats``: asked with the box, it answers on the next step; its
    first answer is a choice no game takes, to hear the refusal come back to it."""

    def __init__(self, port: Port, seats: set[int], bots: list[RandomBot]) -> None:
        self.port = port
        self.served = seats
        self.bots = bots
        self.asked: set[int] = set()
        self.answered: list[tuple[int, str]] = []
        self.refusals: list[tuple[int, str]] = []

    def seats(self) -> set[int]:
        return set(self.served)

    def pending(self) -> set[int]:
        return set(self.asked)

    def ask(self, d: Decision, free: tuple[int, ...]) -> Mode | None:
        self.asked = set(free) & self.served
        if self.asked and self.asked == set(free):
            return Remote(tuple(sorted(self.asked)))
        return None

    def poll(self) -> None:
        port = self.port
        for seat in sorted(self.asked):
            d = port.decision()
            assert port.game is not None
            if d is None or seat not in d.seats:
                continue
            choice: Choice = ("no such choice",)
            if self.refusals:  # the bot is asked only for real answers: its dice stay in step
                choice = self.bots[seat].choose(port.game.view(seat), d)
            self.asked.discard(seat)  # the loop may ask again before ``answer`` returns
            if port.answer(seat, choice, self) is None:
                self.answered.append((seat, d.kind))
            else:
                self.asked.add(seat)  # refused: asked again

    def refused(self, seat: int, why: str) -> None:
        self.refusals.append((seat, why))

    def settle(self, before: Decision, after: Decision | None) -> bool:
        same = after is not None and after.kind == before.kind
        if not (same and after is not None and set(after.seats) < set(before.seats)):
            self.asked = set()
            return False
        return True  # the same ballot: whoever holds the box carries on

    def owns(self, mode: Mode) -> bool:
        return isinstance(mode, Remote) and set(mode.seats) <= self.served

    def screen(self, status: str) -> Screen:
        assert isinstance(self.port.mode, Remote)
        return Screen(status, ("On the remote:", str(self.port.mode.seats)), "")


def engine_alone(game_name: str, players: int) -> dict:
    """The same game played by the same bots on the engine, no box."""
    game = new_game(game_name, players=players, seed=SEED)
    bots = seat_bots(players)
    while (d := game.decision) is not None:
        seat = d.seats[0]
        game.act(seat, bots[seat].choose(game.view(seat), d))
    return game.public_view()


def play_to_the_end(table: Table, box, bots: list[RandomBot], each=lambda: None) -> bool:
    """Play the table's game to its end: the box's seats on the buttons, the remote's on the
    remote; ``each()`` after every step. True if the remote's own mode was ever on screen."""
    player = Player(box, table, box.clock)
    player.wait(GAP)
    seen_remote_mode = False
    while not isinstance(table.mode, Over):
        each()
        mode = table.mode
        assert not isinstance(mode, Notice), "a remote's refusal is not the box's"
        if isinstance(mode, Handoff | Announce):
            assert not (isinstance(mode, Handoff) and mode.seat in REMOTE_SEATS)
            player.press("ok")
        elif isinstance(mode, Remote):
            seen_remote_mode = True
            assert table.screen().body[0] == "On the remote:"
            player.wait(GAP)
        else:
            assert isinstance(mode, Choose | Confirm | Peek | Cursor)
            assert mode.seat not in REMOTE_SEATS
            if box.clock.now() < table.guard_until:
                player.wait(GAP)  # the prompt has just appeared: read it first, as people do
            game = table.game
            assert game is not None and game.decision is not None
            choice = bots[mode.seat].choose(game.view(mode.seat), game.decision)
            for button, hold in presses_for(table, choice):
                player.press(button, hold=hold)
    each()
    return seen_remote_mode


def test_a_fifth_way_of_answering_plays_a_whole_game_through_the_seam_alone():
    players = 5
    box = open_box("virtual", clock=VirtualClock())
    try:
        table = Table(box, seed=SEED)
        bots = seat_bots(players)
        remote = ScriptedRemote(table, REMOTE_SEATS, bots)
        table.join(remote)
        table.start(Settings("gulag", players, "en"))
        seen_remote_mode = play_to_the_end(table, box, bots)
        assert table.game is not None and table.game.over
        assert table.game.public_view() == engine_alone("gulag", players)
        kinds = {kind for _, kind in remote.answered}
        assert {"peek", "task"} <= kinds  # a private card, and a vote shared with the box
        assert seen_remote_mode
        assert {seat for seat, _ in remote.answered} == REMOTE_SEATS
        ((seat, why),) = remote.refusals  # the refusal went back to the remote, once
        assert seat in REMOTE_SEATS and why
    finally:
        box.close()


# -- a watcher, through the seam alone ------------------------------------------------------
class Scoreboard(Watcher):
    """A listener that only listens: it keeps what it heard, in order."""

    def __init__(self) -> None:
        self.heard: list[tuple[str, object]] = []
        self.last: Step | None = None

    def began(self, key, resumed, earlier=()):
        self.heard.append(("began", resumed))

    def stepped(self, step: Step) -> None:
        self.heard.append(("stepped", step))
        self.last = step

    def revealed(self, screens) -> None:
        self.heard.append(("revealed", len(screens)))

    def ended(self, step: Step) -> None:
        self.heard.append(("ended", step))

    def held(self, seat) -> None:
        self.heard.append(("held", seat))

    def connected(self, seats) -> None:
        self.heard.append(("connected", seats))

    def of(self, event: str) -> list:
        return [what for name, what in self.heard if name == event]


def test_a_watcher_hears_every_event_with_one_public_view_a_step():
    """A scoreboard joins through ``watch`` alone, beside a remote, and hears the game from
    start to end; each step's public view is worked out once, and what it hears is fresh."""
    players = 5
    box = open_box("virtual", clock=VirtualClock())
    try:
        table = Table(box, seed=SEED)
        bots = seat_bots(players)
        table.join(ScriptedRemote(table, REMOTE_SEATS, bots))
        board = Scoreboard()
        table.watch(board)
        table.start(Settings("gulag", players, "en"))
        game = table.game
        assert game is not None
        worked_out, played = [0], [0]
        view, act, build = game.public_view, game.act, game._public_view

        def counted_build(seat=None):
            worked_out[0] += seat is None  # the engine builds the public view (not a seat's)
            return build(seat)

        def counted_act(seat, choice):
            act(seat, choice)
            played[0] += 1  # a move taken (a refused one raised before this)

        game._public_view, game.act = counted_build, counted_act

        def fresh():  # the last step heard is the game as it is now
            assert board.last is not None and board.last.view == view()

        play_to_the_end(table, box, bots, each=fresh)
        assert game.over
        # at most once a move: the OLED, LEDs, countdown, remote and watcher share it
        print("public views worked out", worked_out[0], "moves", played[0])
        assert 0 < worked_out[0] <= played[0], (worked_out[0], played[0])
        assert board.of("began") == [False]
        steps = board.of("stepped")
        assert len(steps) >= played[0] // 2 and len({id(s) for s in steps}) == len(steps)
        (end,) = board.of("ended")  # told once, with the last step
        assert end is steps[-1] and end.view == view() and end.view["waiting"] is None
        assert board.of("revealed") and all(n > 0 for n in board.of("revealed"))
        assert frozenset(REMOTE_SEATS) in board.of("connected")
        held = board.of("held")
        assert None in held and set(held) - {None} == set(range(players)) - REMOTE_SEATS
    finally:
        box.close()


def test_the_web_joins_the_table_only_through_watch_and_join():
    """No module of ``companion.web`` reaches a part of the table: no desk, no answerer
    list, no assignment into the table; it calls ``watch`` and ``join`` only."""
    reached = []
    for path in sorted((PACKAGE / "web").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("desk", "answerers", "watchers"):
                reached.append(f"{path.name}:{node.lineno} .{node.attr}")
            if isinstance(node, ast.Assign | ast.AugAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Attribute) and ast.unparse(target).startswith(
                        "table."
                    ):
                        reached.append(f"{path.name}:{node.lineno} {ast.unparse(target)} =")
    assert reached == []
    start = (PACKAGE / "web" / "start.py").read_text(encoding="utf-8")
    assert "table.watch(" in start and "table.join(" in start
