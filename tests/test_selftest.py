"""``companion selftest``: every part driven, every button asked for by name."""

from companion import selftest
from companion.box import VirtualClock, open_box
from companion.cli import main


def test_selftest_passes_on_the_virtual_board(capsys):
    assert main(["selftest", "--board", "virtual"]) == 0
    out = capsys.readouterr().out
    for button in ("up", "down", "ok", "back", "choice_a", "choice_b", "peek"):
        assert f"button {button}: ok" in out
    assert out.strip().endswith("all good")


def test_selftest_names_a_miswired_button():
    clock = VirtualClock()
    box = open_box("virtual", clock=clock)
    drive = box.board.drive
    # PEEK wired to OK's pin: pressing PEEK closes OK's contact.
    box.board.drive = lambda button, closed: drive("ok" if button == "peek" else button, closed)
    lines = []
    try:
        problems = selftest.run(box, clock.advance, lines.append)
    finally:
        box.close()
    assert problems == ["button peek: got ok instead"]
    trace = " ".join(box.outputs.trace)
    assert "bar 10" in trace and "status_b 1.0" in trace and "buzzer 1" in trace
