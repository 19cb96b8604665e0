"""Gulag against its rules text (gulag.en.md, gulag.fr.md) and rulings G1-G7."""

import random

import pytest

from companion.bots import make_bots, play_out
from companion.games import IllegalMove, new_game, restore
from companion.games.gulag.rules import BLACK, RED, STRIKE, WORK, deck_for, end_table


def skip_peeks(game):
    while game.decision.kind == "peek":
        game.act(game.decision.seats[0], "seen")


def pick(game, *seats):
    for seat in seats:
        game.act(game.commissar, seat)


def any_turn(game, cards, order="none"):
    """A turn with the first legal pick each time; returns the three selected."""
    selected = []
    for _ in range(3):
        selected.append(game.decision.options[0])
        game.act(game.commissar, selected[-1])
    for w, card in zip(selected[:2], cards, strict=True):
        game.act(w, card)
    game.act(selected[2], order)
    return selected


def task_turn(game, workers, supervisor, cards, order="none"):
    pick(game, *workers, supervisor)
    for w, card in zip(workers, cards, strict=True):
        game.act(w, card)
    game.act(supervisor, order)


# -- G1: the deck -------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "english", "french"),
    [(5, 5, 4), (6, 4, 4), (7, 4, 5), (8, 4, 5), (9, 5, 5), (10, 5, 5)],
)
def test_g1_deck_by_player_count(players, english, french):
    assert deck_for(players, "en") == {RED: english, BLACK: english}
    assert deck_for(players, "fr") == {RED: french, BLACK: french}
    for variant, n in (("en", english), ("fr", french)):
        for seed in range(40):
            game = new_game("gulag", players=players, seed=seed, deck=variant)
            roles = game.s.roles
            assert len(roles) == players
            assert roles.count(RED) <= n and roles.count(BLACK) <= n


def test_g1_all_compositions_occur_at_five_players():
    seen = {new_game("gulag", players=5, seed=s).s.roles.count(RED) for s in range(3000)}
    assert seen == {0, 1, 2, 3, 4, 5}


# -- G2: the semi-hidden deal ------------------------------------------------------


@pytest.mark.parametrize("players", range(5, 11))
def test_g2_each_seat_sees_the_card_on_its_right_and_never_its_own(players):
    game = new_game("gulag", players=players, seed=players)
    for seat in range(players):
        view = game.view(seat)
        right = (seat - 1) % players
        assert view["right"] == right
        assert view["right_card"] == game.s.roles[right]
        assert "roles" not in view
        # Flipping this seat's own card changes nothing it is shown.
        record = game.to_record()
        record["state"]["roles"][seat] = BLACK if game.s.roles[seat] == RED else RED
        assert restore(record).view(seat) == view
    assert "roles" not in game.public_view()


def test_g2_box_deal_asks_each_seat_in_turn_to_peek_before_the_first_turn():
    game = new_game("gulag", players=6, seed=1)
    for seat in range(6):
        d = game.decision
        assert (d.kind, d.seats, d.secret) == ("peek", (seat,), True)
        game.act(seat, "seen")
    assert game.decision.kind == "pick_worker"


def test_g2_physical_cards_are_told_at_the_end_within_the_deck():
    game = new_game("gulag", players=6, seed=1, deal="cards")
    assert game.view(0)["right_card"] is None
    for _ in range(6):
        any_turn(game, [WORK, WORK])
    told = [RED, RED, RED, RED, BLACK]
    for seat, role in enumerate(told):
        assert game.decision.kind == "reveal_role"
        game.act(seat, role)
    # G1 at 6 players: only 4 red cards exist, so the last seat must be black.
    d = game.decision
    assert d.options == (BLACK,)
    with pytest.raises(IllegalMove, match="G1"):
        game.act(5, RED)
    game.act(5, BLACK)
    assert game.over
    assert game.public_view()["roles"] == [*told, BLACK]
    # 12 Work cards, R = 4: 12 > 8, the red workers win.
    assert game.result.outcome == RED
    assert game.result.winners == {0, 1, 2, 3}


# -- G3: commissar rotation ---------------------------------------------------------


def test_g3_commissar_rotates_clockwise_and_never_selects_themself():
    game = new_game("gulag", players=5, seed=4, deal="cards")
    for turn in range(5):
        assert game.commissar == turn
        assert game.public_view()["turn"] == turn + 1
        with pytest.raises(IllegalMove, match="G3: the commissar never selects themself"):
            game.act(turn, turn)
        assert turn not in game.decision.options
        any_turn(game, [WORK, STRIKE])
    assert game.decision.kind == "reveal_role"


# -- G4: replacement -----------------------------------------------------------------


