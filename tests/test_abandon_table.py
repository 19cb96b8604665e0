"""A way out: hold Back to abandon a game, at any point, with a confirmation.

Back acts when it is let go, so the gesture's first event (Back going down)
does nothing on any screen; held 1.5 s it asks "Abandon this game?", OK
abandons (the journal never resumes the game) and Back carries on.
"""

import random

import pytest

from companion.bots import make_bots
from companion.box import VirtualClock, open_box
from companion.demo import GAP, Player
from companion.games import GAMES as REGISTRY
from companion.games import game_class
from companion.games.base import Game
from companion.monkey import move_on
from companion.store import ABANDONED, Journal
from companion.table import Settings, Table
from companion.table.modes import (
    Abandon,
    Announce,
    Choose,
    Confirm,
    Countdown,
    Cursor,
    Handoff,
    Notice,
    Over,
    Peek,
    Setup,
)
from tests.conftest import alone


def on_screen(name):
    """Every option the setup screen shows, at its default but where the bots play alone."""
    options = game_class(name).OPTIONS
    shown = {key: o.default for key, o in options.items() if not o.command_line_only}
    return shown | alone(name)


GAMES = [
    Settings(name, game_class(name).min_players, ("en", "fr")[n % 2], on_screen(name))
    for n, name in enumerate(REGISTRY)
]
PROMPTS = (Handoff, Cursor, Choose, Confirm, Peek, Announce)


def opened(settings, journal=None, seed=3):
    box = open_box("virtual", clock=VirtualClock())
    table = Table(box, seed=seed, journal=journal)
    table.start(settings)
    player = Player(box, table, box.clock)
    player.wait(GAP)
    return table, player


def snapshot(table, player):
    game = table.game
    return (
        # A countdown's screen shows its clock running, whatever is pressed.
        None if isinstance(table.mode, Countdown) else player.box.board.glass().tobytes(),
        repr(table.mode),
        game.public_view() if isinstance(game, Game) else None,
        [game.view(s) for s in range(game.players)] if isinstance(game, Game) else None,
    )


def back_down_for(player, seconds):
    player.box.board.drive("back", True)
    player.wait(seconds)


@pytest.mark.parametrize("settings", GAMES, ids=lambda s: s.game)
def test_the_gestures_first_event_does_nothing_on_any_screen(settings):
    table, player = opened(settings)
    rng = random.Random(1)
    bots = make_bots(table.game, "random", rng)
    tried = set()
    try:
        for _ in range(400):
            kind = type(table.mode)
            if kind not in tried:
                tried.add(kind)
                before = snapshot(table, player)
                trace = len(player.box.outputs.trace)
                back_down_for(player, 1.0)  # down, not yet a hold
                assert snapshot(table, player) == before, kind
                assert player.box.outputs.trace[trace:] == []  # not even a blink
                player.wait(1.0)  # now a hold: the question, and nothing else yet
                if kind is Over:  # nothing left to abandon: hold OK starts a new game
                    assert snapshot(table, player) == before
                    player.box.board.drive("back", False)
                    player.wait(GAP)
                    assert snapshot(table, player) == before
                    break
                assert isinstance(table.mode, Abandon)
                assert snapshot(table, player)[2:] == before[2:]
                player.box.board.drive("back", False)
                player.wait(GAP)
                assert isinstance(table.mode, Abandon)  # letting go is no answer
                player.press("back")  # carry on: the very screen, as it was
                assert snapshot(table, player) == before, kind
            if isinstance(table.mode, Over):
                break
            move_on(table, player, bots, rng)
        assert set(PROMPTS) - {Announce} <= tried or settings.game == "kolkhoz"
    finally:
        player.box.close()


def test_a_refusal_notice_and_the_setup_screen_ignore_back_going_down(box):
    table = Table(box, seed=1)
    player = Player(box, table, box.clock)
    player.wait(GAP)
    before = box.board.glass().tobytes()
    back_down_for(player, 2.0)  # no game: a hold asks nothing either
    assert isinstance(table.mode, Setup) and box.board.glass().tobytes() == before
    box.board.drive("back", False)
    player.wait(GAP)
    player.setup(Settings("gulag", 5, "en"))
    player.press("ok")
    player.press("back")  # the first prompt: nothing to undo
    assert isinstance(table.mode, Notice)
    shown = box.board.glass().tobytes()
    back_down_for(player, 1.0)
    assert isinstance(table.mode, Notice) and box.board.glass().tobytes() == shown
    box.board.drive("back", False)
    player.wait(GAP)
    assert isinstance(table.mode, Notice)  # letting go is a press: only OK dismisses it
    assert table.screen().keys == "OK to go on"
    player.press("ok")
    assert isinstance(table.mode, Peek)  # OK dismissed the notice, and did nothing else


def reach(table, player, bots, rng, wanted):
    """Play until ``wanted`` (a mode type, or "vote": a secret ballot half cast) is on screen."""
    for _ in range(3000):
        mode, game = table.mode, table.game
        if wanted == "vote":
            if isinstance(mode, Choose) and game.ballot is not None and not game.ballot.empty:
                return True
        elif isinstance(mode, wanted):
            return True
        if isinstance(mode, Over):
            return False
        move_on(table, player, bots, rng)
    return False


def journal_rows(path):
    import sqlite3

    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT count(*) FROM steps").fetchone()[0], db.execute(
            "SELECT finished FROM games ORDER BY id"
        ).fetchall()
    finally:
        db.close()


