"""The journal-check properties explored beyond CI's replay; what fails is kept for CI.

    python bench/explore.py                      # 200 examples a game and property
    python bench/explore.py --examples 2000 --property edited_state --game kolkhoz

CI replays the same derandomized examples of each property on every run
(``tests/conftest.py``), so it never looks further. Here Hypothesis searches
at random, with its example database (``.hypothesis/explore``: a failure found
once is tried first next time), for a wrong row that stops the box or resumes
in silence (``wrong_row``: ``tests/test_journal_checks.py``) and for an edited
saved state that crashes or resumes short of a card (``edited_state``:
``tests/test_mutants.py``). Each failure, shrunk, is added to
``tests/explored.json``, which those tests replay as explicit examples, and
is printed. Prints a JSON summary; exits 1 when something failed.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' helpers

from companion.games import GAMES
from tests import test_journal_checks as rows
from tests.explored import keep
from tests.mutants import CARD_KINDS, KINDS, refused_by_name_or_plays

DATABASE = Path(".hypothesis") / "explore"


def wrong_row(name: str, where: int, kind: str, value: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.sqlite"
        rows.wrong_row_is_refused_or_plays(path, name, where, kind, value)


def edited_state(name: str, seed: int, kind: str, pick: int) -> None:
    refused_by_name_or_plays(name, seed, kind, pick)


#: property -> (its check, the strategies of its arguments beyond the game)
PROPERTIES: dict[str, tuple[Callable[..., None], dict[str, st.SearchStrategy[Any]]]] = {
    "wrong_row": (
        wrong_row,
        {"where": st.integers(0, 10**6), "kind": rows.KINDS, "value": rows.WRONG},
    ),
    "edited_state": (
        edited_state,
        {
            "seed": st.integers(0, 10**4),
            "kind": st.sampled_from(KINDS + CARD_KINDS),
            "pick": st.integers(0, 10**6),
        },
    ),
}


def explore(prop: str, name: str, examples: int) -> dict[str, Any] | None:
    """Search ``prop`` on game ``name``; the shrunk failing example, or None."""
    check, strategies = PROPERTIES[prop]
    failing: list[dict[str, Any]] = []

    def probe(**kwargs: Any) -> None:
        try:
            check(name, **kwargs)
        except Exception:
            failing.append({"name": name, **kwargs})  # the last one is the shrunk one
            raise

    search = settings(
        max_examples=examples,
        deadline=None,
        derandomize=False,
        database=DirectoryBasedExampleDatabase(str(DATABASE / prop / name)),
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
    )(given(**strategies)(probe))
    try:
        search()
    except Exception as exc:
        print(f"{prop} [{name}]: {type(exc).__name__}: {exc}"[:300], file=sys.stderr)
        return failing[-1] if failing else {"name": name, "error": repr(exc)}
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=200, help="examples a game and property")
    parser.add_argument("--property", choices=PROPERTIES, action="append", dest="properties")
    parser.add_argument("--game", choices=GAMES, action="append", dest="games")
    args = parser.parse_args(argv)
    if args.examples < 1:
        parser.error(f"--examples must be at least 1, not {args.examples}")
    logging.disable(logging.WARNING)  # each refused row is said once a start: thousands here
    started = time.process_time()
    found = []
    for prop in args.properties or PROPERTIES:
        for name in args.games or GAMES:
            failure = explore(prop, name, args.examples)
            if failure is not None:
                found.append({"property": prop, **failure, "new": keep(prop, failure)})
    summary = {
        "examples": args.examples,
        "failures": found,
        "cpu_seconds": round(time.process_time() - started, 1),
    }
    print(json.dumps(summary, indent=1, default=repr))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
