"""Glasnost at the table: the box in the middle, played only by pressing its buttons.

The worked example of the rules text (5 players, the crises in board order)
is played press by press; bots play whole games; swap tests show that the
crisis votes, the coup question and the coup votes leave no trace of who
chose what in the frames, the LED and buzzer trace or the log.
"""

import json
import logging
import math
import random
import re

import pytest

from companion.bots import make_bots, play_out
from companion.box import VirtualClock, open_box
from companion.demo import GAP, Player, play
from companion.games import new_game, restore
from companion.games.glasnost import screens as glasnost_ui
from companion.games.glasnost.board import NO, YES
from companion.games.glasnost.rules import DONE, GORBACHEV, KRYUCHKOV, LEFT, RIGHT
from companion.table import Settings, Table
from companion.table.modes import (
    Abandon,
    Announce,
    Claim,
    Countdown,
    Cursor,
    Handoff,
    Notice,
    Over,
    Peek,
    Setup,
)
from companion.ui.canvas import overflow, render, wrap
from companion.ui.i18n import translator
from tests.tables import every_screen_fits_and_says_who, lit_bar, match_references

# The rules text's worked example: five players, clockwise from seat 1 (see test_glasnost).
MEDAL, BEAR, DOLL, SATELLITE, FLAG = range(5)
EXAMPLE_SEED = 32131  # Medal Yeltsin, Bear Gorbachev (and chairman), Flag Kryuchkov
FIXED = {"crises": "fixed"}


def started(box, seed=EXAMPLE_SEED, players=5, lang="en", options=FIXED):
    table = Table(box, seed=seed, lang=lang)
    table.start(Settings("glasnost", players, lang, options))
    player = Player(box, table, box.clock)
    player.wait(GAP)
    return table, player


def give(table, player, choice):
    """The seat asked takes the box if it has not got it, and gives ``choice``; the reveals
    that follow are read (OK) and returned."""
    if isinstance(table.mode, Handoff):
        player.press("ok")
    player.answer(choice)
    shown = []
    while isinstance(table.mode, Announce):
        shown.append(table.screen())
        player.press("ok")
    return shown


def answer_all(table, player, choices, rest=None):
    """Every seat of one secret ballot answers (``choices`` by seat, else ``rest``); on the
    coup check's countdown, the seats in ``choices`` claim and the clock runs out."""
    shown = []
    if isinstance(table.mode, Countdown):
        for seat, choice in choices.items():
            claim(table, player, seat, choice)
        return wait_out(table, player)
    for _ in range(len(table.game.decision.seats)):
        seat = table.game.decision.seats[0]
        shown += give(table, player, choices.get(seat, rest))
    return shown


def claim(table, player, seat, choice):
    """``seat`` claims on the countdown: OK, its seat (Up from seat 1), A/B, OK (as the
    README says). A is the first leader offered, B the second, or none when only one is."""
    player.press("ok")
    for _ in range(seat):
        player.press("up")
    buttons = glasnost_ui.choice_buttons(table.game.decision)
    player.press("choice_a" if choice == buttons[0] else "choice_b")
    player.press("ok")


def wait_out(table, player):
    """The countdown runs out; the reveals that follow are read (OK) and returned."""
    while isinstance(table.mode, Countdown):
        player.wait(1.0)
    player.wait(GAP)  # the outcome has just appeared: a press now would fall in its guard
    shown = []
    while isinstance(table.mode, Announce):
        shown.append(table.screen())
        player.press("ok")
    return shown


def take(table, player):
    """The seat asked takes the box, if it has not got it."""
    if isinstance(table.mode, Handoff):
        player.press("ok")


def words(screen):
    return " / ".join((*screen.body, screen.big or ""))


def read_peeks(table, player):
    while table.game.decision.kind == "peek":
        give(table, player, "seen")


