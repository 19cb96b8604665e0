"""``companion``: run the box, play a demo, simulate bot games, check the hardware."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from companion.games import GAMES


def _options(pairs: Sequence[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"--option takes KEY=VALUE, not {pair!r}")
        options[key] = value
    return options


def cmd_simulate(args: argparse.Namespace) -> int:
    from companion.simulate import report, simulate

    stats = simulate(
        args.game, args.players, args.games, args.seed, args.bots, **_options(args.option)
    )
    print(json.dumps(stats, indent=2) if args.json else report(stats))
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("simulate", help="play bot games and print outcome rates")
    sim.add_argument("game", choices=sorted(GAMES))
    sim.add_argument("--players", type=int, default=None)
    sim.add_argument("--games", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--bots", choices=("smart", "random"), default="smart")
    sim.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a house rule, e.g. deck=fr (repeatable)",
    )
    sim.add_argument("--json", action="store_true", help="machine-readable output")
    sim.set_defaults(func=cmd_simulate)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except ValueError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
