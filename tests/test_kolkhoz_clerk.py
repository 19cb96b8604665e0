"""Kolkhoz with real cards (deal "cards"): the box as the planner's clerk.

The box never sees a hand; the table enters each trick card by card (suit,
then card), the revealed plot cards at each requisition, and the hidden plot
cards at the end. Checked here: that entering a dealt game (the "twin", the
real cards) reproduces it exactly, scores included; that random entries can
never leave the box without a legal entry; that impossible entries are
refused with the rule; and the contract (save and restore) in this mode.
"""

from __future__ import annotations

import json
import random

import pytest

from companion.bots import make_bots, play_out
from companion.games import IllegalMove, new_game, restore
from companion.games.kolkhoz import clerk as book
from companion.games.kolkhoz.bots import Twin
from companion.games.kolkhoz.cards import SUITS, WORKERS, deal_possible, suit_of

GAMES = 200


def clerk(seed: int):
    return new_game("kolkhoz", seed=seed, deal="cards")


def entered_twin(seed: int):
    """A dealt game (the real cards) played by greedy bots and entered on a clerk game."""
    game = clerk(seed)
    twin = Twin(game, random.Random(seed))
    while (d := game.decision) is not None:
        seat = d.seats[0]
        choice = twin.answer(game.view(seat), d)
        assert choice in d.options, (d.kind, choice)  # the truth is never refused
        game.act(seat, choice)
    return game, twin.game


def test_deal_possible_is_halls_condition():
    """Unseen cards fill the places exactly, each place taking only the suits it may hold."""
    assert deal_possible({"hearts": 2}, [(1, SUITS), (1, ["hearts"])])
    assert not deal_possible({"hearts": 2}, [(1, ["diamonds"]), (1, ["hearts"])])
    assert not deal_possible({"hearts": 1}, [(2, SUITS)])  # the totals must agree
    # Two seats void in spades and three spades unseen: only one other place for them.
    places = [(2, ["hearts", "clubs"]), (2, ["hearts", "clubs"]), (3, SUITS)]
    assert deal_possible({"spades": 3, "hearts": 2, "clubs": 2}, places)
    assert not deal_possible({"spades": 4, "hearts": 2, "clubs": 1}, places)


@pytest.mark.parametrize("seed", range(0, 60))
def test_entering_a_dealt_game_reproduces_it(seed):
    """K1-K6: every year, requisition and score of the dealt game, from the entries alone."""
    game, twin = entered_twin(seed)
    mine, real = game.public_view(), twin.public_view()
    assert game.over and twin.over
    assert mine["history"] == real["history"]  # trump, hand sizes (K3), jobs, requisitions (K5)
    assert mine["plots"] == real["plots"] and mine["north"] == real["north"]
    assert mine["scores"] == real["scores"] and game.result == twin.result  # K6
    assert mine["unclaimed"] == real["unclaimed"]


def accounting(game) -> None:
    """Every worker is placed once, or counted in a hand, a hidden plot card or the deck."""
    placed = [c for c in book.places(game.s) if c in WORKERS]
    assert len(placed) == len(set(placed))
    pv = game.public_view()
    hidden = sum(len(s) for s in game.s.slots)
    assert len(placed) + sum(pv["hand_counts"]) + hidden + pv["deck"] == len(WORKERS)
    assert pv["deck"] >= 0


def test_random_entries_never_leave_the_box_without_a_legal_entry():
    """Any entry the box accepts keeps some deal of the unseen cards possible, to the end."""
    rng = random.Random(1)
    kinds = set()
    for seed in range(GAMES):
        game = clerk(seed)
        while (d := game.decision) is not None:
            assert d.options, (seed, d.kind)
            kinds.add(d.kind)
            accounting(game)
            game.act(d.seats[0], rng.choice(d.options))
        assert game.result is not None
        assert len(game.public_view()["history"]) == 5
        assert all(not slots for slots in game.s.slots)  # every hidden card was entered
    assert kinds == {"trump", "suit", "card", "assign", "reveal"}


