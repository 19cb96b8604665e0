"""Examples the property tests' random search found failing, kept for CI to replay.

CI replays each property's derandomized examples and never searches further
(``tests/conftest.py``); ``bench/explore.py`` searches with Hypothesis's random
generation and its database, and writes each failing example it shrinks to
``tests/explored.json``, under its property's name. The tests read them back
(``explored``) as explicit examples, so what was found once is checked on
every run, fixed or not.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FILE = Path(__file__).with_name("explored.json")


def _all() -> dict[str, list[dict[str, Any]]]:
    if not FILE.exists():
        return {}
    found: dict[str, list[dict[str, Any]]] = json.loads(FILE.read_text(encoding="utf-8"))
    return found


def explored(prop: str) -> list[dict[str, Any]]:
    """The examples kept for property ``prop`` (keyword arguments of its check)."""
    return _all().get(prop, [])


def keep(prop: str, found: dict[str, Any]) -> bool:
    """Add ``found`` to property ``prop``'s examples; False if it was kept already."""
    kept = _all()
    examples = kept.setdefault(prop, [])
    if found in examples:
        return False
    examples.append(found)
    text = json.dumps(kept, indent=1, sort_keys=True, ensure_ascii=False)
    FILE.write_text(text + "\n", encoding="utf-8")
    return True
