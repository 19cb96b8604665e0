"""Politburo: scenarios for each rule and ruling (P1-P9), random play, secrecy, bots."""

from __future__ import annotations

import json
import random

import pytest

from companion.bots import make_bots, play_out
from companion.games import IllegalMove, new_game, restore
from companion.games.politburo.rules import (
    DEFENCE,
    FINANCE,
    LEFT,
    MEMBERS,
    MINISTRIES,
    NO,
    REFORM,
    REPRESS,
    RIGHT,
    SECURITY,
    YES,
    Politburo,
    fulfilled,
    winners_of,
)
from companion.simulate import simulate

SIZES = range(5, 11)


# -- driving a game through the contract -----------------------------------------
def start(players: int = 5, seed: int = 1) -> Politburo:
    """A new game with every member's card seen."""
    game = new_game("politburo", players=players, seed=seed, vote="each")
    assert isinstance(game, Politburo)
    while (d := game.decision) is not None and d.kind == "peek":
        game.act(d.seats[0], "seen")
    return game


def secretary(game: Politburo) -> int:
    return game.public_view()["secretary"]


def others(game: Politburo, count: int = 3, skip: int = 0) -> list[int]:
    """Seats to the secretary's left, in order, leaving out ``skip`` first."""
    sec = secretary(game)
    return [(sec + 1 + skip + i) % game.players for i in range(count)]


def vote(game: Politburo, yes: set[int]) -> None:
    d = game.decision
    assert d is not None and d.kind == "plan_vote"
    for seat in d.seats:
        game.act(seat, YES if seat in yes else NO)


def approve(game: Politburo, ministry: str) -> None:
    game.act(secretary(game), ministry)
    vote(game, set(range(game.players)))


def appoint(game: Politburo, seats: list[int]) -> None:
    for seat in seats:
        game.act(secretary(game), seat)


def execute(game: Politburo, cards: dict[int, str]) -> None:
    d = game.decision
    assert d is not None and d.kind == "execute" and set(d.seats) == set(cards)
    for seat, card in cards.items():
        game.act(seat, card)


def point(game: Politburo, targets: dict[int, int]) -> None:
    """Each executor points at the seat given, through its left/right choice."""
    for seat, target in targets.items():
        sides = game.view(seat)["point_at"]
        game.act(seat, LEFT if sides[LEFT] == target else RIGHT)


def to_third_execution(game: Politburo, ministry: str, cards: dict[int, str]) -> None:
    """Approve ``ministry``, appoint the card holders, fail executions 1 and 2 with ``cards``."""
    approve(game, ministry)
    appoint(game, list(cards))
    for _ in range(2):
        execute(game, cards)
        game.act(secretary(game), "done")
    assert game.public_view()["execution"] == 3


def purge_round(game: Politburo, ministry: str, deviant: int, pointing: dict[int, int]) -> None:
    """A whole round ending in a purge where ``deviant`` alone reforms."""
    executors = list(pointing)
    cards = {seat: REFORM if seat == deviant else REPRESS for seat in executors}
    to_third_execution(game, ministry, cards)
    execute(game, cards)
    point(game, pointing)


def unanimous_round(game: Politburo, ministry: str, card: str = REPRESS) -> None:
    approve(game, ministry)
    executors = others(game)
    appoint(game, executors)
    execute(game, dict.fromkeys(executors, card))


# -- P1: the deal and the tracks -----------------------------------------------------
@pytest.mark.parametrize("players", SIZES)
def test_p1_random_distinct_members_influence_3_ministries_0(players):
    game = new_game("politburo", players=players, seed=players, vote="each")
    view = game.public_view()
    members = [game.view(seat)["member"] for seat in range(players)]
    assert len(set(members)) == players and set(members) <= set(MEMBERS)
    assert view["influence"] == [3] * players
    assert view["ministries"] == dict.fromkeys(MINISTRIES, 0)
    assert "members" not in view, "P1: the cards are face down until the end"
    assert game.decision.kind == "peek"


def test_p1_deal_is_random_and_every_member_card_can_come_up():
    seen = {new_game("politburo", players=5, seed=seed).view(0)["member"] for seed in range(200)}
    assert seen == set(MEMBERS)


def test_p1_a_view_shows_its_own_member_card_only():
    game = start(6, seed=3)
    view = game.view(2)
    assert view["member"] == game.s.members[2]
    assert "members" not in view
    assert view["condition"]


# -- P2: rounds and the secretary's rotation -----------------------------------------
def test_p2_first_secretary_is_drawn_at_random():
    firsts = {
        new_game("politburo", players=7, seed=seed).public_view()["secretary"]
        for seed in range(100)
    }
    assert firsts == set(range(7))