def test_the_worked_example_by_presses_berlin_purge_two_failed_coups_yeltsin_wins(box):
    """5.1-5.5, 6.1 as in the rules text's example, every choice made on the box's buttons."""
    table, player = started(box)
    read_peeks(table, player)
    shown = []
    for place in (1, 13, 6, 9, 2):  # board seats as printed, from Bear clockwise
        shown += give(table, player, place - 1)
    assert [words(s) for s in shown] == ["Berlin: full. / Voters: 1 2 3 / Yes Sec+  No Mil- / "]
    assert table.game.decision.kind == "crisis_vote"
    shown = answer_all(table, player, {MEDAL: NO, BEAR: YES, DOLL: YES})
    assert shown[0].big in ("YES YES NO", "YES NO YES", "NO YES YES")  # 5.2: shuffled
    assert "Not unanimous." in shown[1].body
    shown = answer_all(table, player, {MEDAL: RIGHT, BEAR: LEFT, DOLL: LEFT})
    assert shown[0].body == ("Seat 1 purges 3", "Seat 2 purges 3", "Seat 3 purges 1")
    assert shown[1].big == "SEAT 3"  # 5.4: purged by both
    assert (shown[2].body, shown[2].big) == (("Policy: Security",), "REFORM")
    assert table.screen().status == "Ch1 E· M· S+ Coup 1"  # Medal chairs; Security reformed
    shown = answer_all(table, player, {BEAR: GORBACHEV})
    assert (shown[0].body, shown[0].big) == (("Seat 2, Gorbachev:",), "COUP!")
    for choice in (MEDAL, SATELLITE, DONE):
        give(table, player, choice)
    votes = {SATELLITE: YES, FLAG: YES, BEAR: YES, MEDAL: NO, DOLL: NO}
    shown = answer_all(table, player, votes)
    assert [s.big for s in shown] == ["3 YES 2 NO", "FAILED"]
    assert "Coup tokens left: 0" in shown[1].body
    assert table.screen().status.endswith("Coup 0")
    # S5: Gorbachev's coup failed, so Kryuchkov is asked once more, alone.
    assert isinstance(table.mode, Countdown)
    assert table.screen().body[:2] == ("A coup by Kryuchkov?", "Anyone may claim.")
    shown = answer_all(table, player, {FLAG: KRYUCHKOV})
    assert shown[0].body == ("Seat 5, Kryuchkov:",)
    give(table, player, BEAR)
    give(table, player, DONE)
    shown = answer_all(table, player, {}, rest=NO)
    assert [s.big for s in shown] == ["0 YES 5 NO", "USSR FALLS"]  # 6.1
    assert isinstance(table.mode, Over)
    game = table.game
    assert game.result.outcome == "nationalist instant" and game.result.winners == {MEDAL}
    pages = glasnost_ui.final(game.public_view(), translator("en"))
    assert box.board.glass().tobytes() == render(pages[0]).tobytes()
    assert (pages[0].body, pages[0].big) == (("The USSR falls.",), "NATIONALISTS")
    assert pages[1].body[0] == "Winners: 1"
    assert pages[2].body[0] == "1 Yeltsin E- S+" and pages[2].body[1] == "2 Gorbachev E+ M+ S+"


def test_the_hand_over_names_the_crisis_at_stake(box):
    table, player = started(box)
    read_peeks(table, player)
    for place in (1, 13, 6, 9, 2):  # Medal fills the Berlin Wall, and votes first
        give(table, player, place - 1)
    give(table, player, NO)
    assert isinstance(table.mode, Handoff)
    assert table.screen().body[:2] == ("Box to seat 2.", "Vote: Berlin.")
    give(table, player, YES)
    give(table, player, YES)  # Doll, the last voter; the purge begins with Medal
    assert table.screen().body[:2] == ("Box to seat 1.", "Purge at Berlin.")


def test_a_whole_seven_player_game_by_presses_is_the_engines_game(box):
    """The demo's bots on the buttons play exactly the game they play on the engine."""
    run = play(Settings("glasnost", 7, "en"), seed=5, box=box)
    game = run.table.game
    twin = new_game("glasnost", players=7, seed=5)
    play_out(twin, make_bots(twin, "smart", random.Random(5)))
    assert game.over and run.presses > 300
    view = game.public_view()
    assert view == twin.public_view()
    assert game.result == twin.result
    final = glasnost_ui.final(view, translator("en"))[0]
    assert box.board.glass().tobytes() == render(final).tobytes()
    closed = sum(c["closed"] for c in view["crises"])
    assert lit_bar(box) == round(closed * 10 / 12)  # the bar: crises closed out of 12


