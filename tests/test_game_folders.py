"""A game is one folder: the import contract, and nothing outside a folder names its game.

- Each game's rules are pure: from ``companion.games.<game>.rules``, every
  module reached, by any import (in a function, under TYPE_CHECKING), is the
  standard library, the contract's own few modules, or a pure module of the
  same folder: no hardware, threads, screens, storage or other game.
- The rest of the house reaches a game only through its record: no module
  outside ``companion/games/<game>/`` imports anything of it, and the registry
  loads each folder's ``__init__`` (the record) and nothing else of it.
- No module outside a folder names its game in code (a string constant, a
  name, an attribute, an import; docstrings aside), but the registry's line.
- The suites parametrised over the games take their list from the registry.
"""

import ast
import re
import subprocess
import sys
from pathlib import Path

from companion.games import GAMES
from tests.test_table_room import import_graph

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"
#: what a game's rules may import of the house: the contract and its few pure helpers
PURE_HOUSE = {
    "companion.games.base",
    "companion.games.frozen",
    "companion.games.kinds",
    "companion.ballot",
    "companion.errors",
}
#: the game's own modules its rules may never reach: they draw, talk or store
NOT_RULES = {"__init__", "screens", "bots", "tv", "learn", "migrations", "command", "board_svg"}


def reached(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo += graph[node]
    return seen - {start}


def outside_imports(path: Path) -> set[str]:
    """The top-level names of what ``path`` imports that are not ``companion``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module.split(".")[0])
    return found - {"companion", "__future__"}


def module_path(module: str) -> Path:
    path = ROOT / Path(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def impure(graph: dict[str, set[str]], game: str) -> list[str]:
    """What ``game``'s rules reach that rules may not."""
    folder = f"companion.games.{game}."
    wrong = []
    rules = f"{folder}rules"
    for module in sorted({rules} | reached(graph, rules)):
        own = module.startswith(folder) and module[len(folder) :] not in NOT_RULES
        if module != rules and module not in PURE_HOUSE and not own:
            wrong.append(module)
        elif outside := outside_imports(module_path(module)) - set(sys.stdlib_module_names):
            wrong.append(f"{module} imports {sorted(outside)}")
    return wrong


def test_each_games_rules_reach_only_the_contract_the_stdlib_and_their_own_pure_modules():
    graph = import_graph()
    assert {game: impure(graph, game) for game in GAMES} == {game: [] for game in GAMES}


def test_the_purity_check_catches_rules_that_reach_a_screen_or_a_library(tmp_path):
    """The control: a rules module that imports its screens, or Pillow, is caught."""
    graph = import_graph()
    game = next(iter(GAMES))
    rules = f"companion.games.{game}.rules"
    bad = {**graph, rules: graph[rules] | {f"companion.games.{game}.screens"}}
    assert f"companion.games.{game}.screens" in impure(bad, game)
    assert impure({**graph, rules: graph[rules] | {"companion.ui.canvas"}}, game)


def intruders(graph: dict[str, set[str]]) -> list[str]:
    """Imports of a game's modules from outside its folder."""
    found = []
    for module, imports in graph.items():
        for target in imports:
            for game in GAMES:
                inside = f"companion.games.{game}"
                if (target == inside or target.startswith(inside + ".")) and not (
                    module == inside or module.startswith(inside + ".")
                ):
                    found.append(f"{module} -> {target}")
    return sorted(found)


def test_the_house_imports_nothing_of_a_game_but_through_its_record():
    assert intruders(import_graph()) == []


def test_the_intruder_check_catches_a_room_that_imports_a_games_screens():
    graph = import_graph()
    game = next(iter(GAMES))
    graph["companion.web.tv"] = graph["companion.web.tv"] | {f"companion.games.{game}.screens"}
    assert intruders(graph) == [f"companion.web.tv -> companion.games.{game}.screens"]


def test_loading_the_registry_loads_each_record_and_no_part():
    code = (
        "import sys, companion.games\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('companion.games.'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    loaded = set(out.stdout.split())
    assert {f"companion.games.{game}" for game in GAMES} <= loaded
    parts = [m for m in loaded if m.count(".") == 3]  # companion.games.<game>.<part>
    assert parts == []


def words(tree: ast.AST) -> list[str]:
    """The module's code as words: string constants, names, attributes, definitions and
    imports, its docstrings aside."""
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    found = []
    for node in ast.walk(tree):
        match node:
            case ast.Constant(value=str(text)) if id(node) not in docs:
                found.append(text)
            case ast.Name(id=name) | ast.Attribute(attr=name) | ast.arg(arg=name):
                found.append(name)
            case ast.FunctionDef(name=name) | ast.ClassDef(name=name):
                found.append(name)
            case ast.alias(name=name, asname=asname):
                found += [name, asname or ""]
            case ast.ImportFrom(module=str(module)):
                found.append(module)
            case ast.keyword(arg=str(name)):
                found.append(name)
    return found


def house_word(game: str, root: Path = PACKAGE) -> bool:
    """Whether another game's own folder uses ``game``'s name as a word of its own (the
    vote's name is Glasnost's and Politburo's "vote" decision): then the name alone says
    nothing, and only the folder's address (``games.vote``, ``games/vote``) names the game."""
    word = re.compile(rf"(?i)(\w+_)?{re.escape(game)}(_\w+)?")
    others = [
        path
        for path in sorted((root / "games").glob("*/*.py"))
        if path.parent.name != game and (path.parent / "__init__.py").exists()
    ]
    return any(
        word.fullmatch(w) for path in others for w in words(ast.parse(path.read_text("utf-8")))
    )


def naming(game: str, root: Path = PACKAGE) -> list[str]:
    """The modules of ``root`` outside ``game``'s folder whose code names the game."""
    folder = root / "games" / game
    said = re.compile(re.escape(game), re.IGNORECASE)
    if house_word(game, root):
        said = re.compile(rf"games[./]{re.escape(game)}\b")
    return [
        path.relative_to(root).as_posix()
        for path in sorted(root.rglob("*.py"))
        if folder not in path.parents
        and any(said.search(w) for w in words(ast.parse(path.read_text(encoding="utf-8"))))
    ]


def test_no_module_outside_a_games_folder_names_it_but_the_registry():
    named = {game: naming(game) for game in GAMES}
    print({game: len(files) for game, files in named.items()})  # the measure, with -s
    # the registry names each folder; a name that is a house word, only as a word
    assert named == {game: [] if house_word(game) else ["games/registry.py"] for game in GAMES}


def test_the_name_count_sees_a_name_in_code_and_not_in_a_docstring(tmp_path):
    """The control: a string, an attribute and an import are counted; a docstring is not."""
    game = next(iter(GAMES))
    (tmp_path / "games" / game).mkdir(parents=True)
    (tmp_path / "games" / game / "rules.py").write_text(f"NAME = {game!r}\n")
    (tmp_path / "doc.py").write_text(f'"""All about {game}."""\n')
    (tmp_path / "a.py").write_text(f'if view["game"] == "{game}":\n    pass\n')
    (tmp_path / "b.py").write_text(f"from companion.games.{game} import screens\n")
    (tmp_path / "c.py").write_text(f"x = ui.{game.upper()}\n")
    assert naming(game, tmp_path) == ["a.py", "b.py", "c.py"]


def test_a_name_another_game_uses_as_a_word_is_counted_by_its_folders_address(tmp_path):
    """The control for a game named with a word of the house (a "tally" game beside a game
    whose ballots have a "tally"): its name in a string is that word; its folder's address
    still names it."""
    for folder, text in (("tally", "NAME = 'tally'\n"), ("other", "KIND = 'tally_count'\n")):
        (tmp_path / "games" / folder).mkdir(parents=True)
        (tmp_path / "games" / folder / "__init__.py").write_text("")
        (tmp_path / "games" / folder / "rules.py").write_text(text)
    (tmp_path / "a.py").write_text('SAID = "tally"\n')
    (tmp_path / "b.py").write_text("from companion.games.tally import screens\n")
    assert house_word("tally", tmp_path) and not house_word("other", tmp_path)
    assert naming("tally", tmp_path) == ["b.py"]


#: suites of cases written game by game: numbers measured and pinned (a new game has none
#: until measured), each game's own error sentence
PINNED = {"test_simulate_pinned.py", "test_table.py", "test_cli_errors.py"}


def first_word(node: ast.AST) -> str | None:
    """The first string constant of an element: a game name, if a list is one of games."""
    for n in ast.walk(node):
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            return n.value
    return None


def test_no_suite_lists_the_games_by_hand():
    """A fifth game is picked up with no edit: no test module writes the list of the games,
    one item a game (cases written game by game, a game in several, are scenarios)."""
    listed = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        if path.name in PINNED:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.List | ast.Tuple | ast.Set):
                keys = [first_word(item) for item in node.elts]
                if sorted(map(str, keys)) == sorted(GAMES):
                    listed.append(f"{path.name}:{node.lineno}")
    assert listed == []


def screens_typed(source: str, game: str) -> bool:
    """Whether a folder's ``__init__`` binds its own screens module to a name typed
    ``GameUI`` (under TYPE_CHECKING: nothing is imported at run time), so that mypy holds
    the screens to the protocol although the record loads them by name."""
    tree = ast.parse(source)
    guarded = [
        node
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    ]
    for block in guarded:
        imported = {
            alias.asname or alias.name: f"{node.module}.{alias.name}"
            for node in block.body
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        for node in block.body:
            if (
                isinstance(node, ast.AnnAssign)
                and ast.unparse(node.annotation) == "GameUI"
                and isinstance(node.value, ast.Name)
                and imported.get(node.value.id) == f"companion.games.{game}.screens"
                and imported.get("GameUI") == "companion.ui.contract.GameUI"
            ):
                return True
    return False


def test_each_folder_holds_its_screens_to_the_protocol_for_the_type_checker():
    untyped = [
        game
        for game in GAMES
        if not screens_typed((PACKAGE / "games" / game / "__init__.py").read_text("utf-8"), game)
    ]
    assert untyped == []


def test_the_typed_screens_check_wants_the_folders_own_screens_under_type_checking():
    """The control: another game's screens, an untyped name, or a run-time import fail it."""
    typed = (
        "if TYPE_CHECKING:\n"
        "    from companion.games.{game} import screens\n"
        "    from companion.ui.contract import GameUI\n\n"
        "    _SCREENS: {kind} = screens\n"
    )
    assert screens_typed(typed.format(game="a", kind="GameUI"), "a")
    assert not screens_typed(typed.format(game="b", kind="GameUI"), "a")
    assert not screens_typed(typed.format(game="a", kind="object"), "a")
    assert not screens_typed(typed.format(game="a", kind="GameUI").replace("TYPE_", "RUN_"), "a")
