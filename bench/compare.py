"""Simulated games per CPU-second, this tree against another, side by side in one run.

    python bench/compare.py /tmp/base                  # the issue's cases, 3 rounds
    python bench/compare.py /tmp/base glasnost:8 --games 20 --rounds 5
    python bench/compare.py /tmp/base kolkhoz:4:random     # random bots (smart by default)
    python bench/compare.py /tmp/base --cold-start         # a fresh box to its first frame

The other tree is a checkout of an older commit (``git archive COMMIT companion
| tar -x -C /tmp/base``). Each measure runs in a fresh interpreter whose
``companion`` comes from one tree, with the same loop for both
(``companion/speed.py`` of this tree, loaded by path). The trees take turns,
round after round, so that a slow spell of the machine hits both; the best
round of each counts (the one least disturbed), and the ratio is this tree's
over the other's. Absolute figures move between runs; the ratio is the measure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
SPEED = HERE / "companion" / "speed.py"

#: game:players[:bots] -> games a round (each round a fraction of a CPU-second on the baseline)
CASES = {
    "glasnost:4": 20,
    "glasnost:8": 15,
    "kolkhoz:4:random": 100,
    "politburo:5": 30,
    "kolkhoz:4": 60,
    "gulag:5": 400,
}


def child(case: str, games: int, seed: int) -> None:
    """In the measured tree's interpreter: time the loop and print games per CPU-second."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("speed_loop", SPEED)
    assert spec is not None and spec.loader is not None
    loop = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loop)
    name, players, *bots = case.split(":")
    # Bots by keyword only when asked: an older tree's loop plays smart bots alone.
    kind = {"bots": bots[0]} if bots else {}
    loop.play_games(name, int(players), 1, seed + 1, **kind)  # warm: imports and caches
    print(json.dumps(loop.games_per_cpu_second(name, int(players), games, seed, **kind)))


def measure(tree: Path, case: str, games: int, seed: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", case, str(games), str(seed)],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"{case} in {tree} failed:\n{done.stderr}")
    return float(json.loads(done.stdout))


def cold_starts(base: Path, rounds: int) -> None:
    """A fresh interpreter to the first frame (``companion bench``'s script, the same for
    both): the least CPU time of ``rounds`` runs a tree, and the instructions of one run
    under callgrind (which does not move with the load)."""
    sys.path.insert(0, str(HERE))
    from companion.bench import cold_start, cold_start_instructions

    def env(tree: Path) -> dict[str, str]:
        os.chdir(tree)  # ``python -c`` puts the working directory first on the path
        return dict(os.environ, PYTHONPATH=str(tree))

    cpu = {"base": float("inf"), "this": float("inf")}
    for _ in range(rounds):
        for label, tree in (("base", base), ("this", HERE)):
            cpu[label] = min(cpu[label], cold_start(env(tree))["cpu_s"])
    counted = {
        label: cold_start_instructions(env(tree))
        for label, tree in (("base", base), ("this", HERE))
    }
    print(f"{'cold start':<13} {'base':>13} {'this':>13} {'ratio':>6}")
    print(f"{'CPU s':<13} {cpu['base']:13.3f} {cpu['this']:13.3f} {cpu['this'] / cpu['base']:6.2f}")
    if counted["base"] and counted["this"]:
        base_m, this_m = counted["base"] / 1e6, counted["this"] / 1e6
        print(f"{'M instr.':<13} {base_m:13.0f} {this_m:13.0f} {this_m / base_m:6.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, nargs="?", help="the other tree (holding companion/)")
    parser.add_argument("cases", nargs="*", help="game:players (default: the issue's cases)")
    parser.add_argument("--games", type=int, help="games a round (default: per case)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cold-start", action="store_true", help="time a fresh box instead")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_intermixed_args()
    if args.child:
        case, games, seed = args.child
        child(case, int(games), int(seed))
        return 0
    if args.base is None:
        parser.error("the other tree is needed: a directory holding companion/")
    if args.cold_start:
        cold_starts(args.base.resolve(), args.rounds)
        return 0
    cases = args.cases or list(CASES)
    print(f"{'case':<13} {'base g/cpu-s':>13} {'this g/cpu-s':>13} {'ratio':>6}")
    for case in cases:
        games = args.games or CASES.get(case, 10)
        best = {"base": 0.0, "this": 0.0}
        for _ in range(args.rounds):
            for label, tree in (("base", args.base), ("this", HERE)):
                best[label] = max(best[label], measure(tree, case, games, args.seed))
        ratio = best["this"] / best["base"]
        print(f"{case:<13} {best['base']:13.1f} {best['this']:13.1f} {ratio:6.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
