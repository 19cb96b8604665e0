"""OK before A or B at a secret prompt, and the notices that only OK dismisses.

OK pressed before A or B says "Choose A or B first" in the same words, with the
same blink and beep at the same moment, whatever the seat, the game and its two
choices: nothing secret shapes it. A notice (that one, a refusal, a warning)
stays until OK; any other press on it says "OK to go on" and does nothing else.
"""

import random

from companion.bots import make_bots
from companion.box import VirtualClock, open_box
from companion.demo import GAP, Player
from companion.monkey import move_on
from companion.table import Settings, Table
from companion.table.modes import Choose, Notice, Over

GAMES = [
    Settings("gulag", 5, "en", {"deal": "box", "deck": "en"}),
    Settings("politburo", 5, "en", {"vote": "each"}),
    Settings("glasnost", 5, "en", {"crises": "fixed"}),
]
PROBES = 5  # secret prompts tried in each game


def since(box, start, t0):
    """The LED and buzzer changes from ``start`` on, timed from ``t0``."""
    out = []
    for line in box.outputs.trace[start:]:
        at, rest = line.split(" ", 1)
        out.append(f"{float(at) - t0:.3f} {rest}")
    return out


def probe(table, player):
    """OK before A or B on the secret prompt on screen, then a press of every other button
    on the notice, then OK: what the table saw and heard, and checks that nothing moved."""
    box, game = player.box, table.game
    prompt, seat = table.mode, table.mode.seat
    shown = box.board.glass().tobytes()
    before = (game.public_view(), game.view(seat), game.decision)
    start, t0 = len(box.outputs.trace), box.clock.now()
    player.press("ok")
    assert isinstance(table.mode, Notice) and table.mode.back == prompt
    said = (table.screen(), box.board.glass().tobytes(), since(box, start, t0))
    for button in ("choice_a", "choice_b", "back", "up", "down"):
        player.press(button)
        assert isinstance(table.mode, Notice), button  # only OK dismisses it
        assert table.screen().body == said[0].body and table.screen().keys == "OK to go on"
    player.press("ok")  # dismissed: the very prompt, nothing chosen
    assert table.mode == prompt and box.board.glass().tobytes() == shown
    assert (game.public_view(), game.view(seat), game.decision) == before
    return seat, said


def probes(settings):
    """``PROBES`` secret prompts of a game played by random bots, each probed."""
    box = open_box("virtual", clock=VirtualClock())
    try:
        table = Table(box, seed=4)
        table.start(settings)
        player = Player(box, table, box.clock)
        player.wait(GAP)
        rng = random.Random(2)
        bots = make_bots(table.game, "random", rng)
        seen, last = [], None
        while len(seen) < PROBES and not isinstance(table.mode, Over):
            if isinstance(table.mode, Choose) and table.mode != last:
                last = table.mode
                seen.append(probe(table, player))
            move_on(table, player, bots, rng)
        return seen
    finally:
        box.close()


def test_ok_before_a_or_b_says_choose_first_the_same_for_every_seat_and_game():
    seen = [found for settings in GAMES for found in probes(settings)]
    assert len(seen) == PROBES * len(GAMES) and len({seat for seat, _ in seen}) > 2
    screen, frame, feedback = seen[0][1]
    assert screen.status == "Not yet" and screen.body == ("Choose A or B first.",)
    assert any("buzzer" in line for line in feedback)  # the press was taken, as any press
    # Every seat, every game and its choices (Work/Strike, Yes/No, Reform/Repress...):
    # the same words, the same frame, the same blink and beep at the same moment.
    assert [said for _, said in seen] == [(screen, frame, feedback)] * len(seen)
