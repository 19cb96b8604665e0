"""Saved states edited with their checksum right, many of them: what the resume checks make of each.

    python bench/mutants.py                  # 40 edits a game and kind, games of 10 seeds
    python bench/mutants.py --edits 200 --seeds 30

Each edit (``tests/mutants.py``: a list shortened or doubled, a seat that does
not exist, an index or a score out of range, a Kolkhoz card lost or put in a
second place) is judged as a start would: set aside by the checks (by an
invariant, named, or by the shape) or resumed and played on for 40 moves with
every screen drawn. Prints, as JSON, the counts by game and kind, every crash
and every Kolkhoz state short of a card (or with one twice) that resumed;
exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' helpers

from companion.games import GAMES
from tests.mutants import CARD_KINDS, KINDS, judge, mutant, saved_steps


def verdict_kind(verdict: str) -> str:
    """Resumed, or refused by what: an invariant or the shape (each names what is wrong), or
    the rules and screens of the dry run (a state some invariant could have named)."""
    if verdict == "resumed":
        return "resumed"
    if "invariant" in verdict:
        return "refused (invariant)"
    shape = ("expected", "is missing", "is not expected", "not a saved game")
    return "refused (shape)" if any(x in verdict for x in shape) else "refused (dry run)"


def run(edits: int, seeds: int) -> dict[str, object]:
    counts: Counter[str] = Counter()
    crashes: list[dict[str, object]] = []
    silent_cards: list[dict[str, object]] = []
    dry_run: Counter[str] = Counter()
    for name in GAMES:
        kinds = KINDS + (CARD_KINDS if name == "kolkhoz" else ())
        for kind in kinds:
            rng = random.Random(f"{name} {kind}")
            for _ in range(edits):
                seed = rng.randrange(seeds)
                settings, records = saved_steps(name, seed)
                edited = mutant(rng.choice(records), kind, rng)
                if edited is None:
                    continue
                case = {"game": name, "seed": seed, "kind": kind}
                try:
                    verdict = judge(settings, edited, seed=rng.randrange(100))
                except Exception:
                    crashes.append({**case, "error": traceback.format_exc(limit=3)[-600:]})
                    continue
                counts[f"{name} / {kind} / {verdict_kind(verdict)}"] += 1
                if verdict_kind(verdict) == "refused (dry run)":
                    dry_run[f"{name}: {verdict[:80]}"] += 1
                if kind in CARD_KINDS and verdict == "resumed":
                    silent_cards.append({**case, "phase": edited["state"]["phase"]})
    return {
        "counts": dict(sorted(counts.items())),
        "dry_run": dict(dry_run.most_common()),
        "crashes": crashes,
        "cards": silent_cards,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=40, help="edits a game and kind")
    parser.add_argument("--seeds", type=int, default=10, help="games a game edited from")
    args = parser.parse_args(argv)
    if args.edits < 1 or args.seeds < 1:
        parser.error("--edits and --seeds must be at least 1")
    started = time.process_time()
    report = run(args.edits, args.seeds)
    report["cpu_seconds"] = round(time.process_time() - started, 1)
    print(json.dumps(report, indent=1, ensure_ascii=False))
    return 1 if report["crashes"] or report["cards"] else 0


if __name__ == "__main__":
    sys.exit(main())