@pytest.mark.parametrize("players", SIZES)
def test_p2_rounds_equal_players_and_the_secretary_moves_left(players):
    game = start(players, seed=11)
    first = secretary(game)
    assert game.public_view()["rounds"] == players
    for r in range(players):
        assert game.public_view()["round"] == r + 1
        assert secretary(game) == (first + r) % players
        unanimous_round(game, DEFENCE)
    assert game.over
    assert game.public_view()["secretary"] is None


# -- P3: the plan vote ----------------------------------------------------------------
def test_p3_majority_yes_approves_and_the_vote_is_open():
    game = start(6, seed=2)
    sec = secretary(game)
    game.act(sec, FINANCE)
    d = game.decision
    assert d.kind == "plan_vote" and not d.secret
    assert sec not in d.seats and len(d.seats) == 5, "P3: all but the secretary vote"
    yes = set(others(game, 3))
    vote(game, yes)
    view = game.public_view()
    assert view["plan"] == FINANCE and game.decision.kind == "appoint"
    record = view["current"]["proposals"][0]
    assert set(record["yes"]) == yes and record["approved"]


def test_p3_majority_no_rejects_and_the_rejected_plan_cannot_return():
    game = start(6, seed=2)
    game.act(secretary(game), SECURITY)
    vote(game, set(others(game, 2)))
    assert game.decision.kind == "propose"
    assert game.decision.options == (DEFENCE, FINANCE)
    with pytest.raises(IllegalMove, match="P3"):
        game.act(secretary(game), SECURITY)


@pytest.mark.parametrize("casting", [YES, NO])
def test_p3_tie_gives_the_secretary_the_casting_vote(casting):
    game = start(5, seed=4)  # 4 voters: a tie is possible
    game.act(secretary(game), DEFENCE)
    vote(game, set(others(game, 2)))
    d = game.decision
    assert d.kind == "casting" and d.seats == (secretary(game),)
    game.act(secretary(game), casting)
    view = game.public_view()
    assert view["current"]["proposals"][0]["casting"] == casting
    if casting == YES:
        assert view["plan"] == DEFENCE and game.decision.kind == "appoint"
    else:
        assert view["rejected"] == [DEFENCE] and game.decision.kind == "propose"


def test_p3_two_rejections_approve_the_third_ministry_without_a_vote():
    game = start(7, seed=5)
    for ministry in (SECURITY, DEFENCE):
        game.act(secretary(game), ministry)
        vote(game, set())
    view = game.public_view()
    assert view["plan"] == FINANCE and view["current"]["automatic"]
    assert game.decision.kind == "appoint"
    assert len(view["current"]["proposals"]) == 2


def test_p3_tie_then_casting_no_counts_as_a_rejection():
    game = start(5, seed=6)
    game.act(secretary(game), FINANCE)
    vote(game, set(others(game, 2)))
    game.act(secretary(game), NO)
    game.act(secretary(game), SECURITY)
    vote(game, set())
    assert game.public_view()["plan"] == DEFENCE


# -- P4: appointing --------------------------------------------------------------------
def test_p4_the_secretary_cannot_appoint_themself_nor_twice_the_same():
    game = start(5, seed=7)
    approve(game, DEFENCE)
    sec = secretary(game)
    assert sec not in game.decision.options
    with pytest.raises(IllegalMove, match="P4: the general secretary cannot appoint themself"):
        game.act(sec, sec)
    first = others(game, 1)[0]
    game.act(sec, first)
    with pytest.raises(IllegalMove, match="P4"):
        game.act(sec, first)


# -- P5: executions 1 and 2 ------------------------------------------------------------
@pytest.mark.parametrize(("card", "delta"), [(REPRESS, 2), (REFORM, -2)])
def test_p5_unanimity_moves_the_ministry_by_2_and_ends_the_round(card, delta):
    game = start(6, seed=8)
    sec = secretary(game)
    unanimous_round(game, SECURITY, card)
    view = game.public_view()
    assert view["ministries"] == {DEFENCE: 0, FINANCE: 0, SECURITY: delta}
    assert view["round"] == 2 and view["secretary"] == (sec + 1) % 6
    record = view["history"][0]
    assert record["change"] == delta and record["purge"] is None
    assert view["influence"] == [3] * 6


