"""The bench measures the box, not the process that runs it."""

from companion.bench import cold_start


def test_cold_start_memory_does_not_count_what_the_parent_holds():
    held = bytearray(b"\x01") * (200 << 20)  # 200 MiB, written so that it is resident
    try:
        peak = cold_start()["peak_rss_mib"]
    finally:
        del held
    # A first frame costs some 40 MiB; a child reporting its parent's peak said 211.
    assert 10 < peak < 120