def test_every_refusal_names_a_rule_and_changes_nothing():
    rng = random.Random(2)
    refused = 0
    for seed in range(20):
        game = clerk(seed)
        while (d := game.decision) is not None:
            if d.kind in ("suit", "card", "reveal"):
                every = SUITS if d.kind == "suit" else [*WORKERS, "none"]
                view = game.public_view()
                shown = json.dumps(view)
                state, chance = restore(game.to_record()).s, game.rng.getstate()
                for choice in every:
                    if choice in d.options or (d.kind == "card" and choice == "none"):
                        continue
                    with pytest.raises(IllegalMove) as exc:
                        game.act(d.seats[0], choice)
                    assert "is not a choice" not in str(exc.value)
                    # The very view (frozen) worked out before, or one that reads the same;
                    # and the state itself, which a view worked out before could not show.
                    after = game.public_view()
                    assert after is view or json.dumps(after) == shown
                    assert game.s == state and game.rng.getstate() == chance
                    refused += 1
            game.act(d.seats[0], rng.choice(d.options))
    assert refused > 1000


def year_one(seed=4):
    """Trump clubs, seat 2 leads the first trick of year 1."""
    game = clerk(seed)
    game.act(0, "clubs")
    return game


def enter(game, *cards):
    for card in cards:
        seat = game.decision.seats[0]
        game.act(seat, suit_of(card))
        game.act(seat, card)


def test_the_trick_is_entered_by_its_leader_in_play_order():
    """2b: the player left of the planner leads; the trick's leader enters all four cards."""
    game = year_one()
    d = game.decision
    assert (d.kind, d.seats) == ("suit", (1,))
    enter(game, "6H", "7S", "8H")
    assert game.public_view()["turn"] == 0 and game.decision.seats == (1,)
    enter(game, "9H")
    pv = game.public_view()
    assert pv["last_trick"] == {
        "plays": [
            {"seat": 1, "card": "6H"},
            {"seat": 2, "card": "7S"},
            {"seat": 3, "card": "8H"},
            {"seat": 0, "card": "9H"},
        ],
        "winner": 0,  # the box works out the winner: the highest of the lead suit
    }
    assert pv["jobs"]["hearts"]["hours"] == 23 and pv["jobs"]["spades"]["hours"] == 7  # K4
    assert game.decision.seats == (0,)  # the brigadier leads and enters the next trick


def test_a_card_seen_twice_is_refused():
    game = year_one()
    enter(game, "6H")
    game.act(1, "hearts")
    with pytest.raises(IllegalMove, match="6H is seen twice: it was played in this trick"):
        game.act(1, "6H")
    game.act(1, "7H")
    enter(game, "8H", "9H")  # seat 1 wins and leads trick 2
    game.act(0, "hearts")
    with pytest.raises(IllegalMove, match=r"7H is seen twice: it was played this year \(Пахота\)"):
        game.act(0, "7H")


def test_a_revoke_is_refused():
    """2b: follow suit if able: a seat that did not follow hearts holds none this year."""
    game = year_one()
    enter(game, "6H", "7S", "8H", "9H")
    enter(game, "6D", "7D")
    assert "hearts" not in game.decision.options
    with pytest.raises(IllegalMove, match="follow suit: seat 3 did not follow hearts in trick 1"):
        game.act(0, "hearts")


def test_a_trump_lead_before_trump_is_played_means_a_hand_of_trump():
    """2b: no trump lead until played, unless the hand holds nothing but trump."""
    game = year_one()
    enter(game, "6H", "7S", "8H", "9H")
    enter(game, "6C")  # seat 1 leads trump: accepted, the box cannot know the hand
    assert game.s.trump_only[0] == 2
    enter(game, "7C", "8C", "9C")  # seat 4 wins
    for _ in range(4):
        game.act(3, "hearts")
    enter(game, "10D")
    with pytest.raises(IllegalMove, match="seat 1 led trump in trick 2 before it was played"):
        game.act(3, "diamonds")


def test_a_trump_lead_is_refused_when_the_seat_cannot_hold_only_trump():
    """2b: a seat may lead trump before it is played only with a hand of nothing but trump."""
    rng = random.Random(7)
    for seed in range(300):
        game = clerk(seed)
        while (d := game.decision) is not None:
            pv = game.public_view()
            trump = pv["trump"]
            seat = pv["turn"]
            if (
                d.kind == "suit"
                and pv["phase"] == "play"
                and not pv["trick"]
                and not pv["trump_broken"]
                and trump not in d.options
                and trump not in game.s.voids[seat]
                and game.s.trump_only[seat] is None
                and book.unseen(game.s, trump)
            ):
                with pytest.raises(IllegalMove, match="no trump lead before trump is played"):
                    game.act(d.seats[0], trump)
                return
            game.act(d.seats[0], rng.choice(d.options))
    pytest.fail("no refused trump lead came up")


