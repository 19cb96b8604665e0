import os
import time

import pytest
from hypothesis import settings

from companion.games import GAMES, game_class

# Property tests explore new examples on a developer's machine; in CI they replay the same
# derandomized examples, so a run is green or red for what the change did, not by chance.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")

# An exception after a resume is caught at the table's top on a real box (the step is set
# aside); here it goes through, so that a swallowed exception never turns a test green.
# The tests of that catch turn it on in the child they start (companion.table.resume).
os.environ["COMPANION_STRICT"] = "1"


def available_games() -> list[str]:
    names = []
    for name, record in GAMES.items():
        try:
            record.load("engine")
        except ModuleNotFoundError:
            continue
        names.append(name)
    return names


def usual_table(name: str) -> int:
    """A common table of ``name``: its usual size, or a larger one its record asks the bench
    to play (where a board is fullest)."""
    return max((game_class(name).default_players(), *GAMES[name].bench_players))


def alone(name: str) -> dict[str, str]:
    """The options under which ``name``'s bots play a whole game alone (its record's)."""
    return dict(GAMES[name].bot_options)


def table_sizes(name: str) -> list[int]:
    cls = game_class(name)
    return list(range(cls.min_players, cls.max_players + 1))


@pytest.fixture(params=available_games())
def game_name(request):
    return request.param


@pytest.fixture
def shown_screens(monkeypatch):
    """Every screen the table draws from now on, with the name of the mode it was drawn in
    ("handoff", "cursor", ...)."""
    from companion.table import Table

    shown = []
    original = Table.screen

    def spy(self):
        screen = original(self)
        shown.append((type(self.mode).__name__.lower(), screen))
        return screen

    monkeypatch.setattr(Table, "screen", spy)
    return shown


@pytest.fixture
def box():
    """A virtual box on a virtual clock."""
    from companion.box import VirtualClock, open_box

    box = open_box("virtual", clock=VirtualClock())
    yield box
    box.close()


# -- what the suite costs ------------------------------------------------------------------
# Each test's CPU time (its process's and its waited children's, user and system) rides on
# its reports, which xdist carries from the workers; the run ends with its wall time and each
# file's CPU time, dearest first, so a file that grows dear is seen at once.

_mark = [os.times()]
_file_cpu: dict[str, float] = {}
_began = time.perf_counter()


def _cpu(times: os.times_result) -> float:
    return times.user + times.system + times.children_user + times.children_system


def pytest_runtest_logstart(nodeid, location):
    _mark[0] = os.times()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    now = os.times()
    outcome.get_result().cpu_s = _cpu(now) - _cpu(_mark[0])
    _mark[0] = now


def pytest_runtest_logreport(report):
    cpu = getattr(report, "cpu_s", None)
    if cpu is not None:
        path = report.nodeid.split("::")[0]
        _file_cpu[path] = _file_cpu.get(path, 0.0) + cpu


def pytest_terminal_summary(terminalreporter):
    if not _file_cpu:
        return
    write = terminalreporter.write_line
    total = sum(_file_cpu.values())
    wall = time.perf_counter() - _began
    write(f"wall time {wall:.0f} s; CPU time of the tests {total:.0f} s (user and system, all")
    write("workers and the processes the tests started), by file:")
    for path, cpu in sorted(_file_cpu.items(), key=lambda row: -row[1]):
        write(f"  {cpu:8.1f} s  {path}")


@pytest.fixture
def served():
    """Start a web server for a room; stopped after the test."""
    servers = []

    def start(room):
        from companion.web.server import WebServer

        server = WebServer(room, "127.0.0.1", 0)
        server.start()
        servers.append(server)
        return f"http://127.0.0.1:{server.port}"

    yield start
    for server in servers:
        server.stop()