def test_p5_failed_execution_shows_counts_only_then_replacements():
    game = start(7, seed=9)
    approve(game, DEFENCE)
    a, b, c = others(game)
    appoint(game, [a, b, c])
    execute(game, {a: REPRESS, b: REFORM, c: REPRESS})
    view = game.public_view()
    assert view["last_execution"] == {
        "number": 1,
        "executors": [a, b, c],
        "repress": 2,
        "reform": 1,
    }
    assert view["ministries"][DEFENCE] == 0, "P5: no change before unanimity or execution 3"
    d = game.decision
    assert d.kind == "replace" and set(d.options) == {"done", a, b, c}
    sec = secretary(game)
    outsider = others(game, 1, skip=3)[0]
    game.act(sec, b)
    assert game.decision.kind == "replace_by"
    assert b not in game.decision.options and sec not in game.decision.options
    with pytest.raises(IllegalMove, match="P4"):
        game.act(sec, sec)
    game.act(sec, outsider)
    assert game.public_view()["executors"] == [a, outsider, c]
    assert outsider not in game.decision.options, "a refilled place is not replaced again"
    with pytest.raises(IllegalMove, match="refilled"):
        game.act(sec, outsider)
    game.act(sec, "done")
    assert set(game.decision.seats) == {a, outsider, c}
    execute(game, {a: REPRESS, outsider: REPRESS, c: REPRESS})
    assert game.public_view()["ministries"][DEFENCE] == 2


def test_p5_replacing_all_three_starts_the_next_execution():
    game = start(8, seed=10)
    approve(game, FINANCE)
    first = others(game)
    appoint(game, first)
    execute(game, dict(zip(first, (REPRESS, REPRESS, REFORM), strict=True)))
    fresh = others(game, 3, skip=3)
    for old, new in zip(first, fresh, strict=True):
        game.act(secretary(game), old)
        game.act(secretary(game), new)
    d = game.decision
    assert d.kind == "execute" and set(d.seats) == set(fresh)
    assert game.public_view()["execution"] == 2


# -- P6: the third execution -------------------------------------------------------------
@pytest.mark.parametrize(("majority", "delta"), [(REPRESS, 1), (REFORM, -1)])
def test_p6_third_execution_moves_1_toward_the_majority_then_purge(majority, delta):
    game = start(6, seed=12)
    executors = others(game)
    minority = REFORM if majority == REPRESS else REPRESS
    cards = {executors[0]: majority, executors[1]: minority, executors[2]: majority}
    to_third_execution(game, FINANCE, cards)
    execute(game, cards)
    view = game.public_view()
    assert view["ministries"][FINANCE] == delta
    assert game.decision.kind == "point" and game.decision.secret
    assert set(game.decision.seats) == set(executors)
    assert not game.saveable, "the attributable cards are never saved"
    text = json.dumps(view)
    assert "my_card" not in text and "cards" not in text, "P6: hidden until the purge"


def test_p6_cards_are_numbered_from_the_secretarys_left():
    game = start(10, seed=13)
    sec = secretary(game)
    # appointed out of order, and wrapping round the table
    executors = [(sec + 7) % 10, (sec + 2) % 10, (sec + 9) % 10]
    cards = {executors[0]: REPRESS, executors[1]: REFORM, executors[2]: REPRESS}
    to_third_execution(game, DEFENCE, cards)
    execute(game, cards)
    numbers = {seat: game.view(seat)["my_card"]["number"] for seat in executors}
    assert numbers == {(sec + 2) % 10: 1, (sec + 7) % 10: 2, (sec + 9) % 10: 3}
    assert game.view(executors[1])["my_card"]["card"] == REFORM
    assert "my_card" not in game.view(sec)


def test_p6_unanimous_third_execution_moves_2_without_purge():
    game = start(5, seed=14)
    executors = others(game)
    to_third_execution(game, SECURITY, dict(zip(executors, (REPRESS, REFORM, REFORM), strict=True)))
    execute(game, dict.fromkeys(executors, REFORM))
    view = game.public_view()
    assert view["ministries"][SECURITY] == -2
    assert view["history"][0]["purge"] is None and view["round"] == 2
    assert game.saveable


# -- P7: the purge ---------------------------------------------------------------------------
def purge_game(pointing_kind: str):
    """A purge at 6 players where executor b deviates; returns (game, a, b, c, influence)."""
    game = start(6, seed=15)
    a, b, c = others(game)
    targets = {
        "caught": {a: b, b: a, c: b},
        "one fails": {a: c, b: a, c: b},
        "both fail": {a: c, b: c, c: a},
        "caught, deviant points anywhere": {a: b, b: c, c: b},
    }[pointing_kind]
    purge_round(game, DEFENCE, deviant=b, pointing=targets)
    return game, a, b, c


