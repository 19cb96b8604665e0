"""Gulag at the table: the box in the middle, played only by pressing its buttons."""

import random

import pytest

from companion.bots import RandomBot, make_bots
from companion.box import VirtualClock, open_box
from companion.demo import Player, play
from companion.games.gulag import screens as gulag_ui
from companion.games.gulag.rules import BLACK, RED, STRIKE, WORK, end_table
from companion.table import Settings, Table
from companion.table.modes import (
    Announce,
    Choose,
    Confirm,
    Cursor,
    Handoff,
    Notice,
    Over,
    Peek,
    Setup,
)
from companion.ui.canvas import overflow, render
from companion.ui.i18n import translator
from tests.tables import every_screen_fits_and_says_who, lit_bar, match_references, started


def test_a_whole_seven_player_game_by_button_presses_only(box):
    run = play(Settings("gulag", 7, "en"), seed=5, box=box)
    game = run.table.game
    assert game.over and run.presses > 100
    view = game.public_view()
    assert len(view["history"]) == 7
    # The final screen is the result screen, as the panel shows it.
    final = gulag_ui.final(view, translator("en"))[0]
    assert box.board.glass().tobytes() == render(final).tobytes()
    # The canal is on the LED bar, as the printed score track: one LED a Work card.
    assert lit_bar(box) == min(view["canal"], 10)
    # The winners are the game's, and agree with the end table.
    roles = view["roles"]
    side = end_table(roles.count(RED), roles.count(BLACK), view["canal"])
    assert game.result.winners == {i for i, r in enumerate(roles) if r == side}


NAMES = ("Anna", "Élodie", "Борис", "Zoë", "Jean-Luc", "Ольга", "Mei")


class ForcedWorkers:
    """Random bots, except that in turn 1 the two workers play the given cards.

    The supervisor orders no swap that turn: a swap would turn the two runs'
    different cards into different public results, as the rules intend.
    """

    def __init__(self, cards, seed):
        self.cards = cards
        self.rng = random.Random(seed)

    def __call__(self, game, rng):
        outer = self

        class Bot:
            def choose(self, view, decision):
                if decision.kind == "task" and view["turn"] == 1:
                    return outer.cards[view["workers"].index(view["seat"])]
                if decision.kind == "supervise" and view["turn"] == 1:
                    return "none"
                return RandomBot(outer.rng).choose(view, decision)

        return [Bot() for _ in range(game.players)]


def test_swapping_two_workers_cards_changes_no_frame_blink_beep_or_log_line():
    def run(cards):
        box = open_box("virtual", clock=VirtualClock())
        try:
            bots = ForcedWorkers(cards, 4)
            return play(Settings("gulag", 7, "en"), seed=9, bots=bots, box=box, names=NAMES)
        finally:
            box.close()

    a = run((WORK, STRIKE))
    b = run((STRIKE, WORK))
    assert a.frames == b.frames
    assert a.trace == b.trace
    assert a.log == b.log
    assert any("task recorded" in line for line in a.log)
    assert sorted(a.table.record.names.seats.values()) == sorted(NAMES)  # every seat was named ...
    assert not any(name in line for line in a.log for name in NAMES)  # ... and none is logged
    # ... and the two games really did differ in who played what.
    c = run((WORK, WORK))
    assert c.frames != a.frames


def test_every_choice_gets_the_same_feedback(box):
    """A then OK and B then OK leave the same blink and beep, to the millisecond."""

    def secret_choice(button):
        b = open_box("virtual", clock=VirtualClock())
        _, player = started(b, Settings("gulag", 5, "en", {"deal": "cards"}), 1)
        player.press("ok")  # the commissar takes the box
        for seat in (1, 2, 3):
            player.answer(seat)
        player.press("ok")  # seat 2 takes the box
        start = len(b.outputs.trace)
        player.press(button)
        player.press("ok")
        trace = b.outputs.trace[start:]
        b.close()
        return trace

    work, strike = secret_choice("choice_a"), secret_choice("choice_b")
    assert work == strike
    assert any("buzzer 1" in line for line in work)
    assert any("status_a 1.0" in line for line in work)


def table_at_first_pick(box, players=7):
    table, player = started(box, Settings("gulag", players, "en", {"deal": "cards"}), 2)
    player.press("ok")  # seat 1, the commissar, takes the box
    assert isinstance(table.mode, Cursor)
    return table, player


def table_at_supervision(box, card):
    """The first team picked (seats 2 to 4), both workers have played ``card``, and the
    supervisor has taken the box."""
    table, player = table_at_first_pick(box)
    for seat in (1, 2, 3):
        player.answer(seat)
    for _ in range(2):
        player.press("ok")
        player.answer(card)
    player.press("ok")
    return table, player


