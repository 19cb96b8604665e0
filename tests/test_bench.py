"""The bench measures the box, not the process that runs it; the first frame loads only what
it draws with."""

import json
import subprocess
import sys

from companion.bench import COLD_START, cold_start


def test_cold_start_memory_does_not_count_what_the_parent_holds():
    held = bytearray(b"\x01") * (200 << 20)  # 200 MiB, written so that it is resident
    try:
        peak = cold_start()["peak_rss_mib"]
    finally:
        del held
    # A first frame costs some 40 MiB; a child reporting its parent's peak said 211.
    assert 10 < peak < 120


def modules_after(script: str) -> set[str]:
    listing = script + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", listing], capture_output=True, text=True, check=True
    )
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_the_first_frame_loads_nothing_it_does_not_draw_with():
    """gpiozero loads importlib.metadata for an entry-point lookup the box never makes (it
    names its pin factory), pyserial is for handsets (none here), hmac for ``secrets`` (the
    CSPRNG is ``random``'s): none is loaded before the first frame."""
    unneeded = {"importlib.metadata", "serial", "hmac", "companion.box.handsets"}
    first_frame = modules_after(COLD_START)
    assert {"gpiozero", "luma.oled.device", "PIL.Image"} <= first_frame  # it did draw
    assert first_frame & unneeded == set()
    # The check can fail: gpiozero imported plainly loads importlib.metadata.
    assert "importlib.metadata" in modules_after("import gpiozero")


def test_the_speed_loop_plays_every_game_with_both_kinds_of_bots():
    """``bench/compare.py`` times this loop in an older tree too, so it passes the options
    whose default changed at their old value (Kolkhoz dealt by the box): options every
    game still has, and games that every bot plays to the end."""
    from companion.games import GAMES, game_class
    from companion.speed import OPTIONS, play_games

    for name, options in OPTIONS.items():
        assert game_class(name).defaults().keys() >= options.keys()
    for name in GAMES:
        for bots in ("smart", "random"):
            play_games(name, game_class(name).min_players, 1, seed=3, bots=bots)