def test_p7_deviant_pointed_at_by_both_loses_1():
    for kind in ("caught", "caught, deviant points anywhere"):
        game, a, b, c = purge_game(kind)
        view = game.public_view()
        assert view["influence"][b] == 2 and view["influence"][a] == view["influence"][c] == 3
        assert view["lost"] == 1
        assert view["history"][0]["purge"]["losers"] == [b]


def test_p7_the_one_failing_to_point_at_the_deviant_loses_1():
    game, a, b, c = purge_game("one fails")
    view = game.public_view()
    assert view["influence"][a] == 2
    assert view["influence"][b] == view["influence"][c] == 3
    assert view["lost"] == 1


def test_p7_both_failing_to_point_at_the_deviant_lose_1_each():
    game, a, b, c = purge_game("both fail")
    view = game.public_view()
    assert view["influence"][a] == view["influence"][c] == 2
    assert view["influence"][b] == 3
    assert view["lost"] == 2


def test_p7_after_the_purge_cards_and_pointing_are_public_and_attributable():
    game, a, b, c = purge_game("one fails")
    purge = game.public_view()["history"][0]["purge"]
    cards = dict(zip(purge["executors"], purge["cards"], strict=True))
    pointed = dict(zip(purge["executors"], purge["pointed"], strict=True))
    assert cards == {a: REPRESS, b: REFORM, c: REPRESS}
    assert pointed == {a: c, b: a, c: b}
    assert purge["deviant"] == b
    assert game.saveable


def test_p7_pointing_is_left_or_right_at_the_other_two_executors():
    game = start(8, seed=16)
    sec = secretary(game)
    executors = [(sec + 1) % 8, (sec + 4) % 8, (sec + 6) % 8]
    cards = dict(zip(executors, (REPRESS, REPRESS, REFORM), strict=True))
    to_third_execution(game, FINANCE, cards)
    execute(game, cards)
    x, y, z = executors
    assert game.view(x)["point_at"] == {LEFT: y, RIGHT: z}
    assert game.view(y)["point_at"] == {LEFT: z, RIGHT: x}
    assert game.view(z)["point_at"] == {LEFT: x, RIGHT: y}
    with pytest.raises(IllegalMove, match="P7"):
        game.act(x, x)


# -- P1: the influence floor -------------------------------------------------------------------
def test_p1_influence_never_drops_below_0_and_nothing_more_is_lost():
    game = start(5, seed=17)
    target = (secretary(game) + 1) % 5
    for _ in range(5):
        if secretary(game) == target:
            unanimous_round(game, FINANCE)
            continue
        a, b = [seat for seat in others(game, 4) if seat != target][:2]
        purge_round(game, DEFENCE, deviant=target, pointing={target: a, a: target, b: target})
    view = game.public_view()
    assert view["influence"][target] == 0
    assert view["lost"] == 3, "the fourth penalty found nothing left to lose"
    assert [h["purge"]["lost"] for h in view["history"] if h["purge"]] == [1, 1, 1, 0]


# -- P8: the ten victory conditions ----------------------------------------------------------------
def levels(defence: int, finance: int, security: int) -> dict[str, int]:
    return {DEFENCE: defence, FINANCE: finance, SECURITY: security}


@pytest.mark.parametrize(
    ("member", "holds", "fails"),
    [
        ("Beria", [levels(0, 0, 1), levels(1, 0, 1), levels(0, 0, 0)], [levels(1, 0, 0)]),
        ("Kaganovich", [levels(0, 2, 1), levels(2, 2, -5)], [levels(0, 1, 2)]),
        ("Voroshilov", [levels(3, -1, 3), levels(-1, -2, -3)], [levels(0, 0, 1)]),
        ("Kirov", [levels(0, 0, -1), levels(-1, 0, -1), levels(0, 0, 0)], [levels(-1, 0, 0)]),
        ("Kuybyshev", [levels(0, -2, 1), levels(-2, -2, 5)], [levels(-1, 0, 2)]),
        ("Malenkov", [levels(-3, 1, -3), levels(1, 2, 3)], [levels(0, 0, -1)]),
        ("Bulganin", [levels(0, 0, 0), levels(2, -1, -1), levels(1, 0, 0)], [levels(1, -1, -1)]),
        ("Khrushchev", [levels(0, 0, 0), levels(-2, 1, 1), levels(-1, 0, 0)], [levels(1, 0, 0)]),
    ],
)
def test_p8_ministry_conditions_with_ties(member, holds, fails):
    """P8: most repressing/reforming means no other is higher/lower: ties count for all."""
    for ministries in holds:
        assert fulfilled(member, ministries, 0, 5), ministries
    for ministries in fails:
        assert not fulfilled(member, ministries, 0, 5), ministries