def test_the_cursor_offers_legal_seats_first_and_wraps_one_way_for_every_cursor(box):
    table, player = table_at_first_pick(box)
    # Seats 2 to 7 first (the cursor starts on seat 2), the commissar only after them.
    assert table.mode.options == (1, 2, 3, 4, 5, 6, 0) and table.mode.at == 0
    assert table.screen().body[-1] == "▲ seat 2 ▼"
    player.press("up")  # Up is the next value, as on the setup rows and the claims
    assert table.screen().body[-1] == "▲ seat 3 ▼"
    player.press("down")
    player.press("down")  # past the start: wraps round to the last
    assert table.screen().body[-1] == "▲ seat 1 ▼"  # still reachable, to hear why not
    player.press("ok")
    shown = table.screen()
    assert shown.status == "Not allowed"
    assert "G3: the commissar never selects themself" in " ".join(shown.body)
    assert table.game.public_view()["workers"] == []
    player.press("ok")  # dismiss
    assert table.screen().status.startswith("Turn 1/7")


def test_the_team_pick_shows_the_picks_so_far_and_starts_on_the_first_free_seat(box):
    table, player = table_at_first_pick(box)
    player.answer(3)
    assert table.screen().body[:2] == ("Seat 1, commissar:", "4 and worker 2?")
    assert table.mode.options[:2] == (1, 2) and 3 not in table.mode.options[:5]
    player.answer(1)
    assert table.screen().body[:2] == ("Seat 1, commissar:", "4 2 and supervisor?")
    assert table.screen().body[-1] == "▲ seat 3 ▼"
    player.press("back")  # the same default after Back: the first seat free
    assert table.game.public_view()["workers"] == [3]
    assert table.screen().body[-1] == "▲ seat 2 ▼"


def test_a_refusal_stays_until_ok_and_that_ok_does_nothing_else(box):
    """The trap: Back at "worker 1?", wait past the old 3 s, press OK to dismiss."""
    table, player = table_at_first_pick(box)
    player.press("back")
    assert table.screen().status == "Not allowed"
    player.wait(10.0)
    assert table.screen().status == "Not allowed"  # still there
    player.press("ok")  # dismisses, and picks nobody
    assert table.game.public_view()["workers"] == []
    assert isinstance(table.mode, Cursor) and table.screen().body[1] == "worker 1?"
    for button in ("choice_a", "down", "peek", "back"):  # only OK dismisses: they say so
        player.press("back")
        refusal = table.screen()
        player.press(button)
        assert isinstance(table.mode, Notice) and table.screen().keys == "OK to go on"
        assert table.screen().body == refusal.body
        player.press("ok")
        assert isinstance(table.mode, Cursor) and table.mode.at == 0


def test_a_long_refusal_is_shown_whole_naming_the_rule_and_the_seat(box):
    """G4, 7 players: two of the three selected must be new; the last team is offered last."""
    table, player = table_at_supervision(box, WORK)
    player.answer("none")
    while isinstance(table.mode, Announce | Handoff):
        player.press("ok")  # seat 2 is the commissar of turn 2
    player.answer(2)  # seat 3, of the last team: now the other two must be new
    assert table.screen().body[1] == "3 and worker 2?"
    assert table.mode.options == (0, 4, 5, 6, 1, 2, 3)  # the new seats first
    player.answer(3)  # seat 4, of the last team too: G4
    pages = []
    while isinstance(table.mode, Notice):
        pages.append(table.screen())
        player.press("ok")
    text = " ".join(line for page in pages for line in page.body)
    assert "G4" in text and "seat 4" in text
    assert all(overflow(page) == [] for page in pages)


def test_back_undoes_an_open_pick_but_never_a_secret_card(box):
    table, player = table_at_first_pick(box)
    player.answer(1)
    player.answer(2)
    assert table.game.public_view()["workers"] == [1, 2]
    player.press("back")
    assert table.game.public_view()["workers"] == [1]
    player.answer(2)
    player.answer(3)
    for _ in range(2):  # both workers play, each after taking the box
        player.press("ok")
        player.answer(WORK)
    player.press("ok")  # the supervisor takes the box
    assert table.game.decision.kind == "supervise"
    player.press("back")
    assert table.screen().status == "Not allowed"
    assert "Nothing to undo" in " ".join(table.screen().body)
    assert table.game.decision.kind == "supervise"


def test_back_before_ok_lets_a_worker_choose_again(box):
    table, player = table_at_first_pick(box)
    for seat in (1, 2, 3):
        player.answer(seat)
    player.press("ok")
    player.press("choice_a")
    assert isinstance(table.mode, Confirm)
    player.press("back")
    assert isinstance(table.mode, Choose) and table.game.decision.seats == (1, 2)
    player.press("choice_b")
    player.press("ok")
    assert table.game.decision.seats == (2,)


