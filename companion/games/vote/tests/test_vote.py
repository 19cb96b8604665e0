"""The vote: its rounds, its reveals, its secrecy on the box, its screens."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.box import VirtualClock, open_box
from companion.demo import play
from companion.games import new_game
from companion.games.vote.rules import CHOICES, DONE
from companion.table.modes import Cursor
from companion.table.setup import Settings
from companion.ui.canvas import overflow
from companion.ui.i18n import translator


def vote_round(game, choices, voters=None):
    """One round: the chair says who votes (every seat, or ``voters`` picked), each voter
    gives its choice in turn, then the chair ends the game."""
    if voters is None:
        game.act(0, "all")
    else:
        game.act(0, "pick")
        for seat in voters:
            game.act(0, seat)
        if len(voters) < game.players:
            game.act(0, DONE)
    for choice in choices:
        game.act(game.decision.seats[0], choice)
    return game.public_view()["history"][-1]


@pytest.mark.parametrize("reveal", ["cards", "tally"])
def test_v5_an_anonymous_reveal_is_the_same_whoever_chose_what(reveal):
    """Swap two seats' choices: every view after the reveal is the same."""
    seen = []
    for choices in (("yes", "no", "yes"), ("no", "yes", "yes")):
        game = new_game("vote", players=3, seed=5, reveal=reveal)
        vote_round(game, choices)
        seen.append((game.public_view(), [game.view(s) for s in range(3)]))
    assert seen[0] == seen[1]
    line = seen[0][0]["history"][-1]
    assert line["tally"] == [2, 1]
    assert (line["cards"] is None) == (reveal == "tally") and line["open"] is None
    if reveal == "cards":
        assert Counter(line["cards"]) == {"yes": 2, "no": 1}


def test_v5_an_open_reveal_shows_each_voters_choice():
    game = new_game("vote", players=5, seed=2, reveal="open", choice="abc")
    line = vote_round(game, ("c", "a", "b"), voters=[4, 1, 2])
    assert line["voters"] == [1, 2, 4] and line["open"] == ["c", "a", "b"]
    assert line["tally"] == [1, 1, 1] and line["cards"] is None


def test_v3_the_chair_picks_the_voters_and_is_told_why_a_pick_is_refused():
    game = new_game("vote", players=6, seed=1)
    game.act(0, "pick")
    assert DONE not in game.decision.options  # nobody picked yet
    game.act(0, 3)
    with pytest.raises(Exception, match="V3: seat 4 already votes"):
        game.act(0, 3)
    game.act(0, DONE)
    assert game.decision.kind == "vote" and game.decision.seats == (3,)


def test_v6_rounds_go_on_until_the_chair_ends_the_game_and_nobody_wins():
    game = new_game("vote", players=4, seed=3)
    vote_round(game, ("yes",) * 4)
    game.act(0, "again")
    assert game.public_view()["round"] == 2
    vote_round(game, ("no",) * 4)
    game.act(0, "end")
    assert game.over and game.result.winners == frozenset()
    assert [h["round"] for h in game.public_view()["history"]] == [1, 2]


def test_v4_a_cursor_opens_on_an_option_drawn_for_each_seat_and_round():
    """With more than two options the voter's cursor opens on an option drawn from the
    game's generator, every option as often (so the presses to reach a choice are the same,
    in number, whatever it is); the draws do not depend on what was voted."""
    from companion.games.vote import screens

    opened = Counter()
    for seed in range(300):
        game = new_game("vote", players=4, seed=seed, choice="abcd")
        game.act(0, "all")
        d = game.decision
        opened[screens.candidates(d, game.view(d.seats[0]))[0]] += 1
    assert set(opened) == set(CHOICES["abcd"]) and min(opened.values()) > 50
    a, b = (new_game("vote", players=4, seed=9, choice="abcd") for _ in range(2))
    vote_round(a, "abcd")
    vote_round(b, "dcba")
    a.act(0, "again")
    b.act(0, "again")
    assert a.s.starts == b.s.starts


def voters_choose(first, second):
    """Seats 1 and 2 vote ``first`` and ``second`` in round 1; every seat else yes."""

    def bots(game, rng):
        class Bot:
            def choose(self, view, decision):
                if decision.kind == "vote":
                    return {0: first, 1: second}.get(view["seat"], "yes")
                return "all" if decision.kind == "who" else "end"

        return [Bot() for _ in range(game.players)]

    return bots


def run(first, second, reveal):
    box = open_box("virtual", clock=VirtualClock())
    try:
        settings = Settings("vote", 6, "en", {"reveal": reveal})
        return play(settings, seed=4, bots=voters_choose(first, second), box=box)
    finally:
        box.close()


@pytest.mark.parametrize("reveal", ["cards", "tally"])
def test_swapping_two_secret_votes_changes_no_frame_blink_beep_or_log_line(reveal):
    a, b = run("yes", "no", reveal), run("no", "yes", reveal)
    assert a.frames == b.frames and a.trace == b.trace and a.log == b.log
    assert any("vote recorded" in line for line in a.log)
    assert run("no", "no", reveal).frames != a.frames  # the runs did differ in what was voted


def round_presses(choice, votes):
    """The presses of a first round at a six-seat table, from the first screen after setup
    to the chair's "another round?", each seat voting ``votes[seat]``."""
    from companion.demo import Player
    from companion.table import Table
    from companion.table.modes import Announce, Handoff

    box = open_box("virtual", clock=VirtualClock())
    try:
        table = Table(box, seed=3)
        table.step()
        player = Player(box, table, box.clock)
        player.setup(Settings("vote", 6, "en", {"choice": choice}))
        before = player.presses
        while table.game.decision.kind != "next" or not isinstance(table.mode, Cursor):
            d = table.game.decision
            if isinstance(table.mode, Handoff | Announce):
                player.press("ok")
            else:
                player.answer("all" if d.kind == "who" else votes[d.seats[0]])
        return player.presses - before
    finally:
        box.close()


def test_a_six_seat_yes_no_round_on_the_box_takes_twenty_one_presses():
    """The chair's hand-over OK and "every seat" OK (2); seat 1 votes, A or B then OK (2);
    each other seat takes the box, OK, then A or B and OK (5 x 3); the reveal's OK and the
    box back to the chair (2): 21, then one OK for another round. Whatever is voted."""
    assert round_presses("yes_no", ["yes"] * 6) == 21
    assert round_presses("yes_no", ["no", "yes", "no", "no", "yes", "no"]) == 21


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("reveal", ["cards", "tally", "open"])
def test_every_reveal_fits_the_screen_at_twelve_seats(lang, reveal):
    from companion.games.vote import screens

    t = translator(lang)
    for choice, options in CHOICES.items():
        game = new_game("vote", players=12, seed=1, reveal=reveal, choice=choice)
        before = game.public_view()
        vote_round(game, [options[-1]] * 12)
        shown = screens.announcements(before, game.public_view(), t)
        assert shown and all(overflow(s) == [] for s in shown), (choice, shown)