@pytest.mark.parametrize(("players", "need"), [(5, 1), (6, 1), (7, 2), (8, 2), (9, 3), (10, 3)])
def test_g4_replacement_accepted_and_refused_at_its_edge(players, need):
    game = new_game("gulag", players=players, seed=1)
    skip_peeks(game)
    first = [1, 2, 3]
    task_turn(game, first[:2], first[2], [WORK, WORK])
    assert game.commissar == 1
    assert game.public_view()["need_new"] == need
    old = [2, 3]  # selected last turn and not the new commissar
    new = [s for s in range(players) if s not in (*first, 1)]
    # Keep as many old as allowed: 3 - need.
    keep = old[: 3 - need]
    for seat in keep:
        game.act(1, seat)
    remaining_old = [s for s in old if s not in keep]
    if remaining_old:
        record = game.public_view()
        with pytest.raises(IllegalMove, match=f"G4: at {players} players at least {need}"):
            game.act(1, remaining_old[0])
        assert game.public_view() == record
    for seat in new[: 3 - len(keep)]:
        game.act(1, seat)
    assert game.decision.kind == "task"


def test_g4_first_turn_has_no_constraint_and_the_old_commissar_counts_as_new():
    game = new_game("gulag", players=9, seed=2)
    skip_peeks(game)
    task_turn(game, [1, 2], 3, [WORK, WORK])
    # Turn 2 at 9 players: all three must be new; seat 0 (last commissar) is new.
    assert set(game.decision.options) == {0, 4, 5, 6, 7, 8}
    pick(game, 0, 4, 5)
    assert game.decision.kind == "task"


def test_g4_replacement_compares_with_the_previous_turn_only():
    game = new_game("gulag", players=9, seed=2)
    skip_peeks(game)
    task_turn(game, [1, 2], 3, [WORK, WORK])
    task_turn(game, [4, 5], 6, [WORK, WORK])
    # Turn 3: seats 1, 2, 3 were selected two turns ago and are new again.
    assert {3, 7, 8}.issubset(set(game.decision.options))
    pick(game, 3, 7, 8)
    assert game.decision.kind == "task"


def test_a_seat_cannot_be_selected_twice_in_a_turn():
    game = new_game("gulag", players=5, seed=2)
    skip_peeks(game)
    pick(game, 1)
    with pytest.raises(IllegalMove, match="already selected"):
        game.act(0, 1)


# -- Task, G5 supervision, G6 inspection -------------------------------------------------


def test_task_cards_are_secret_and_one_per_worker():
    game = new_game("gulag", players=5, seed=3)
    skip_peeks(game)
    pick(game, 1, 2, 3)
    d = game.decision
    assert (d.kind, d.seats, d.secret) == ("task", (1, 2), True)
    game.act(2, STRIKE)
    with pytest.raises(IllegalMove):
        game.act(2, WORK)
    with pytest.raises(IllegalMove):
        game.act(3, WORK)  # the supervisor plays no task card
    assert game.decision.seats == (1,)
    assert game.view(2)["my_task"] == STRIKE
    assert "my_task" not in game.view(1)
    other = new_game("gulag", players=5, seed=3)
    skip_peeks(other)
    pick(other, 1, 2, 3)
    other.act(2, WORK)
    assert other.public_view() == game.public_view()
    assert [other.view(s) for s in (0, 1, 3, 4)] == [game.view(s) for s in (0, 1, 3, 4)]


@pytest.mark.parametrize(
    ("played", "ordered_index", "canal"),
    [
        ((WORK, WORK), None, 2),
        ((WORK, WORK), 0, 1),
        ((STRIKE, STRIKE), 1, 1),
        ((WORK, STRIKE), 1, 2),
        ((WORK, STRIKE), 0, 0),
    ],
)
def test_g5_a_forced_swap_turns_the_card_into_the_other(played, ordered_index, canal):
    game = new_game("gulag", players=5, seed=3)
    skip_peeks(game)
    workers = [1, 2]
    order = "none" if ordered_index is None else workers[ordered_index]
    task_turn(game, workers, 3, list(played), order)
    view = game.public_view()
    assert view["canal"] == canal
    assert sorted(view["last_inspection"]) == sorted([WORK] * canal + [STRIKE] * (2 - canal))
    assert view["ordered"] == (None if ordered_index is None else workers[ordered_index])
    assert view["history"][-1]["work"] == canal


def test_g5_supervisor_can_only_order_a_worker_of_this_turn():
    game = new_game("gulag", players=6, seed=3)
    skip_peeks(game)
    pick(game, 1, 2, 3)
    game.act(1, WORK)
    game.act(2, WORK)
    assert game.decision.options == ("none", 1, 2)
    with pytest.raises(IllegalMove, match="G5"):
        game.act(3, 4)
    with pytest.raises(IllegalMove, match="G5"):
        game.act(3, 3)


