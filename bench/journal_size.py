"""The table's journal under random presses: its size stays bounded (budget: 2 MiB).

    python bench/journal_size.py                 # 100,000 presses, about half an hour here
    python bench/journal_size.py --presses 5000 --seed 2

A stranger mashing buttons on the virtual box, through the real table loop and
its journal, exactly as ``companion run`` plays: games are set up, played,
abandoned and begun again. Prints the journal's size (file and WAL) every
10,000 presses and at the end, as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from companion.box import VirtualClock, open_box
from companion.box.pinout import BUTTONS
from companion.demo import Player
from companion.store import Journal
from companion.table import Table

BUDGET = 2 << 20  # bytes


def size(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


def mash(player: Player, rng: random.Random) -> None:
    """One stranger's press: any button, now and then held long enough to abandon or end."""
    button = rng.choice(BUTTONS)
    hold = 2.5 if button in ("back", "ok") and rng.random() < 0.02 else 0.05
    player.press(button, hold=hold)


def run(presses: int, seed: int, folder: Path) -> dict[str, object]:
    path = folder / "journal.sqlite"
    box = open_box("virtual", clock=VirtualClock())
    rng = random.Random(seed)
    started = time.monotonic()
    sizes = []
    try:
        table = Table(box, seed=seed, journal=Journal(path))
        table.resume()
        player = Player(box, table, box.clock)
        for done in range(1, presses + 1):
            mash(player, rng)
            if done % 10_000 == 0:
                sizes.append(size(path))
        games = table.games_started
        if table.journal is not None:
            table.journal.close()
    finally:
        box.close()
    final = size(path)
    return {
        "presses": presses,
        "games_started": games,
        "journal_bytes": final,
        "every_10000_presses": sizes,
        "within_budget": final < BUDGET,
        "seconds": round(time.monotonic() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print(json.dumps(run(args.presses, args.seed, Path(folder))))


if __name__ == "__main__":
    main()
