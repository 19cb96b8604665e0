"""Simulated games per CPU-second, this tree against another, side by side in one run.

    python bench/compare.py /tmp/base                  # the issue's cases, 3 rounds
    python bench/compare.py /tmp/base glasnost:8 --games 20 --rounds 5
    python bench/compare.py /tmp/base kolkhoz:4:random     # random bots (smart by default)
    python bench/compare.py /tmp/base --cold-start         # a fresh box to its first frame
    python bench/compare.py /tmp/base glasnost:8 --per-move   # and moves per CPU-second

The other tree is a checkout of an older commit (``git worktree add /tmp/base
COMMIT``), compiled as this one is (``python -m compileall -q companion``, and its
catalogs built: ``python setup.py build_py``): an uncompiled tree pays for compiling
its modules at every start. Each measure runs in a fresh interpreter whose
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
    rate = loop.games_per_cpu_second(name, int(players), games, seed, **kind)
    moves = loop.moves_per_game(name, int(players), games, seed, **kind)  # untimed
    print(json.dumps({"rate": rate, "moves": moves}))


def measure(tree: Path, case: str, games: int, seed: int) -> dict[str, float]:
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
    measured: dict[str, float] = json.loads(done.stdout)
    return measured


def cold_starts(base: Path, rounds: int) -> None:
    """A fresh interpreter to the first frame (``companion bench``'s script, the same for
    both): the least CPU time of ``rounds`` runs a tree, and the instructions of one run
    under callgrind (which does not move with the load); then the real start, through the
    CLI as the service starts it, on an empty journal (``REAL_START``), in instructions."""
    sys.path.insert(0, str(HERE))
    from companion.bench import cold_start, cold_start_instructions, real_start_instructions

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
    real = {
        label: real_start_instructions(env(tree))
        for label, tree in (("base", base), ("this", HERE))
    }
    for name, each in (("M instr.", counted), ("real start M", real)):
        if each["base"] and each["this"]:
            base_m, this_m = each["base"] / 1e6, each["this"] / 1e6
            print(f"{name:<13} {base_m:13.0f} {this_m:13.0f} {this_m / base_m:6.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", type=Path, nargs="?", help="the other tree (holding companion/)")
    parser.add_argument("cases", nargs="*", help="game:players (default: the issue's cases)")
    parser.add_argument("--games", type=int, help="games a round (default: per case)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cold-start", action="store_true", help="time a fresh box instead")
    parser.add_argument(
        "--per-move", action="store_true", help="rates per move (where moves a game differ)"
    )
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
    unit = "moves" if args.per_move else "g"
    print(
        f"{'case':<13} {'base ' + unit + '/cpu-s':>15} {'this ' + unit + '/cpu-s':>15} {'ratio':>6}"
    )
    for case in cases:
        games = args.games or CASES.get(case, 10)
        best = {"base": 0.0, "this": 0.0}
        moves = {"base": 1.0, "this": 1.0}
        for _ in range(args.rounds):
            for label, tree in (("base", args.base), ("this", HERE)):
                measured = measure(tree, case, games, args.seed)
                best[label] = max(best[label], measured["rate"])
                if args.per_move:
                    moves[label] = measured["moves"]
        base, this = best["base"] * moves["base"], best["this"] * moves["this"]
        print(f"{case:<13} {base:15.1f} {this:15.1f} {this / base:6.2f}", flush=True)
        if args.per_move:
            print(f"{'':<13} {moves['base']:9.1f} moves {moves['this']:9.1f} moves a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
