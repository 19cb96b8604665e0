"""The journal stores and reads: nothing it loads, by any path, is a game, a screen, a
migration, a check or the table.

Whether a saved step can be resumed is decided on the table's side
(``companion.table.resume``); the journal must not be able to judge, even by an import
inside a function, an ``importlib`` string or a module that imports one of those. The
walk follows every import of every module it reaches, wherever it stands, the packages
a module's import runs (``companion/__init__.py``), and any string naming a module.
"""

import ast
from collections import deque
from pathlib import Path

from tests.test_table_room import ROOT, imported, module_name

JOURNAL = "companion.store"
JUDGES = (
    "companion.games",
    "companion.ui",
    "companion.migrate",
    "companion.trust",
    "companion.table",
)


def named_in_strings(path: Path, modules: set[str]) -> set[str]:
    """Modules a string names (``importlib.import_module("companion.x")``, a registry's
    ``"companion.x:Name"``): whatever could be imported by name."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = node.value.partition(":")[0].strip()
            if name in modules:
                found.add(name)
    return found


def parents(name: str) -> set[str]:
    """The packages importing ``name`` runs first."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    paths = {module_name(p, root): p for p in sorted((root / "companion").rglob("*.py"))}
    modules = set(paths)
    return {
        name: (imported(path, modules, root) | named_in_strings(path, modules) | parents(name))
        & modules
        for name, path in paths.items()
    }


def paths_to_judges(root: Path = ROOT) -> list[list[str]]:
    """For each judging module the journal reaches, the path it is reached by."""
    edges = graph(root)
    start = [m for m in edges if m == JOURNAL or m.startswith(JOURNAL + ".")]
    came_from: dict[str, str | None] = dict.fromkeys(start)
    todo = deque(start)
    while todo:
        here = todo.popleft()
        for there in sorted(edges[here]):
            if there not in came_from:
                came_from[there] = here
                todo.append(there)
    found = []
    for module in sorted(came_from):
        if any(module == j or module.startswith(j + ".") for j in JUDGES):
            path, at = [module], came_from[module]
            while at is not None:
                path.append(at)
                at = came_from[at]
            found.append(path[::-1])
    return found


def test_the_journal_reaches_no_game_screen_migration_check_or_table():
    assert graph()[JOURNAL]  # the walk sees the journal's own modules
    assert [" -> ".join(path) for path in paths_to_judges()] == []


def package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in {"companion/__init__.py": "", **files}.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_the_walk_finds_every_way_the_journal_could_reach_a_judge(tmp_path):
    """The control: the old store.py imported ``companion.trust`` at its top; an import in a
    function, through another module, by an ``importlib`` string, by a relative import, or
    in the package's ``__init__`` is found the same way."""
    base = {
        "companion/trust.py": "",
        "companion/games/__init__.py": "",
        "companion/games/gulag.py": "",
        "companion/helper.py": "",
        "companion/store/__init__.py": "",
        "companion/store/journal.py": "import json\n",
    }
    assert paths_to_judges(package(tmp_path / "clean", base)) == []
    ways = {
        "at the top, as the old store.py": {
            "companion/store/journal.py": "from companion.trust import checksum\n"
        },
        "in a function": {
            "companion/store/journal.py": "def f():\n    import companion.games.gulag\n"
        },
        "through another module": {
            "companion/store/journal.py": "from companion import helper\n",
            "companion/helper.py": "def g():\n    from companion.games import gulag\n",
        },
        "by an importlib string": {
            "companion/store/journal.py": (
                "import importlib\nimportlib.import_module('companion.trust')\n"
            )
        },
        "by a relative import": {"companion/store/journal.py": "from .. import trust\n"},
        "in the package": {
            "companion/store/__init__.py": "import companion.helper\n",
            "companion/helper.py": "import companion.trust\n",
        },
    }
    for way, files in ways.items():
        found = paths_to_judges(package(tmp_path / way.replace(" ", "-"), {**base, **files}))
        assert found, way
        assert found[0][0].startswith(JOURNAL), (way, found)
    # a module's import runs its packages first: a judge loaded there is reached too
    found = paths_to_judges(
        package(
            tmp_path / "parent",
            {**base, "companion/__init__.py": "def lazy():\n    import companion.trust\n"},
        )
    )
    assert [path[-1] for path in found] == ["companion.trust"]