def test_a_double_press_cannot_skip_the_next_screen(box):
    table, player = table_at_supervision(box, STRIKE)
    player.answer(1)  # order seat 2 to swap: two announcements follow
    assert isinstance(table.mode, Announce) and len(table.mode.screens) == 2
    board = box.board
    board.drive("ok", True)
    player.wait(0.05)
    board.drive("ok", False)
    player.wait(0.05)
    board.drive("ok", True)  # a second press 0.1 s later: meant for nothing
    player.wait(0.05)
    board.drive("ok", False)
    player.wait(0.5)
    assert isinstance(table.mode, Announce) and len(table.mode.screens) == 1
    assert table.screen().big == "Canal ↑1"


def test_peek_shows_the_right_neighbours_card_only_while_held(box):
    table, player = started(box, Settings("gulag", 6, "en"), 3)
    player.press("ok")
    assert isinstance(table.mode, Peek)
    hidden = box.board.glass().tobytes()
    box.board.drive("peek", True)
    player.wait(0.2)
    card = table.game.view(0)["right_card"]
    assert table.screen().big == ("RED" if card == RED else "BLACK")
    assert table.screen().body == ("Seat 6 is",)
    box.board.drive("peek", False)
    player.wait(0.2)
    assert box.board.glass().tobytes() == hidden


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("players", "deal"), [(5, "box"), (8, "cards"), (10, "box")])
def test_every_screen_fits_and_says_who_and_what(lang, players, deal, shown_screens):
    shown = shown_screens
    box = open_box("virtual", clock=VirtualClock())
    try:
        play(Settings("gulag", players, lang, {"deal": deal}), seed=players, box=box)
    finally:
        box.close()
    must = ("handoff", "choose", "confirm", "cursor", "announce", "over")
    must += ("peek",) if deal == "box" else ()  # real cards: each seat looks at its own
    counted = every_screen_fits_and_says_who(shown, players, must)
    assert counted["named"] >= players  # each seat's first look, at least


# -- reference screens -----------------------------------------------------------------


def screens_to_check(lang):
    """A few screens of a seeded game, as the panel shows them."""
    box = open_box("virtual", clock=VirtualClock())
    try:
        table = Table(box, seed=11, lang=lang)
        player = Player(box, table, box.clock)
        table.step()
        shots = {"setup": box.board.glass()}
        player.setup(Settings("gulag", 7, lang))
        shots["handoff"] = box.board.glass()
        player.press("ok")
        player.press("peek", hold=0.3)
        box.board.drive("peek", True)
        player.wait(0.2)
        shots["peek"] = box.board.glass()
        box.board.drive("peek", False)
        player.wait(0.2)
        bots = make_bots(table.game, "smart", random.Random(1))
        while table.game.decision.kind != "task" or not isinstance(table.mode, Choose):
            if isinstance(table.mode, Handoff | Announce):
                player.press("ok")
                continue
            if isinstance(table.mode, Cursor) and "pick" not in shots:
                shots["pick"] = box.board.glass()
            player.answer_as(bots)
        shots["task"] = box.board.glass()
        player.press("choice_a")
        shots["confirm"] = box.board.glass()
        return shots
    finally:
        box.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_screens_match_the_reference_pictures(lang):
    """Drawn through luma's real driver and read back from the panel's RAM."""
    match_references("gulag", lang, screens_to_check(lang))


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(
    ("roles", "canal"),
    [
        (["red"] * 5 + ["black"] * 5, 11),  # built
        (["red"] * 5 + ["black"] * 5, 9),  # abolished
        (["red"] * 5 + ["black"] * 5, 10),  # late: a draw
        (["red"] * 2 + ["black"] * 3, 4),  # the minority wins
        (["black"] * 5, 0),  # no red worker at all (G7: the formula still holds)
    ],
)
def test_every_ending_fits_the_screen(lang, roles, canal):
    outcome = end_table(roles.count(RED), roles.count(BLACK), canal)
    winners = [i for i, r in enumerate(roles) if r == outcome]
    view = {"roles": roles, "canal": canal, "result": {"outcome": outcome, "winners": winners}}
    for screen in gulag_ui.final(view, translator(lang)):
        assert overflow(screen) == [], screen


def test_a_new_game_needs_ok_held_not_pressed(box):
    run = play(Settings("gulag", 5, "en"), seed=8, box=box)
    table = run.table
    player = Player(box, table, box.clock)
    player.press("ok")  # a press is not enough for something that ends the game on screen
    assert isinstance(table.mode, Over)
    player.press("ok", hold=2.0)
    assert isinstance(table.mode, Setup) and table.game is None
    assert table.screen().status == "New game"


