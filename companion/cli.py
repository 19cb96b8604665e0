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

    options: dict[str, object] = dict(_options(args.option))
    if args.game == "glasnost" and "board" in options:
        from companion.boards import load_board

        options["board"] = load_board(str(options["board"]))  # a board file, read here
    stats = simulate(args.game, args.players, args.games, args.seed, args.bots, **options)
    print(json.dumps(stats, indent=2) if args.json else report(stats))
    return 0


def cmd_board(args: argparse.Namespace) -> int:
    from pathlib import Path

    from companion.boards import load_board
    from companion.games.glasnost_board import parse_board
    from companion.ui.board_svg import board_svg

    board = parse_board(load_board(args.board))
    try:
        Path(args.svg).write_text(board_svg(board), encoding="utf-8")
    except OSError as exc:
        raise ValueError(f"cannot write {args.svg}: {exc.strerror}") from None
    print(f"{board.name}: {len(board.crises)} crises, {len(board.seat_crises)} seats -> {args.svg}")
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

    brd = sub.add_parser("board", help="check a board description and draw it as SVG")
    brd.add_argument("game", choices=("glasnost",))
    brd.add_argument("--svg", required=True, metavar="FILE", help="where to write the drawing")
    brd.add_argument(
        "--board", default=None, metavar="FILE", help="a board file (default: bundled)"
    )
    brd.set_defaults(func=cmd_board)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except ValueError as exc:
        print(f"companion: {exc}", file=sys.stderr)
        return 2