def test_companion_demo_glasnost_plays_a_game_in_french_and_writes_its_frames(tmp_path, capsys):
    from companion.cli import main

    frames = tmp_path / "frames"
    argv = ["demo", "glasnost", "--players", "4", "--seed", "3", "--lang", "fr"]
    assert main([*argv, "--headless", "--frames", str(frames)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("glasnost: ") and "winners: seats" in out
    assert (frames / "trace.txt").exists() and len(list(frames.glob("frame-*.png"))) > 100


# -- secrecy: swap tests -------------------------------------------------------------------
class Forced:
    """Smart bots, except where ``force(view, decision)`` returns a choice (None: the bot's)."""

    def __init__(self, force):
        self.force = force

    def __call__(self, game, rng):
        bots = make_bots(game, "smart", rng)
        force = self.force

        class Bot:
            def __init__(self, seat):
                self.seat = seat

            def choose(self, view, decision):
                forced = force(view, decision)
                return bots[self.seat].choose(view, decision) if forced is None else forced

        return [Bot(seat) for seat in range(game.players)]


def run_forced(force, players=7, seed=0):
    box = open_box("virtual", clock=VirtualClock())
    try:
        return play(Settings("glasnost", players, "en"), seed=seed, bots=Forced(force), box=box)
    finally:
        box.close()


def first(view, event):
    return not any(h["event"] == event for h in view["history"])


def crisis_votes(cards):
    """The first crisis's first two voters vote ``cards``; the third as its bot does."""

    def force(view, d):
        if d.kind == "crisis_vote" and first(view, "vote"):
            index = view["voters"].index(view["seat"])
            return cards[index] if index < 2 else None
        return None

    return force


def test_swapping_two_crisis_votes_changes_no_frame_blink_beep_or_log_line():
    """5.2: the votes are revealed shuffled, so who voted what is not known."""
    a = run_forced(crisis_votes((YES, NO)))
    b = run_forced(crisis_votes((NO, YES)))
    assert a.frames == b.frames and a.trace == b.trace and a.log == b.log
    assert any("crisis_vote recorded" in line for line in a.log)
    c = run_forced(crisis_votes((YES, YES)))
    assert c.frames != a.frames  # the two runs did differ in what was voted


def coup_votes(cards):
    """At the first coup vote, seats 1 and 2 vote ``cards``; everyone else as their bot does."""

    def force(view, d):
        if d.kind == "coup_vote" and first(view, "coup vote") and view["seat"] < 2:
            return cards[view["seat"]]
        return None

    return force


def test_swapping_two_coup_votes_changes_no_frame_blink_beep_or_log_line():
    """5.5: the coup votes are shuffled before they are revealed."""
    a = run_forced(coup_votes((YES, NO)))
    b = run_forced(coup_votes((NO, YES)))
    assert any("coup_vote recorded" in line for line in a.log)
    assert a.frames == b.frames and a.trace == b.trace and a.log == b.log
    c = run_forced(coup_votes((YES, YES)))
    assert c.frames != a.frames


def coup_check(box, swap=None):
    """The worked example up to its first coup check, Gorbachev's countdown after the Berlin
    purge; with ``swap``, that seat's objective card and Bear's (Gorbachev) trade places
    before the peeks, which changes no public fact."""
    table, player = started(box)
    if swap is not None:
        record = table.game.to_record()
        cards = record["state"]["objectives"]
        cards[BEAR], cards[swap] = cards[swap], cards[BEAR]
        table.game = restore(record)
    read_peeks(table, player)
    for place in (1, 13, 6, 9, 2):
        give(table, player, place - 1)
    answer_all(table, player, {MEDAL: NO, BEAR: YES, DOLL: YES})
    answer_all(table, player, {MEDAL: RIGHT, BEAR: LEFT, DOLL: LEFT})
    assert isinstance(table.mode, Countdown)
    screen = table.screen()
    assert screen.body[:2] == ("A coup by Gorbachev", "or by Kryuchkov?")  # one question
    assert screen.body[2].endswith(" s to claim: OK") and screen.keys == "A leader: press OK"
    return table, player


def claimed(claims, swap=None):
    """Claims on Gorbachev's countdown: what the table saw and heard until just before the
    clock ran out and what the log says until the outcome (the outcome's own lines aside),
    the outcome's screens, the public view after, and the presses made before the outcome."""
    from companion.demo import _Capture

    box = open_box("virtual", clock=VirtualClock())
    logger = logging.getLogger("companion")
    lines = []
    handler = _Capture(lines)
    level = logger.level
    try:
        table, player = coup_check(box, swap)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        frames, start, presses = [], len(box.outputs.trace), player.presses
        box.outputs.frame_sinks.append(lambda _, t: frames.append(box.board.glass().tobytes()))
        for seat, choice in claims:
            claim(table, player, seat, choice)
        while box.clock.now() < table.check.ends - 1.0:
            player.wait(0.5)
        seen = [frames[:], box.outputs.trace[start:]]
        presses = player.presses - presses
        outcome = [(s.body, s.big) for s in wait_out(table, player)]
        seen.append([line for line in lines if not line.startswith("shown:")])
        return seen, outcome, table.game.public_view(), presses
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        box.close()


def test_the_coup_check_is_a_countdown_a_claim_shows_nothing_and_only_the_leader_counts():
    """5.5 as the cards do it: the leader reveals himself for a coup and nobody else answers.
    On the box any seat may claim; until the outcome a claim by the leader and by another seat
    look and sound the same, a failed claim ends exactly as a decline, and no other seat's
    answer causes or stops the leader's coup."""
    coup = claimed([(BEAR, GORBACHEV)])  # Bear holds Gorbachev
    bluff = claimed([(BEAR, GORBACHEV)], swap=SATELLITE)  # now Satellite holds it
    assert coup[0] == bluff[0]  # same frames, blinks and beeps until the outcome
    assert coup[1][0] == (("Seat 2, Gorbachev:",), "COUP!")
    assert bluff[1] == [(("Both leaders:",), "NO COUP")]  # one outcome screen
    declined = claimed([(BEAR, KRYUCHKOV)])  # the leader claims the other's coup: none
    nobody = claimed([])  # nobody claims: the clock runs out
    assert bluff[1:3] == declined[1:3] == nobody[1:3]  # the same outcome and public facts
    assert bluff[0] == declined[0]  # A or B: the same frames, blinks, beeps and log lines
    assert any("seat 2: coup_offer recorded" in line for line in coup[0][2])
    assert nobody[3] == 0  # declining costs the table no press
    assert coup[3] == 4  # OK, Up to seat 2, A, OK: as the README says
    # Nobody else can stop the leader's coup, before or after his claim, nor stage it.
    others = [(MEDAL, KRYUCHKOV), (BEAR, GORBACHEV), (DOLL, KRYUCHKOV)]
    assert claimed(others)[1:3] == coup[1:3]
    assert claimed([(MEDAL, GORBACHEV), (DOLL, KRYUCHKOV)])[1:3] == nobody[1:3]
    control = claimed([(FLAG, KRYUCHKOV)])  # a claim that counts: the outcome differs
    assert control[1][0] == (("Gorbachev:",), "NO COUP") and control[1][1][1] == "COUP!"


def test_both_leaders_claim_rule_5_5s_first_goes_first_and_the_other_is_asked_once_more():
    """5.5: after a reform Gorbachev is asked first, so his coup comes first whoever claimed
    first; when it fails, Kryuchkov gets one more countdown, alone (A: his coup, B: none)."""
    box = open_box("virtual", clock=VirtualClock())
    try:
        table, player = coup_check(box)
        claim(table, player, FLAG, KRYUCHKOV)  # Kryuchkov claims first
        claim(table, player, BEAR, GORBACHEV)
        shown = wait_out(table, player)
        assert [(s.body, s.big) for s in shown] == [(("Seat 2, Gorbachev:",), "COUP!")]
        give(table, player, DONE)
        answer_all(table, player, {}, rest=NO)  # the coup fails
        assert isinstance(table.mode, Countdown)
        assert table.screen().body[:2] == ("A coup by Kryuchkov?", "Anyone may claim.")
        player.press("ok")
        assert table.screen().body[:2] == ("A: Kryuchkov's coup", "B: No")
        player.press("back")
        shown = wait_out(table, player)  # nobody claims: the game goes on
        assert [(s.body, s.big) for s in shown] == [(("Kryuchkov:",), "NO COUP")]
        assert table.game.decision.kind == "sit"
    finally:
        box.close()


def test_every_press_a_claim_screen_does_not_take_says_why_and_changes_nothing_else():
    """On the countdown, the seat's screen and the chosen screen, each of the box's buttons
    either moves the claim on or says on the keys line why it did nothing; the words depend
    only on the button and the screen."""
    box = open_box("virtual", clock=VirtualClock())
    try:
        table, player = coup_check(box)
        ignored = {
            Countdown: {
                "up": "To claim: OK first",
                "down": "To claim: OK first",
                "choice_a": "A/B: OK, seat first",
                "choice_b": "A/B: OK, seat first",
                "peek": "No card to show here",
                "back": "No claim to undo",
            },
            "seat": {"ok": "Answer with A or B", "peek": "No card to show here"},
            "chosen": {
                "up": "Back to change seat",
                "down": "Back to change seat",
                "peek": "No card to show here",
            },
        }
        for screen, lines in ignored.items():
            if screen == "seat":
                player.press("ok")
                player.press("up")  # seat 2
            elif screen == "chosen":
                player.press("choice_b")
            mode = table.mode
            before = table.screen()
            for button, why in lines.items():
                player.press(button)
                assert table.mode is mode, (screen, button)  # nothing moved on
                shown = table.screen()
                assert shown.keys == why, (screen, button)
                assert shown.body[:2] == before.body[:2]  # the countdown's clock goes on
                assert table.check.claims == {}
            player.wait(0.5)  # the clock goes on; the next press that acts clears the line
        assert isinstance(table.mode, Claim) and table.mode.at == BEAR
        player.press("ok")
        assert isinstance(table.mode, Countdown) and table.screen().keys == "A leader: press OK"
        assert table.check.claims == {BEAR: KRYUCHKOV}
    finally:
        box.close()


def seconds_left(table):
    """The countdown's clock, seconds left; its screen shows them rounded up."""
    left = table.check.ends - table.box.clock.now()
    if isinstance(table.mode, Countdown):
        assert table.screen().body[2] == f"{math.ceil(left)} s to claim: OK"
    return left


@pytest.mark.parametrize("over", ["notice", "abandon?", "a claim, then a notice"])
def test_the_countdown_is_frozen_under_a_notice_and_under_abandon(over):
    """While the box shows something else over the countdown, nobody can claim: its clock
    stops there and goes on from where it was, and the question is never settled unseen."""
    box = open_box("virtual", clock=VirtualClock())
    try:
        table, player = coup_check(box)
        player.wait(3.0)
        if over == "a claim, then a notice":
            player.press("ok")  # a claim begun: its seat screen runs on the same clock
        before, behind = table.game.public_view(), table.mode
        if over == "abandon?":
            player.press("back", hold=2.0)  # the clock runs while Back is only held down
            assert isinstance(table.mode, Abandon)
        else:
            table.warn("Journal", ["The journal cannot be written."])  # as its news come
            assert isinstance(table.mode, Notice)
        left = seconds_left(table)
        player.wait(60.0)  # far longer than the countdown
        assert table.game.public_view() == before and table.game.decision.kind == "coup_offer"
        player.press("back" if over == "abandon?" else "ok")  # carry on
        assert table.mode == behind
        if over == "a claim, then a notice":
            player.press("back")  # the claim walked back
        assert isinstance(table.mode, Countdown)
        assert left - 1.0 < seconds_left(table) <= left  # what it had, less the presses
        player.wait(seconds_left(table) - 0.2)
        assert isinstance(table.mode, Countdown)  # all the time it had left
        wait_out(table, player)
        assert table.game.public_view() != before  # then settled, as any countdown
    finally:
        box.close()


def test_abandoning_a_game_on_its_countdown_ends_the_countdown():
    box = open_box("virtual", clock=VirtualClock())
    try:
        table, player = coup_check(box)
        player.press("back", hold=2.0)
        player.press("ok")  # abandon it
        assert isinstance(table.mode, Setup) and not table.check.running
        player.wait(60.0)  # nothing is played for a game that is gone
        assert isinstance(table.mode, Setup) and table.game is None
    finally:
        box.close()


def test_the_countdown_lasts_the_tables_setting(box):
    """S5: 8 seconds unless the setup's "Coup check" row says otherwise."""
    t = translator("en")
    assert glasnost_ui.SETTINGS["countdown"] == ("8", "10", "15", "20", "5")  # Up: longer
    assert glasnost_ui.setting_label("countdown", t) == "Coup check"
    assert glasnost_ui.setting_value("countdown", "8", t) == "8 s"
    waited = {}  # seconds left when it shows, still running just before, over just after
    for seconds in ("8", "15"):
        b = open_box("virtual", clock=VirtualClock())
        try:
            table, player = started(b, options={"crises": "fixed", "countdown": seconds})
            read_peeks(table, player)
            for place in (1, 13, 6, 9, 2):
                give(table, player, place - 1)
            answer_all(table, player, {MEDAL: YES, BEAR: YES, DOLL: YES})
            assert isinstance(table.mode, Countdown)
            assert table.screen().body[2] == f"{seconds} s to claim: OK"
            left = table.check.ends - b.clock.now()
            player.wait(left - 0.1)
            still = isinstance(table.mode, Countdown)
            player.wait(0.2)
            waited[seconds] = (round(left), still, isinstance(table.mode, Countdown))
        finally:
            b.close()
    assert waited == {"8": (8, True, False), "15": (15, True, False)}


def test_a_six_player_bot_game_runs_one_countdown_a_policy_change_and_one_a_failed_coup(
    monkeypatch,
):
    """S5: one countdown after each policy change (not one a leader), and one more after
    each failed coup; counted as the table runs them."""
    from companion.table.countdown import ClaimDesk

    started_at = []
    ask = ClaimDesk.ask

    def counting(self, d, free):
        mode = ask(self, d, free)
        if mode is not None:
            started_at.append(self.port.box.clock.now())
        return mode

    monkeypatch.setattr(ClaimDesk, "ask", counting)
    box = open_box("virtual", clock=VirtualClock())
    try:
        run = play(Settings("glasnost", 6, "en"), seed=0, box=box)
    finally:
        box.close()
    history = run.table.game.public_view()["history"]
    changes = sum(
        (h["event"] == "vote" and h["yes"] in (0, len(h["voters"])))
        or (h["event"] == "purge" and h["purged"] is not None)
        for h in history
    )
    failed = sum(h["event"] == "coup vote" and not h["success"] for h in history)
    assert failed == 1 and changes >= 8  # seed 0: a failed coup among many changes
    # Every question the engine asked ran one countdown; no policy change ran two.
    questions = sum(h["event"] == "coup" for h in history) + sum(
        h["event"] == "declined" and (i == 0 or history[i - 1]["event"] != "declined")
        for i, h in enumerate(history)
    )
    assert len(started_at) == questions <= changes + failed


def test_a_claim_can_be_taken_back_before_its_ok():
    """Back walks a claim back, step by step, to the countdown; nothing is recorded."""
    box = open_box("virtual", clock=VirtualClock())
    try:
        table, player = coup_check(box)
        player.press("ok")
        player.press("up")
        player.press("choice_a")
        assert table.screen().body[0] == "Seat 2: chosen."
        for _ in range(2):
            player.press("back")
        assert isinstance(table.mode, Countdown) and table.check.claims == {}
        assert next((s.body, s.big) for s in wait_out(table, player))[1] == "NO COUP"
    finally:
        box.close()


def test_peek_held_on_a_claim_shows_no_seats_card():
    """A claimant names its seat on the box: holding PEEK on the claim's A/B screen must not
    show that seat's objective (anyone could name any seat)."""
    box = open_box("virtual", clock=VirtualClock())
    try:
        table, player = coup_check(box)
        player.press("ok")
        player.press("up")  # "I am seat 2"
        for answer in (None, "choice_b"):  # on the seat's screen, then once B is chosen
            if answer:
                player.press(answer)
            before = table.screen()
            box.virtual_board.drive("peek", True)
            player.wait(0.2)
            held = table.screen()
            assert (held.status, held.body) == (before.status, before.body)
            assert held.keys == "No card to show here"  # said, and nothing else changes
            box.virtual_board.drive("peek", False)
            player.wait(0.2)
            assert (table.screen().status, table.screen().body) == (before.status, before.body)
    finally:
        box.close()


def test_every_secret_choice_gets_the_same_feedback(box):
    """A then OK and B then OK leave the same blink and beep, to the millisecond."""

    def secret_choice(button):
        b = open_box("virtual", clock=VirtualClock())
        table, player = started(b)
        read_peeks(table, player)
        for place in (1, 13, 6, 9, 2):
            give(table, player, place - 1)
        take(table, player)
        start = len(b.outputs.trace)
        player.press(button)
        player.press("ok")
        trace, frame = b.outputs.trace[start:], b.board.glass().tobytes()
        b.close()
        return trace, frame

    yes, no = secret_choice("choice_a"), secret_choice("choice_b")
    assert yes == no
    assert any("buzzer 1" in line for line in yes[0])


# -- the chairman's seat, refusals, peeks, undo -------------------------------------------------
def refusal(table):
    shown = table.screen()
    assert shown.status == "Not allowed"
    return " ".join(shown.body)


def cursor_to(table, player, option):
    take(table, player)
    target = table.mode.options.index(option)
    while table.mode.at != target:
        player.press("up" if table.mode.at < target else "down")


def test_the_chairman_picks_a_printed_board_seat_and_sees_its_crises(box):
    table, player = started(box)
    read_peeks(table, player)
    player.press("ok")  # Bear, the chairman, takes the box
    assert isinstance(table.mode, Cursor)
    # 18 legal seats: every board seat but 18 and 20, which go with 17 and 19 (5.1).
    legal = [p for p in range(20) if p not in (17, 19)]
    assert list(table.mode.options) == legal == list(table.game.decision.options)
    # The cursor starts in the middle of them, on a legal seat.
    assert table.screen().body == ("Seat 2, chairman:", "Cuba+Baltic Way", "▲ board seat 9 ▼")
    cursor_to(table, player, 16)  # a connected pair: Hungary, and Afghanistan across the board
    assert table.screen().body[1:] == ("Hungary+Afghanistan", "▲ board seats 17+18 ▼")


def test_the_seat_cursor_runs_through_legal_seats_only_any_within_half_of_them(box):
    """5.1: a seat the rules forbid is never on the cursor, so never refused; Up and Down
    reach any legal seat in at most half as many presses as there are legal seats."""
    table, player = started(box)
    read_peeks(table, player)
    give(table, player, 0)  # Bear at board seat 1 (Hungary, Berlin)
    take(table, player)  # Doll, the next chairman
    options = table.mode.options
    assert options == table.game.decision.options
    # Board seat 1 is taken; 18 goes with 17; nothing else of the 20 is forbidden yet.
    assert options == tuple(p for p in range(20) if p not in (0, 17, 19))
    start = table.mode.at
    assert max(start, len(options) - 1 - start) <= len(options) / 2
    for _ in range(start):
        player.press("down")
    assert table.screen().body[-1] == "▲ board seat 2 ▼"
    player.press("down")  # past the first: wraps round to the last, as every cursor does
    assert table.screen().body[-1] == "▲ board seats 19+20 ▼"
    player.press("up")
    labels = []
    for _ in range(len(options)):  # Up runs through every legal seat, once, and back
        player.press("up")
        assert isinstance(table.mode, Cursor)
        labels.append(table.screen().body[-1])
    assert labels[-1] == "▲ board seat 2 ▼" and len(set(labels)) == len(options)
    assert "▲ board seat 1 ▼" not in labels and "▲ board seat 18 ▼" not in labels
    player.press("down")  # back round to the last
    player.press("ok")
    assert [h["event"] for h in table.game.public_view()["history"]] == ["sit", "sit"]
    assert table.game.public_view()["board_seats"][18]["owner"] == DOLL


def test_an_illegal_seat_from_outside_the_cursor_is_still_refused_with_rule_5_1(box):
    """A choice that does not come from the cursor (a phone's, say) is refused on screen."""
    for lang, why in (
        ("en", "5.1: board seat 18 goes with 17: choose 17 to take both."),
        ("fr", "5.1 : la place 18 va avec la 17 : prenez la 17 pour les deux."),
    ):
        b = open_box("virtual", clock=VirtualClock())
        try:
            table, player = started(b, lang=lang)
            read_peeks(table, player)
            take(table, player)
            assert table.answer(table.decision().seats[0], 17, table.buttons) is not None
            player.wait(GAP)
            assert table.screen().status == translator(lang)("Not allowed")
            assert " ".join(table.screen().body) == why
            assert overflow(table.screen()) == []
            player.press("ok")  # dismissed; the chairman chooses again
            assert isinstance(table.mode, Cursor) and table.game.public_view()["history"] == []
        finally:
            b.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_shuffled_crises_are_laid_out_first_a_screen_a_card_by_the_boards_seat_numbers(lang):
    """3.2: before the first turn the box says which crisis card goes on which space, the
    space named by the numbers printed at its three board seats, the card as the board and
    its drawing name it."""
    from companion.games.glasnost.board import BOARD, parse_board
    from companion.games.glasnost.board_svg import board_svg

    svg = board_svg(parse_board(BOARD))
    b = open_box("virtual", clock=VirtualClock())
    try:
        table, player = started(b, lang=lang, options={"crises": "shuffled"})
        view = table.game.public_view()
        shown = []
        while isinstance(table.mode, Announce):
            shown.append(table.screen())
            assert b.board.glass().tobytes() == render(shown[-1]).tobytes()
            player.press("ok")
        assert isinstance(table.mode, Handoff) and table.game.decision.kind == "peek"
    finally:
        b.close()
    t = translator(lang)
    assert len(shown) == 12
    for k, (screen, crisis) in enumerate(zip(shown, view["crises"], strict=True)):
        assert screen.status == t("Crisis card {k} of {n}").format(k=k + 1, n=12)
        text = " ".join(screen.body)
        assert crisis["name"] in text and f">{crisis['name']}<" in svg.replace("&amp;", "&")
        seats = [str(view["board_seats"][q]["id"]) for q in crisis["board_seats"]]
        assert text.endswith(" ".join(seats))
        assert overflow(screen) == []
    assert any("Solidarność" in " ".join(s.body) for s in shown)
    # Shuffled: the cards are not in the board's order.
    assert [c["name"] for c in view["crises"]] != [c["name"] for c in BOARD["crises"]]


def test_short_crisis_names_are_words_of_the_boards_own_names_in_every_language():
    t = translator("fr")
    for name, short in glasnost_ui.SHORT.items():
        assert short.lower() in name.lower()
        assert glasnost_ui.crisis_name(name, t) == short
    assert glasnost_ui.crisis_names(["Solidarność", "Afghanistan"]) == "Solidarność+Afghanis."
    assert glasnost_ui.crisis_names(["Hungary", "Berlin"]) == "Hungary+Berlin"


def test_the_box_names_a_crisis_in_the_tables_language_where_the_board_does():
    crisis = {"name": "The Kronstadt rebellion", "names": {"fr": "Kronstadt 1921"}}
    assert glasnost_ui.crisis_short(crisis, translator("fr")) == "Kronstadt 1"  # cut to fit
    assert glasnost_ui.crisis_short(crisis, translator("en")) == "Kronstadt r"
    bundled = {"name": "Hungary 1956", "names": {}}
    assert glasnost_ui.crisis_short(bundled, translator("fr")) == "Hungary"


def engine_refusals():
    """Every refusal message the engine gives in random games, for every illegal seat and name."""
    from companion.games import IllegalMove, restore

    messages = {}
    for players, seed in ((4, 1), (6, 2), (12, 3)):
        game = new_game("glasnost", players=players, seed=seed)
        rng = random.Random(seed)
        while (d := game.decision) is not None:
            if d.kind in ("sit", "coup_name"):
                view = game.public_view()
                every = range(20) if d.kind == "sit" else glasnost_ui.candidates(d, view)
                for option in every:
                    if option in d.options:
                        continue
                    probe = restore(game.to_record())
                    with pytest.raises(IllegalMove) as refused:
                        probe.act(d.seats[0], option)
                    messages[str(refused.value)] = refused.value
            choice = d.options[0] if d.kind == "coup_offer" and rng.random() < 0.3 else None
            game.act(d.seats[0], choice or rng.choice(d.options))
    return list(messages.values())


def test_refusal_texts_match_every_engine_message_and_fit():
    """Each 5.1, S5 and S6 refusal of the engine has its own short text, in both languages."""
    seen = engine_refusals()
    assert {m.rule for m in seen} >= {"5.1", "S5"}
    game = new_game("glasnost", players=12, seed=1)
    messages = [
        *seen,
        game.refused("partner", place=18, partner=17),
        game.refused("face_up", place=5),
        game.refused("voted", place=12),
        game.refused("token_at", seat=12, crisis="The Baltic Way", space=10),
        game.refused("no_tokens", seat=12),
        game.refused("name_self"),
        game.refused("named", seat=12),
    ]
    for lang in ("en", "fr"):
        t = translator(lang)
        for message in messages:
            text = glasnost_ui.refusal(message, t)
            assert text != str(message) and re.match(r"(5\.1|S5|S6)", text), text
            assert text.startswith(message.rule)
            assert len(wrap(text)) <= 3, (lang, text)


def test_refusals_reach_the_screen_for_coup_naming(box):
    """S5: the leader names others, never themself, and nobody twice."""
    table, player = started(box)
    read_peeks(table, player)
    for place in (1, 13, 6, 9, 2):
        give(table, player, place - 1)
    answer_all(table, player, {MEDAL: YES, BEAR: YES, DOLL: YES})
    answer_all(table, player, {BEAR: GORBACHEV})
    assert table.game.decision.kind == "coup_name"
    cursor_to(table, player, BEAR)
    player.press("ok")
    assert refusal(table) == "S5: the leader names the others in the coup, not themself."
    player.press("ok")
    give(table, player, DOLL)
    assert table.screen().body[1] == "coup with: 3"
    cursor_to(table, player, DOLL)
    player.press("ok")
    assert refusal(table) == "S5: seat 3 is already in the coup."
    player.press("ok")
    player.press("back")  # an open choice: undone
    assert table.game.public_view()["named"] == []
    assert table.screen().body[1] == "coup with: nobody"


def test_the_objective_card_shows_only_while_peek_is_held(box):
    """3.7: each seat reads its own card, privately."""
    table, player = started(box)
    player.press("ok")
    assert isinstance(table.mode, Peek)
    hidden = box.board.glass().tobytes()
    box.board.drive("peek", True)
    player.wait(0.2)
    assert table.game.view(MEDAL)["objective"]["name"] == "Yeltsin"
    shown = table.screen()
    assert shown.status == "Yeltsin"
    assert shown.body == ("Nationalist", "Reform Security", "Repress Economy")
    box.board.drive("peek", False)
    player.wait(0.2)
    assert box.board.glass().tobytes() == hidden


def test_status_line_and_bar_follow_the_policies_coup_tokens_and_closed_crises():
    t = translator("en")
    # A plain copy of the frozen view, to set the policies and close crises by hand.
    view = json.loads(json.dumps(new_game("glasnost", players=10, seed=1).public_view()))
    chairman = view["chairman"] + 1
    assert glasnost_ui.status(view, t) == f"Ch{chairman} E· M· S· Coup 5"
    view["policies"] = {"economy": "reform", "military": "repress", "security": None}
    assert glasnost_ui.status(view, t) == f"Ch{chairman} E+ M- S· Coup 5"
    assert glasnost_ui.bar(view) == 0
    for c in view["crises"][:6]:
        c["closed"] = True
    assert glasnost_ui.bar(view) == 5
    for c in view["crises"]:
        c["closed"] = True
    assert glasnost_ui.bar(view) == 10


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("players", [4, 8, 12])
def test_every_screen_fits_and_says_who_and_what(lang, players, shown_screens):
    shown = shown_screens
    box = open_box("virtual", clock=VirtualClock())
    try:
        run = play(Settings("glasnost", players, lang), seed=players, box=box)
    finally:
        box.close()
    t = translator(lang)
    final = glasnost_ui.final(run.table.game.public_view(), t)
    walked = [*shown, *(("over", page) for page in final)]
    must = ("peek", "choose", "confirm", "cursor", "announce", "over")
    counted = every_screen_fits_and_says_who(
        walked, players, must, names_seat=lambda screen: screen.keys != t("Release to hide")
    )
    assert counted["named"] >= players


# -- reference screens -----------------------------------------------------------------
def screens_to_check(lang):
    """A few screens of the worked example, as the panel shows them."""
    box = open_box("virtual", clock=VirtualClock())
    try:
        started(box, lang=lang, options={"crises": "shuffled"})
        shots = {"crises": box.board.glass()}  # where the first crisis card goes
    finally:
        box.close()
    box = open_box("virtual", clock=VirtualClock())
    try:
        table, player = started(box, lang=lang)
        shots["handoff"] = box.board.glass()
        take(table, player)
        box.board.drive("peek", True)
        player.wait(0.2)
        shots["peek"] = box.board.glass()
        box.board.drive("peek", False)
        player.wait(0.2)
        player.press("ok")
        read_peeks(table, player)
        take(table, player)
        cursor_to(table, player, 16)
        shots["sit"] = box.board.glass()
        for place in (1, 13, 6, 9):
            give(table, player, place - 1)
        take(table, player)
        player.answer(1)  # Medal fills the Berlin Wall
        shots["called"] = box.board.glass()
        player.press("ok")
        take(table, player)
        shots["vote"] = box.board.glass()
        answer_all(table, player, {MEDAL: NO, BEAR: YES, DOLL: YES})
        take(table, player)
        shots["purge"] = box.board.glass()
        answer_all(table, player, {MEDAL: RIGHT, BEAR: LEFT, DOLL: LEFT})
        take(table, player)
        shots["question"] = box.board.glass()  # the countdown
        player.press("ok")
        player.press("up")
        shots["claim"] = box.board.glass()  # Bear claims
        for button in ("choice_a", "ok"):
            player.press(button)
        wait_out(table, player)
        take(table, player)
        shots["name"] = box.board.glass()
        return shots
    finally:
        box.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_screens_match_the_reference_pictures(lang):
    """Drawn through luma's real driver and read back from the panel's RAM."""
    match_references("glasnost", lang, screens_to_check(lang))


def test_a_power_cut_while_the_crisis_cards_are_laid_out_shows_the_rest_again(tmp_path):
    """The journal keeps the layout screens still to read, as it keeps a reveal's."""
    from companion.store import Journal

    path = tmp_path / "journal.sqlite"
    box = open_box("virtual", clock=VirtualClock())
    table = Table(box, seed=7, journal=Journal(path))
    table.start(Settings("glasnost", 6, "en", {"crises": "shuffled"}))
    player = Player(box, table, box.clock)
    player.wait(GAP)
    layout = table.mode.screens
    assert len(layout) == 12
    player.press("ok")
    player.press("ok")  # two cards laid out; the plug is pulled
    box.close()
    box2 = open_box("virtual", clock=VirtualClock())
    try:
        again = Table(box2, seed=99, journal=Journal(path))
        assert again.resume()
        assert isinstance(again.mode, Announce) and again.mode.screens == layout[2:]
        assert again.game.public_view()["crises"] == table.game.public_view()["crises"]
    finally:
        box2.close()