@pytest.mark.parametrize(
    ("players", "lost", "molotov", "zhdanov"),
    [
        (5, 2, True, False),
        (5, 3, False, True),  # 5/2 = 2.5, not rounded
        (6, 3, True, True),  # exactly half: both hold
        (6, 2, True, False),
        (6, 4, False, True),
        (7, 0, True, False),
        (10, 5, True, True),
    ],
)
def test_p8_molotov_and_zhdanov_compare_lost_influence_to_half_the_players(
    players, lost, molotov, zhdanov
):
    ministries = levels(0, 0, 0)
    assert fulfilled("Molotov", ministries, lost, players) is molotov
    assert fulfilled("Zhdanov", ministries, lost, players) is zhdanov


def test_p8_all_level_ministries_fulfil_every_ministry_condition():
    ministries = levels(2, 2, 2)
    assert all(
        fulfilled(m, ministries, 0, 5)
        for m in MEMBERS
        if m not in ("Molotov", "Zhdanov", "Bulganin", "Khrushchev")
    )


def test_p8_zhdanov_counts_lost_influence_through_the_game():
    """P8: Zhdanov reads total *lost* influence, the mirror of Molotov."""
    game = purge_game("both fail")[0]
    assert game.public_view()["lost"] == 2
    assert fulfilled("Zhdanov", game.s.ministries, game.s.lost, 6) is False
    assert fulfilled("Molotov", game.s.ministries, game.s.lost, 6) is True


# -- P9: the end --------------------------------------------------------------------------------
def test_p9_pure_helper_one_several_none():
    members = ["Beria", "Kirov", "Kaganovich", "Bulganin", "Molotov"]
    ministries = levels(0, -1, 2)
    # Beria (security highest) and Bulganin (total 1) hold; Molotov fails (3 lost > 5/2)
    assert winners_of(members, [3, 3, 3, 1, 0], ministries, 3) == {0}
    assert winners_of(members, [1, 3, 3, 2, 0], ministries, 3) == {3}
    assert winners_of(members, [2, 3, 3, 2, 0], ministries, 3) == {0, 3}
    assert winners_of(members, [3, 3, 3, 3, 3], levels(1, -3, 0), 3) == frozenset()


def near_end(players: int, members: list[str], influence: list[int], ministries, lost: int):
    """A game in its last round with the given cards and tracks (a built near-end state)."""
    record = start(players, seed=18).to_record()
    state = record["state"]
    state.update(
        members=list(members),
        influence=list(influence),
        ministries=dict(ministries),
        lost=lost,
        round=players - 1,
    )
    state["current"].update(round=players, secretary=(state["first"] + players - 1) % players)
    game = restore(record)
    assert game.public_view()["round"] == players
    return game


def test_p9_one_fulfilled_condition_wins():
    members = ["Beria", "Kirov", "Kaganovich", "Khrushchev", "Voroshilov"]
    game = near_end(5, members, [3, 3, 3, 3, 0], levels(0, 0, 0), 3)
    unanimous_round(game, SECURITY, REPRESS)  # security 2: Beria alone
    result = game.result
    assert game.over and result.winners == {0} and result.outcome == "winner"
    assert result.measures["Beria won"] == 1.0 and result.measures["Kirov won"] == 0.0
    assert set(game.public_view()["members"]) == set(members)


def test_p9_several_fulfilled_the_highest_influence_wins_and_ties_share():
    members = ["Beria", "Bulganin", "Kaganovich", "Khrushchev", "Kirov", "Molotov"]
    game = near_end(6, members, [2, 3, 3, 3, 3, 1], levels(0, 0, -1), 0)
    unanimous_round(game, SECURITY, REPRESS)  # security 1, total 1: Beria, Bulganin, Molotov
    assert game.result.winners == {1} and game.result.outcome == "winner"

    game = near_end(6, members, [3, 3, 3, 3, 3, 1], levels(0, 0, -1), 0)
    unanimous_round(game, SECURITY, REPRESS)
    assert game.result.winners == {0, 1} and game.result.outcome == "winners"


def test_p9_no_fulfilled_condition_no_winner():
    members = ["Beria", "Kaganovich", "Bulganin", "Molotov", "Kirov"]
    game = near_end(5, members, [3, 3, 3, 0, 3], levels(3, -3, 0), 3)
    unanimous_round(game, DEFENCE, REFORM)  # defence 1 > security 0 > finance -3, total -2
    result = game.result
    assert result.winners == frozenset() and result.outcome == "no winner"
    assert "no winner" in Politburo.outcomes
    assert sum(v for k, v in result.measures.items() if k.endswith(" won")) == 0