def test_the_header_keeps_the_canal_until_the_inspection_shows_it(box):
    """A header never runs ahead of its reveal: the order's screen shows the canal
    before the inspection; the inspection shows the turn it tells about."""
    table, player = table_at_supervision(box, STRIKE)
    turns = table.game.public_view()["turns"]
    player.answer(1)  # seat 2 is ordered to swap: its Strike becomes Work
    assert table.screen().status == f"Turn 1/{turns} Canal 0"
    assert table.screen().body[1] == "ordered seat 2"
    player.press("ok")
    assert table.screen().status == f"Turn 1/{turns} Canal 1"
    assert table.screen().big == "Canal ↑1"
    player.press("ok")
    assert table.screen().status == f"Turn 2/{turns} Canal 1"


def test_the_last_press_before_ok_counts_and_looks_the_same_either_way():
    """A, B, OK plays B; B, A, OK plays A (a seat corrects itself); the two leave the same
    frames, blinks and beeps."""

    def corrected(first, second):
        b = open_box("virtual", clock=VirtualClock())
        try:
            table, player = started(b, Settings("gulag", 5, "en", {"deal": "cards"}), 1)
            player.press("ok")  # the commissar takes the box
            for seat in (1, 2, 3):
                player.answer(seat)
            player.press("ok")  # seat 2 takes the box
            frames, start = [], len(b.outputs.trace)
            for button in (first, second, "ok"):
                player.press(button)
                frames.append(b.board.glass().tobytes())
            return table.game.ballot.choice_of(1), frames, b.outputs.trace[start:]
        finally:
            b.close()

    played_b, frames_ab, trace_ab = corrected("choice_a", "choice_b")
    played_a, frames_ba, trace_ba = corrected("choice_b", "choice_a")
    assert (played_b, played_a) == (STRIKE, WORK)
    assert frames_ab == frames_ba and trace_ab == trace_ba
    assert any("buzzer 1" in line for line in trace_ab)


def test_back_with_nothing_to_undo_says_what_stops_it(box, tmp_path):
    table, player = table_at_first_pick(box)
    player.press("back")  # the commissar's first prompt
    assert table.screen().status == "Not allowed"
    assert "changed hands" in " ".join(table.screen().body)
    player.press("ok")
    player.answer(1)
    player.press("back")  # an open pick: undone, then the hand-over again
    assert table.game.public_view()["workers"] == []
    player.press("back")
    assert "changed hands" in " ".join(table.screen().body)

    from companion.store import Journal

    path = tmp_path / "journal.sqlite"
    b = open_box("virtual", clock=VirtualClock())
    first, again = Table(b, seed=2, journal=Journal(path)), None
    first.start(Settings("gulag", 7, "en", {"deal": "cards"}))
    b.close()
    b = open_box("virtual", clock=VirtualClock())
    try:
        again = Table(b, seed=2, journal=Journal(path))
        assert again.resume()
        p = Player(b, again, b.clock)
        p.wait(0.4)
        p.press("ok")  # the commissar takes the box again, after the power cut
        p.press("back")
        assert "power cut" in " ".join(again.screen().body)
        p.press("ok")
        p.answer(1)
        p.press("back")  # undone: a step was played since the power cut
        p.press("back")
        assert "changed hands" in " ".join(again.screen().body)
    finally:
        b.close()


def test_an_ok_without_peek_on_the_first_look_asks_once_more_the_same_for_every_seat(box):
    table, player = started(box, Settings("gulag", 5, "en", {"deal": "box"}), 4)
    asked = []
    for seat in range(2):
        player.press("ok")  # the seat takes the box
        assert table.mode == Peek(seat)
        player.press("ok")  # without having held PEEK
        assert table.mode == Peek(seat, asked=True)
        shown = table.screen()
        assert " ".join(shown.body) == "Not looked yet: hold PEEK, or OK to skip"
        asked.append((shown.body, shown.keys, box.board.glass().tobytes()))
        player.press("ok")  # skipped: the box goes on
        assert table.mode == Handoff(seat + 1)
    assert asked[0] == asked[1]  # whatever the card: the same screen
    player.press("ok")
    player.press("peek", hold=1.0)  # looked: OK passes at once
    player.press("ok")
    assert table.mode == Handoff(3)


def test_attract_games_never_ask_to_look():
    from companion.kiosk.attract import AttractGame

    b = open_box("virtual", clock=VirtualClock())
    try:
        table = Table(b, seed=4)
        AttractGame(table, Settings("gulag", 5, "en", {"deal": "box"}), random.Random(1), 0.0)
        player = Player(b, table, b.clock)
        player.wait(0.4)
        player.press("ok")
        player.press("ok")  # no PEEK: on to the next seat at once
        assert table.mode == Handoff(1)
    finally:
        b.close()