def test_the_deal_size_follows_the_cards_still_in_play():
    """K3: the box counts the workers left (not north, not in a plot) and says how many to deal."""
    game, twin = entered_twin(9)
    sizes = [h["hand_size"] for h in game.public_view()["history"]]
    assert sizes == [h["hand_size"] for h in twin.public_view()["history"]]
    assert sizes[0] == 5 and sizes[-1] < 5


def test_requisition_asks_the_revealers_and_sends_the_highest_north():
    """K5 / 2d: the brigadiers reveal the failed job's suit; the highest goes north."""
    found = False
    for seed in range(40):
        game = clerk(seed)
        twin = Twin(game, random.Random(seed))
        while (d := game.decision) is not None and d.kind != "reveal":
            game.act(d.seats[0], twin.answer(game.view(d.seats[0]), d))
        if d is None:
            continue
        pv = game.public_view()
        job = pv["requisition"]["job"]
        assert d.seats[0] in pv["requisition"]["revealers"]
        wrong = next(c for c in WORKERS if suit_of(c) != job and c not in book.places(game.s))
        with pytest.raises(IllegalMove, match="K5: only"):
            game.act(d.seats[0], wrong)
        while (d := game.decision) is not None and d.kind == "reveal":
            game.act(d.seats[0], twin.answer(game.view(d.seats[0]), d))
        year = pv["year"] - 1
        req = game.public_view()["history"][year]["requisitions"]
        assert req == twin.game.public_view()["history"][year]["requisitions"]
        assert any(r["north"] for r in req)
        found = True
        break
    assert found


def test_hidden_plot_cards_are_entered_at_the_end_for_the_scores():
    """3: every plot card counts; the box asks each seat for the hidden ones it never saw."""
    game = clerk(3)
    twin = Twin(game, random.Random(3))
    while (d := game.decision) is not None and game.public_view()["phase"] != "plot":
        game.act(d.seats[0], twin.answer(game.view(d.seats[0]), d))
    pv = game.public_view()
    assert pv["phase"] == "plot" and game.result is None
    real = twin.game.public_view()
    assert pv["to_enter"] == [p["hidden"] for p in real["plots"]]
    while (d := game.decision) is not None:
        game.act(d.seats[0], twin.answer(game.view(d.seats[0]), d))
    assert game.public_view()["scores"] == real["scores"]


def test_saved_record_restores_the_clerk_at_every_step():
    game = clerk(21)
    rng = random.Random(22)
    while (d := game.decision) is not None:
        copy = restore(json.loads(json.dumps(game.to_record())))
        assert copy.public_view() == game.public_view()
        assert copy.decision == d
        game.act(d.seats[0], rng.choice(d.options))


def test_the_default_is_the_clerk_as_on_the_setup_screen_and_the_box_deals_when_told():
    """The default is the table's real cards, the setup screen's first (bots, simulate and
    the demo alike); the box deals when told."""
    game = new_game("kolkhoz", seed=1)
    assert game.options == {"deal": "cards"} and game.decision.kind == "trump"
    assert game.view(1)["hand"] == []  # no hand in the box: the seats hold real cards
    dealt = new_game("kolkhoz", seed=1, deal="box")
    assert len(dealt.view(1)["hand"]) == 5
    bots = make_bots(clerk(1), "smart", random.Random(1))
    assert type(bots[0]).__name__ == "Scribe"
    with pytest.raises(ValueError, match="deal"):
        new_game("kolkhoz", seed=1, deal="dice")


@pytest.mark.parametrize("seed", range(6))
def test_smart_bots_play_the_table_cards_from_any_seed(seed):
    """The bots' real cards may come from any generator (the bench's bots are seeded apart
    from the game): the box's job cards are used, every entry is taken, and the book ends as
    the dealt game did. Dealt from the game's own seed, the cards are the box's deal."""
    for bot_seed in (seed + 1, 1000 + seed):
        game = clerk(seed)
        bots = make_bots(game, "smart", random.Random(bot_seed))
        play_out(game, bots)
        real = bots[0].twin.game
        assert real.over and game.result == real.result
        assert game.public_view()["history"] == real.public_view()["history"]
    dealt = new_game("kolkhoz", seed=seed, deal="box")
    assert Twin(clerk(seed), random.Random(seed)).game.view(0)["hand"] == dealt.view(0)["hand"]


def test_a_twin_asked_about_another_game_says_so():
    twin = Twin(clerk(5), random.Random(5))
    other = clerk(6)
    with pytest.raises(RuntimeError, match="another game"):
        twin.answer(other.view(0), other.decision)