# -- random play to the end, with invariants --------------------------------------------------
def check_invariants(game: Politburo) -> None:
    view = game.public_view()
    n = game.players
    assert all(0 <= i <= 3 for i in view["influence"])
    assert view["lost"] == 3 * n - sum(view["influence"])
    assert 1 <= view["round"] <= n
    if view["secretary"] is not None:
        assert view["secretary"] not in view["executors"]
    assert len(set(view["executors"])) == len(view["executors"]) <= 3
    if not game.over:
        assert "members" not in view


@pytest.mark.parametrize("players", SIZES)
def test_random_play_to_the_end_keeps_every_invariant(players):
    rng = random.Random(players)
    for g in range(60):
        game = new_game("politburo", players=players, seed=1000 * players + g, vote="each")
        while (d := game.decision) is not None:
            check_invariants(game)
            game.act(rng.choice(d.seats), rng.choice(d.options))
        view = game.public_view()
        history = view["history"]
        assert len(history) == players, "P2: rounds = players"
        first = view["first_secretary"]
        totals = dict.fromkeys(MINISTRIES, 0)
        for r, record in enumerate(history):
            assert record["secretary"] == (first + r) % players
            assert 1 <= len(record["proposals"]) <= 2
            assert record["automatic"] == (
                len(record["proposals"]) == 2 and not record["proposals"][1]["approved"]
            )
            execs = record["executions"]
            assert [e["number"] for e in execs] == list(range(1, len(execs) + 1))
            for e in execs:
                assert record["secretary"] not in e["executors"]
                assert e["repress"] + e["reform"] == 3
                if e["number"] < 3:  # P5: counts only, nothing tied to a seat
                    assert set(e) == {"number", "executors", "repress", "reform"}
            last = execs[-1]
            unanimous = 3 in (last["repress"], last["reform"])
            assert abs(record["change"]) == (2 if unanimous else 1)
            assert (record["purge"] is None) == unanimous
            assert all(e["repress"] not in (0, 3) for e in execs[:-1])
            totals[record["plan"]] += record["change"]
        assert view["ministries"] == totals
        winners = winners_of(view["members"], view["influence"], view["ministries"], view["lost"])
        assert game.result.winners == winners
        assert set(game.result.measures) >= {f"{m} won" for m in view["members"]}


# -- secrecy: executions 1 and 2 --------------------------------------------------------------
def recorded_play(players: int, seed: int) -> list[tuple[int, object, str, int]]:
    """A random game's moves: (seat, choice, decision kind, execution number)."""
    game = new_game("politburo", players=players, seed=seed, vote="each")
    rng = random.Random(seed)
    moves = []
    while (d := game.decision) is not None:
        seat, choice = rng.choice(d.seats), rng.choice(d.options)
        moves.append((seat, choice, d.kind, game.public_view()["execution"]))
        game.act(seat, choice)
    return moves


def replay(players: int, seed: int, moves, start: int) -> list:
    """Every view, public and by seat, at each change of decision from move ``start`` on."""
    game = new_game("politburo", players=players, seed=seed, vote="each")
    trace = []
    for index, (seat, choice, kind, _) in enumerate(moves):
        game.act(seat, choice)
        d = game.decision
        if index >= start and (d is None or d.kind != kind):
            trace.append((game.public_view(), [game.view(s) for s in range(players)]))
    return trace


@pytest.mark.parametrize("players", SIZES)
def test_p5_swapping_two_executors_cards_changes_no_view(players):
    """P5: only counts are revealed; who played which card leaves no trace anywhere."""
    swaps = 0
    for seed in range(20):
        moves = recorded_play(players, seed)
        # find an execution 1 or 2 where two executors played different cards
        i = 0
        while i < len(moves):
            if moves[i][2] == "execute" and moves[i][3] in (1, 2):
                j = i
                while j < len(moves) and moves[j][2] == "execute":
                    j += 1
                block = moves[i:j]
                pair = next(
                    (
                        (x, y)
                        for x in range(3)
                        for y in range(x + 1, 3)
                        if block[x][1] != block[y][1]
                    ),
                    None,
                )
                if pair is not None:
                    x, y = pair
                    swapped = list(moves)
                    sx, cx, kx, nx = moves[i + x]
                    sy, cy, ky, ny = moves[i + y]
                    swapped[i + x] = (sx, cy, kx, nx)
                    swapped[i + y] = (sy, cx, ky, ny)
                    assert replay(players, seed, moves, i) == replay(players, seed, swapped, i)
                    swaps += 1
                    break
                i = j
            else:
                i += 1
    assert swaps >= 10