@pytest.mark.parametrize("wanted", [*PROMPTS, "vote"], ids=lambda w: getattr(w, "__name__", w))
@pytest.mark.parametrize("settings", GAMES, ids=lambda s: s.game)
def test_an_abandoned_game_is_never_resumed_and_setup_starts_from_its_settings(
    tmp_path, settings, wanted
):
    path = tmp_path / "journal.sqlite"
    table, player = opened(settings, Journal(path))
    rng = random.Random(7)
    bots = make_bots(table.game, "random", rng)
    try:
        if not reach(table, player, bots, rng, wanted):
            assert settings.game == "kolkhoz" and wanted in ("vote", Choose, Confirm, Peek)
            return  # Kolkhoz has no secret choice and no peek
        steps, _ = journal_rows(path)
        back_down_for(player, 2.0)
        player.box.board.drive("back", False)
        player.wait(GAP)
        assert isinstance(table.mode, Abandon)
        player.press("ok")
        assert isinstance(table.mode, Setup) and table.game is None
        form = table.mode.form
        assert form.values == {
            "game": settings.game,
            "players": settings.players,
            "lang": settings.lang,
            **settings.options,
        }
        after, finished = journal_rows(path)
        assert after == steps  # abandoning writes no step: nothing of an open ballot
        assert finished == [(ABANDONED,)]  # never resumed, and told apart from damage
    finally:
        player.box.close()
    box = open_box("virtual", clock=VirtualClock())
    try:
        again = Table(box, seed=9, journal=Journal(path))
        assert not again.resume()  # nothing resumes
        assert isinstance(again.mode, Setup)
        assert again.mode.form.values["game"] == settings.game  # the last settings, after a restart
        assert again.mode.form.values["players"] == settings.players
    finally:
        box.close()


def test_abandon_without_the_gesture_for_a_kiosk(box, tmp_path):
    table = Table(box, seed=2, journal=Journal(tmp_path / "j.sqlite"))
    table.start(Settings("politburo", 6, "fr", {"vote": "count"}))
    table.abandon()
    assert isinstance(table.mode, Setup)
    assert table.last_settings == Settings("politburo", 6, "fr", {"vote": "count"})
    assert table.screen().status == "Nouvelle partie"


def to_last_reveal(table, player, rng):
    """Play on until the game is over and its last reveal is on screen."""
    bots = make_bots(table.game, "random", rng)
    for _ in range(3000):
        if isinstance(table.mode, Announce) and table.game.over:
            return
        assert not isinstance(table.mode, Over), "the game ended without a last reveal"
        move_on(table, player, bots, rng)
    raise AssertionError("no last reveal")


@pytest.mark.parametrize("settings", GAMES, ids=lambda s: s.game)
def test_holding_back_on_the_last_reveal_shows_the_result_before_a_new_game(tmp_path, settings):
    """The result is never skipped: OK on "The game is over." shows the result pages (the
    game finished, never resumed), and a new game is a hold of OK from there."""
    path = tmp_path / "journal.sqlite"
    table, player = opened(settings, Journal(path))
    try:
        to_last_reveal(table, player, random.Random(5))
        last = player.box.board.glass().tobytes()
        back_down_for(player, 2.0)
        player.box.board.drive("back", False)
        player.wait(GAP)
        assert isinstance(table.mode, Abandon)  # the box runs and asks
        t = table.t
        assert table.screen().body == (
            t("The game is over."),
            t("OK: see the result"),
            t("Back: carry on"),
        )
        player.press("back")  # carry on: the reveal, as it was
        assert isinstance(table.mode, Announce) and player.box.board.glass().tobytes() == last
        back_down_for(player, 2.0)
        player.box.board.drive("back", False)
        player.wait(GAP)
        player.press("ok")
        result = table.ui.final(table.game.public_view(), t)
        assert isinstance(table.mode, Over) and table.screen() == result[0]
        for page in result[1:]:  # every page of it, the winner's first
            player.press("down")
            assert table.screen() == page
        player.press("ok", hold=2.0)  # then a new game, as from any last screen
        assert isinstance(table.mode, Setup) and table.mode.form.values["game"] == settings.game
    finally:
        player.box.close()
    box = open_box("virtual", clock=VirtualClock())
    try:
        assert not Table(box, seed=9, journal=Journal(path)).resume()  # a finished game
    finally:
        box.close()


@pytest.mark.parametrize("chosen", [None, "fr"])
def test_the_language_the_table_chose_wins_on_resume_and_after_an_abandon(tmp_path, chosen):
    """``--lang`` (the table's choice at start) wins over a resumed game's language, for the
    game and the setup after it; without it, the game goes on in its own."""
    path = tmp_path / "journal.sqlite"
    table, player = opened(Settings("gulag", 5, "en", {"deal": "box"}), Journal(path))
    player.box.close()
    box = open_box("virtual", clock=VirtualClock())
    try:
        table = Table(box, seed=3, lang=chosen, journal=Journal(path))
        assert table.resume()
        player = Player(box, table, box.clock)
        player.wait(GAP)
        shown = " ".join(table.screen().body)
        assert ("siège" in shown) == (chosen == "fr"), shown
        back_down_for(player, 2.0)
        box.board.drive("back", False)
        player.wait(GAP)
        player.press("ok")
        assert isinstance(table.mode, Setup)
        assert table.mode.form.values["lang"] == (chosen or "en")
        assert (table.screen().status == "Nouvelle partie") == (chosen == "fr")
    finally:
        box.close()