def test_g6_reveal_order_is_independent_of_who_played_what():
    """Secrecy: swapping two workers' cards within a turn leaves everything public identical."""

    def play(cards):
        game = new_game("gulag", players=7, seed=99)
        skip_peeks(game)
        task_turn(game, [1, 2], 3, cards)
        return game

    a, b = play([WORK, STRIKE]), play([STRIKE, WORK])
    assert a.public_view() == b.public_view()
    assert [a.view(s) for s in range(7)] == [b.view(s) for s in range(7)]
    assert a.to_record() == b.to_record()
    # ... and chance continues the same way afterwards.
    for game in (a, b):
        task_turn(game, [4, 5], 6, [WORK, WORK])
    assert a.public_view() == b.public_view()


def test_g6_swap_test_with_forced_swap_of_one_of_the_swapped_workers():
    def play(cards, order):
        game = new_game("gulag", players=7, seed=5)
        skip_peeks(game)
        task_turn(game, [1, 2], 3, cards, order)
        return game

    # Seat 1 strikes and is ordered / seat 2 works: both end as one Work, one Strike.
    a = play([STRIKE, STRIKE], 1)
    b = play([STRIKE, STRIKE], 2)
    assert a.public_view()["last_inspection"] == b.public_view()["last_inspection"]
    assert a.public_view()["canal"] == b.public_view()["canal"] == 1


# -- G7: the end table --------------------------------------------------------------------


@pytest.mark.parametrize("red", range(0, 7))
def test_g7_end_table_around_2r(red):
    for black in range(0, 7):
        assert end_table(red, black, 2 * red + 1) == RED
        if red > 0:
            assert end_table(red, black, 2 * red - 1) == BLACK
        expected = "draw" if red == black else (RED if red < black else BLACK)
        assert end_table(red, black, 2 * red) == expected


def test_g7_end_table_matches_the_printed_table():
    # Red workers 2..5: red win above 2R, black win below.
    for red, threshold in ((2, 4), (3, 6), (4, 8), (5, 10)):
        assert end_table(red, 3, threshold + 1) == RED
        assert end_table(red, 3, threshold - 1) == BLACK


def test_g7_draw_case_played_through():
    """6 players, 3 red 3 black, 6 Work cards = 2R: equal sides, the draw stands."""
    game = new_game("gulag", players=6, seed=0, deal="cards")
    cards_by_turn = [[WORK, WORK], [WORK, WORK], [WORK, WORK]] + [[STRIKE, STRIKE]] * 3
    for cards in cards_by_turn:
        any_turn(game, cards)
    for seat, role in enumerate([RED, BLACK, RED, BLACK, RED, BLACK]):
        game.act(seat, role)
    assert game.public_view()["canal"] == 6
    assert game.result.outcome == "draw"
    assert game.result.winners == frozenset()


def test_g7_minority_wins_on_2r():
    """5 players with 2 red, 3 black, 4 Work cards: the red minority wins."""
    game = new_game("gulag", players=5, seed=0, deal="cards")
    for cards in [[WORK, WORK], [WORK, WORK]] + [[STRIKE, STRIKE]] * 3:
        any_turn(game, cards)
    for seat, role in enumerate([BLACK, RED, BLACK, RED, BLACK]):
        game.act(seat, role)
    assert game.result.outcome == RED
    assert game.result.winners == {1, 3}


# -- Random play to the end ------------------------------------------------------------------


@pytest.mark.parametrize("players", range(5, 11))
@pytest.mark.parametrize("bots", ["random", "smart"])
def test_random_play_keeps_the_invariants(players, bots):
    for seed in range(60):
        game = new_game("gulag", players=players, seed=seed)
        result = play_out(game, make_bots(game, bots, random.Random(seed)))
        view = game.public_view()
        history = view["history"]
        assert len(history) == players  # as many turns as players
        assert [h["commissar"] for h in history] == list(range(players))
        assert all(0 <= h["work"] <= 2 for h in history)  # two task cards a turn
        assert sum(h["work"] for h in history) == view["canal"]
        assert 0 <= view["canal"] <= 2 * players
        roles = view["roles"]
        side = end_table(roles.count(RED), roles.count(BLACK), view["canal"])
        assert result.outcome == side
        assert result.winners == {i for i, r in enumerate(roles) if r == side}
        for h in history:
            assert h["commissar"] not in (*h["workers"], h["supervisor"])


def test_faction_bots_play_their_side():
    """Loyal workers play Work and disloyal ones Strike when nobody is ordered to swap."""
    for seed in range(40):
        game = new_game("gulag", players=8, seed=seed)
        bots = make_bots(game, "smart", random.Random(seed))
        while (d := game.decision) is not None:
            seat = d.seats[0]
            choice = bots[seat].choose(game.view(seat), d)
            if d.kind == "task":
                assert choice == (WORK if game.s.roles[seat] == RED else STRIKE)
            game.act(seat, choice)
