"""The journal's long soak: random presses on the real table loop, killed at random moments.

    python bench/soak.py                         # 100,000 presses, an hour or so here
    python bench/soak.py --presses 20000 --seed 2

A child process mashes the virtual box's buttons exactly as ``companion run`` plays
(``journal_size.mash``), with its journal on disk; the parent SIGKILLs it after a random
number of presses and starts another on the same journal, which resumes what the last one
saved. After every kill the journal must pass SQLite's integrity check and still hold
every step the killed box acknowledged before its last report. Prints, as JSON: the
journal's size every 10,000 presses and its growth per 10,000 presses over the second
half (a journal bounded as it should be grows by about nothing), the children's peak
memory, the kills and the resumes.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

from journal_size import mash, size

REPORT = 250  # presses between a child's reports
HERE = Path(__file__).resolve()


def child(path: Path, seed: int) -> None:
    """Mash for ever, saying how far it got (and what the journal holds) every REPORT presses."""
    from companion.box import VirtualClock, open_box
    from companion.demo import Player
    from companion.store import Journal
    from companion.table import Table

    box = open_box("virtual", clock=VirtualClock())
    table = Table(box, seed=seed, journal=Journal(path))
    print(json.dumps({"resumed": bool(table.resume())}), flush=True)
    player = Player(box, table, box.clock)
    rng = random.Random(seed)
    while True:
        for _ in range(REPORT):
            mash(player, rng)
        journal = table.journal
        acknowledged = journal is not None and journal.saving and journal.game_id is not None
        kept = {"game": journal.game_id, "n": journal.n} if journal and acknowledged else None
        print(json.dumps({"pressed": REPORT, "kept": kept}), flush=True)


def peak_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def intact(path: Path, kept: dict[str, int] | None) -> bool:
    """The file passes SQLite's check, and the last step the killed box said it kept is there
    (unless its game's row has since been pruned, as old games are)."""
    db = sqlite3.connect(path)
    try:
        if db.execute("PRAGMA integrity_check").fetchone() != ("ok",):
            return False
        if kept is None:
            return True
        game = db.execute("SELECT 1 FROM games WHERE id = ?", (kept["game"],)).fetchone()
        (newest,) = db.execute(
            "SELECT max(n) FROM steps WHERE game_id = ?", (kept["game"],)
        ).fetchone()
        return game is None or (newest is not None and newest >= kept["n"])
    finally:
        db.close()


def soak(presses: int, seed: int, folder: Path) -> dict[str, object]:
    path = folder / "journal.sqlite"
    rng = random.Random(seed)
    done = kills = resumes = 0
    sizes: list[int] = []
    peak = 0
    healthy = True
    while done < presses:
        proc = subprocess.Popen(
            [sys.executable, str(HERE), "--child", str(path), "--seed", str(seed + kills)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        resumes += json.loads(proc.stdout.readline())["resumed"]
        reports = rng.randint(1, 40)  # killed after 250 to 10,000 presses
        kept = None
        for _ in range(reports):
            line = proc.stdout.readline()
            if not line:
                break  # the child died by itself: the run reports it as unhealthy
            report = json.loads(line)
            done += report["pressed"]
            kept = report["kept"] or kept
            if done % 10_000 == 0:
                sizes.append(size(path))
            if done >= presses:
                break
        peak = max(peak, peak_kib(proc.pid))
        proc.send_signal(signal.SIGKILL)
        healthy &= proc.wait() == -signal.SIGKILL
        kills += 1
        healthy &= intact(path, kept)
    half = sizes[len(sizes) // 2 :]
    growth = (half[-1] - half[0]) / max(1, len(half) - 1) if len(half) > 1 else 0
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "presses": done,
        "kills": kills,
        "resumes": resumes,
        "healthy": healthy,
        "journal_bytes": size(path),
        "every_10000_presses": sizes,
        "growth_per_10000_presses": round(growth),
        "peak_memory_mib": round(peak / 1024, 1),
        "cpu_seconds": round(used.ru_utime + used.ru_stime, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        child(args.child, args.seed)
        return
    if not 1 <= args.presses <= 10_000_000:
        parser.error(f"--presses must be from 1 to 10,000,000, not {args.presses}")
    with tempfile.TemporaryDirectory() as folder:
        result = soak(args.presses, args.seed, Path(folder))
    print(json.dumps(result))
    if not result["healthy"]:
        os._exit(1)


if __name__ == "__main__":
    main()