# -- save and restore around the purge -------------------------------------------------------
def test_the_attributable_link_is_never_saved():
    game = start(6, seed=19)
    executors = others(game)
    cards = dict(zip(executors, (REPRESS, REFORM, REPRESS), strict=True))
    to_third_execution(game, DEFENCE, cards)
    execute(game, cards)
    # the purge waits: the cards are linked to seats, so nothing may be saved
    assert game.decision.kind == "point"
    with pytest.raises(ValueError, match="ballot"):
        game.to_record()
    a, b, c = executors
    point(game, {a: b, b: a, c: b})
    record = game.to_record()
    assert "third" not in record["state"]
    assert REFORM in json.dumps(record["state"]["history"])  # public once the purge is over
    assert restore(record).public_view() == game.public_view()


# -- bots and simulate ------------------------------------------------------------------------
@pytest.mark.parametrize("players", SIZES)
def test_smart_bots_play_every_table_size_to_the_end(players):
    for seed in range(5):
        game = new_game("politburo", players=players, seed=seed, vote="each")
        result = play_out(game, make_bots(game, "smart", random.Random(seed)))
        assert result.outcome in Politburo.outcomes
        assert len(game.public_view()["history"]) == players


def bot_for(member: str, players: int = 6):
    """A game where seat 0 holds ``member``, and the smart bot for seat 0."""
    for seed in range(500):
        game = start(players, seed)
        if game.view(0)["member"] == member:
            return game, make_bots(game, "smart", random.Random(seed))[0]
    raise AssertionError(member)


@pytest.mark.parametrize(
    ("member", "ministry", "card"),
    [
        ("Beria", SECURITY, REPRESS),
        ("Kirov", SECURITY, REFORM),
        ("Voroshilov", DEFENCE, REPRESS),
        ("Malenkov", DEFENCE, REFORM),
        ("Bulganin", FINANCE, REPRESS),
        ("Khrushchev", FINANCE, REFORM),
    ],
)
def test_bots_execute_toward_their_victory_condition(member, ministry, card):
    game, bot = bot_for(member)
    if secretary(game) == 0:
        unanimous_round(game, DEFENCE, REPRESS)
    approve(game, ministry)
    team = [0, *[s for s in others(game) if s != 0][:2]]
    appoint(game, team)
    assert bot.choose(game.view(0), game.decision) == card


def test_bot_points_at_the_executor_known_to_play_against_the_majority():
    game, bot = bot_for("Beria", players=6)
    while secretary(game) == 0:
        unanimous_round(game, DEFENCE)
    rng = random.Random(1)
    # a first purge reveals which of two members reforms security
    a, b = [s for s in others(game, 5) if s != 0][:2]
    purge_round(game, SECURITY, deviant=b, pointing={0: b, a: b, b: a})
    while secretary(game) in (0, a, b):
        unanimous_round(game, FINANCE, rng.choice((REPRESS, REFORM)))
    cards = {0: REPRESS, a: REPRESS, b: REFORM}
    to_third_execution(game, SECURITY, cards)
    execute(game, cards)
    choice = bot.choose(game.view(0), game.decision)
    assert game.view(0)["point_at"][choice] == b


def test_bot_secretary_appoints_members_whose_past_cards_suit_it():
    game, bot = bot_for("Beria", players=7)
    # a purge shows that b reformed security while a and c repressed it
    a, b, c = [s for s in others(game, 6) if s != 0][:3]
    purge_round(game, SECURITY, deviant=b, pointing={a: b, b: a, c: b})
    while secretary(game) != 0:
        unanimous_round(game, FINANCE, REFORM)
    approve(game, SECURITY)
    picks = []
    for _ in range(3):
        choice = bot.choose(game.view(0), game.decision)
        picks.append(choice)
        game.act(0, choice)
    assert a in picks and c in picks and b not in picks


def test_simulate_reports_every_members_win_rate_and_no_winner():
    stats = simulate("politburo", players=10, games=20, seed=3)
    assert set(stats["outcomes"]) == {"winner", "winners", "no winner"}
    assert {f"{m} won" for m in MEMBERS} <= set(stats["measures"])
    assert abs(sum(stats["outcomes"].values()) - 1) < 1e-9


# -- the option vote "count": the secretary enters the thumbs up -------------------------
def start_counting(players: int = 5, seed: int = 1) -> Politburo:
    game = new_game("politburo", players=players, seed=seed, vote="count")
    assert isinstance(game, Politburo)
    while (d := game.decision) is not None and d.kind == "peek":
        game.act(d.seats[0], "seen")
    return game


def test_p3_vote_count_asks_the_secretary_for_the_thumbs_up_and_records_counts_only():
    game = start_counting(7, seed=3)
    sec = secretary(game)
    game.act(sec, DEFENCE)
    d = game.decision
    assert d.kind == "plan_count" and d.seats == (sec,) and not d.secret
    assert d.options == tuple(str(n) for n in range(7)), "P3: 0 to 6 thumbs, all but the secretary"
    game.act(sec, "4")
    view = game.public_view()
    record = view["current"]["proposals"][0]
    assert record["approved"] and view["plan"] == DEFENCE
    assert (record["thumbs_up"], record["thumbs_down"]) == (4, 2)
    assert record["yes"] is None and record["no"] is None


def test_p3_vote_count_a_minority_rejects_and_a_tie_goes_to_the_casting_vote():
    game = start_counting(5, seed=2)
    sec = secretary(game)
    game.act(sec, FINANCE)
    game.act(sec, "1")
    assert game.public_view()["rejected"] == [FINANCE]
    game.act(sec, SECURITY)
    game.act(sec, "2")  # 2 of 4: a tie
    assert game.decision.kind == "casting"
    game.act(sec, YES)
    record = game.public_view()["current"]["proposals"][1]
    assert record["casting"] == YES and record["thumbs_up"] == 2 and record["approved"]


def test_p3_vote_count_refuses_more_thumbs_than_members_with_the_rule():
    game = start_counting(5, seed=2)
    game.act(secretary(game), FINANCE)
    with pytest.raises(IllegalMove, match="P3: the thumbs up are 0 to 4"):
        game.act(secretary(game), "5")


def test_p3_vote_each_records_the_thumb_counts_too():
    game = start(6, seed=2)
    game.act(secretary(game), FINANCE)
    vote(game, set(others(game, 3)))
    record = game.public_view()["current"]["proposals"][0]
    assert (record["thumbs_up"], record["thumbs_down"]) == (3, 2)


@pytest.mark.parametrize("players", SIZES)
def test_vote_count_games_play_to_the_end_with_smart_and_random_bots(players):
    for seed in range(20):
        game = new_game("politburo", players=players, seed=seed, vote="count")
        kind = "smart" if seed % 2 else "random"
        play_out(game, make_bots(game, kind, random.Random(seed)))
        assert game.over
        for record in game.public_view()["history"]:
            for p in record["proposals"]:
                assert p["thumbs_up"] + p["thumbs_down"] == players - 1


def test_smart_secretary_counts_the_thumbs_the_other_bots_show():
    """The count the secretary's bot enters is what the same bots vote seat by seat."""
    for seed in range(10):
        each = new_game("politburo", players=7, seed=seed, vote="each")
        count = new_game("politburo", players=7, seed=seed, vote="count")
        bots_each = make_bots(each, "smart", random.Random(seed))
        bots_count = make_bots(count, "smart", random.Random(seed))
        while each.decision.kind in ("peek", "propose"):
            for g, bots in ((each, bots_each), (count, bots_count)):
                d = g.decision
                g.act(d.seats[0], bots[d.seats[0]].choose(g.view(d.seats[0]), d))
        while each.decision.kind == "plan_vote":
            d = each.decision
            each.act(d.seats[0], bots_each[d.seats[0]].choose(each.view(d.seats[0]), d))
        d = count.decision
        count.act(d.seats[0], bots_count[d.seats[0]].choose(count.view(d.seats[0]), d))
        up = []
        for g in (each, count):
            view = g.public_view()  # the count waits in "thumbs_up" for a casting vote
            pending = view["thumbs_up"]
            up.append(view["current"]["proposals"][-1]["thumbs_up"] if pending is None else pending)
        assert up[0] == up[1]


def test_p3_vote_count_a_pending_casting_vote_survives_save_and_restore():
    game = start_counting(5, seed=2)
    sec = secretary(game)
    game.act(sec, FINANCE)
    game.act(sec, "2")  # a tie: the count waits for the casting vote
    assert game.saveable
    again = restore(json.loads(json.dumps(game.to_record())))
    assert again.public_view() == game.public_view()
    for g in (game, again):
        g.act(sec, NO)
    assert again.public_view() == game.public_view()
    assert again.public_view()["current"]["proposals"][0]["thumbs_up"] == 2
