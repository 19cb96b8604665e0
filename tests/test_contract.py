"""The one game contract, checked on every game the package ships."""

import contextlib
import dataclasses
import json
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import IllegalMove, new_game, restore
from companion.games.frozen import FrozenDict, FrozenList
from tests.conftest import available_games, table_sizes

CASES = [(name, n) for name in available_games() for n in table_sizes(name)]


def random_play(game, rng, record_every=None):
    """Play random legal moves to the end; return the moves made."""
    moves = []
    while (d := game.decision) is not None:
        seat = rng.choice(d.seats)
        choice = rng.choice(d.options)
        game.act(seat, choice)
        moves.append((seat, choice))
    return moves


_PUBLIC = object()  # no key's value in a public view


def views_as_json(game, but=None):
    """The public view and every seat's view (but ``but``'s) as JSON data, keys in the views'
    own order. A seat's view holds the public view's entries (the very objects) beside its
    own: such an entry is written ``null`` under its key rather than encoded again, its own
    entries ``[value]``. The public data is encoded once rather than once a seat; equal JSON
    of two games still means equal JSON of every view (a view built otherwise reads as a
    difference: stricter, never looser)."""
    public = game.public_view()
    seats = [
        {key: None if value is public.get(key, _PUBLIC) else [value] for key, value in view.items()}
        for view in (game.view(s) for s in range(game.players) if s != but)
    ]
    return [public, seats]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_same_seed_same_choices_same_game(name, players):
    a = new_game(name, players=players, seed=11)
    b = new_game(name, players=players, seed=11)
    moves = random_play(a, random.Random(5))
    for seat, choice in moves:
        assert b.decision is not None
        b.act(seat, choice)
    assert b.over
    assert a.public_view() == b.public_view()
    assert a.result == b.result


@pytest.mark.parametrize(("name", "players"), CASES)
def test_views_are_json_ready_and_over_means_no_decision(name, players):
    game = new_game(name, players=players, seed=2)
    rng = random.Random(3)
    while (d := game.decision) is not None:
        json.dumps(views_as_json(game))  # every seat's view, each part written once
        json.dumps(d.to_json())
        game.act(rng.choice(d.seats), rng.choice(d.options))
    assert game.over and game.result is not None
    assert game.result.winners <= set(range(players))
    json.dumps(game.public_view())
    json.dumps(game.result.to_json())


@pytest.mark.parametrize(("name", "players"), CASES)
def test_illegal_moves_change_nothing(name, players):
    game = new_game(name, players=players, seed=7)
    rng = random.Random(8)
    while (d := game.decision) is not None:
        before = (game.public_view(), [game.view(s) for s in range(players)], d)
        outsider = next((s for s in range(players) if s not in d.seats), None)
        if outsider is not None:
            with pytest.raises(IllegalMove):
                game.act(outsider, d.options[0])
        with pytest.raises(IllegalMove):
            game.act(d.seats[0], "no such choice")
        with pytest.raises(IllegalMove):
            game.act(players, d.options[0])
        assert (game.public_view(), [game.view(s) for s in range(players)], game.decision) == before
        game.act(rng.choice(d.seats), rng.choice(d.options))
    with pytest.raises(IllegalMove, match="over"):
        game.act(0, "anything")


@pytest.mark.parametrize(("name", "players"), CASES)
def test_saved_record_restores_the_same_game_at_every_safe_point(name, players):
    game = new_game(name, players=players, seed=21)
    rng = random.Random(22)
    saved = 0
    while True:
        if game.saveable:
            record = json.loads(json.dumps(game.to_record()))
            assert record == game.to_record(), "state must be JSON types only"
            twin = restore(record)
            assert twin.public_view() == game.public_view()
            assert [twin.view(s) for s in range(players)] == [game.view(s) for s in range(players)]
            assert twin.decision == game.decision
            # Two restored copies continue identically, chance included.
            a, b = restore(record), twin
            probe_rng = random.Random(saved)
            for _ in range(4):
                if (d := a.decision) is None:
                    break
                move = (probe_rng.choice(d.seats), probe_rng.choice(d.options))
                a.act(*move)
                b.act(*move)
                assert a.public_view() == b.public_view()
            saved += 1
        else:
            with pytest.raises(ValueError, match="ballot"):
                game.to_record()
        d = game.decision
        if d is None:
            break
        game.act(rng.choice(d.seats), rng.choice(d.options))
    assert saved > 0


@pytest.mark.parametrize("name", available_games())
def test_wrong_table_sizes_and_options_are_refused_clearly(name):
    from companion.games import game_class

    cls = game_class(name)
    with pytest.raises(ValueError, match="players"):
        new_game(name, players=cls.max_players + 1, seed=1)
    with pytest.raises(ValueError, match="players"):
        new_game(name, players=cls.min_players - 1, seed=1)
    with pytest.raises(ValueError, match="no option"):
        new_game(name, players=cls.min_players, seed=1, colour="mauve")


def test_unknown_game_is_named():
    with pytest.raises(ValueError, match="no game called 'chess'"):
        new_game("chess", players=4)


def test_restore_refuses_a_damaged_record():
    game = new_game("gulag", players=5, seed=1)
    record = game.to_record()
    del record["state"]["canal"]
    with pytest.raises(ValueError, match="does not match"):
        restore(record)
    with pytest.raises(ValueError, match="not a saved game"):
        restore({"nonsense": 1})


@pytest.mark.parametrize(("name", "players"), CASES)
def test_an_open_ballot_shows_nobody_else_what_a_seat_chose(name, players):
    """While a secret ballot is open, the public view and every other seat's view are the
    same whichever option a seat picks (the secrecy property every game gets for free).
    Compared as JSON in the order the views hold their keys: as strict as comparing the
    data (True is not 1) and stricter about order (an order that followed the casts would
    tell them)."""
    game = new_game(name, players=players, seed=31)
    rng = random.Random(32)
    checked = ballots = 0
    while (d := game.decision) is not None:
        ballots += d.secret and d.kind != "peek"
        if d.secret and len(d.seats) > 1 and len(d.options) > 1:
            state = pickle.dumps(game)  # each twin a deep copy of it, made in C
            for seat in d.seats:
                seen = set()
                for option in d.options:
                    twin = pickle.loads(state)
                    twin.act(seat, option)
                    seen.add(json.dumps(views_as_json(twin, but=seat)))
                assert len(seen) == 1, (d.kind, seat)
                checked += 1
        game.act(rng.choice(d.seats), rng.choice(d.options))
    assert checked > 0 or ballots == 0  # Kolkhoz has no ballot: every card is face up


@pytest.mark.parametrize("name", available_games())
def test_every_ui_module_provides_every_hook_with_its_signature(name):
    """The ui protocol, checked at run time too: every hook there, with the protocol's
    parameters (a misspelt or missing hook fails here, not at a table)."""
    import inspect

    from companion.ui import game_ui
    from companion.ui.contract import GameUI

    ui = game_ui(name)
    hooks = [h for h in dir(GameUI) if not h.startswith("_")]
    assert {"tracker", "refusal", "choice_label", "option_detail", "peek"} <= set(hooks)
    for hook in hooks:
        assert hasattr(ui, hook), f"{name} has no {hook}"
        wanted = getattr(GameUI, hook)
        if callable(wanted):
            params = list(inspect.signature(wanted).parameters)[1:]  # without self
            assert list(inspect.signature(getattr(ui, hook)).parameters) == params, hook
    for constant in GameUI.__annotations__:
        assert hasattr(ui, constant), f"{name} has no {constant}"


def vandalize(value):
    """Do everything a careless caller might to a view: overwrite every item of every nested
    list and dict, and add to each. Containers that refuse (frozen ones) are left alone."""
    if isinstance(value, dict):
        for item in list(value.values()):
            vandalize(item)
        for key in [*value, "vandal"]:
            with contextlib.suppress(TypeError, AttributeError):
                value[key] = "vandal"
    elif isinstance(value, list):
        for item in list(value):
            vandalize(item)
        for i in range(len(value)):
            with contextlib.suppress(TypeError, AttributeError):
                value[i] = "vandal"
        with contextlib.suppress(TypeError, AttributeError):
            value.append("vandal")


def saved(game):
    """Everything the game holds, as text: its record, or its state while a ballot is open."""
    if game.saveable:
        return json.dumps(game.to_record(), sort_keys=True)
    return json.dumps(dataclasses.asdict(game.s), sort_keys=True)


def all_views(game):
    return [game.public_view(), *(game.view(s) for s in range(game.players))]


@pytest.mark.parametrize(("name", "players"), CASES)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), steps=st.sets(st.integers(0, 300), max_size=5))
def test_a_caller_cannot_change_the_game_through_a_view(name, players, seed, steps):
    """Views are shared by every reader, so nothing in one may change: whatever a caller does
    to a returned view (every nested list and dict overwritten and added to), later views and
    the saved record are unchanged. Checked at some steps of a random game and at its end."""
    game = new_game(name, players=players, seed=seed)
    rng = random.Random(seed)
    step = 0
    while True:
        if step in steps or game.over:
            views = all_views(game)
            before = json.dumps(views, sort_keys=True), saved(game), game.decision
            vandalize(views)
            after = json.dumps(all_views(game), sort_keys=True), saved(game), game.decision
            assert after == before
        if (d := game.decision) is None:
            break
        game.act(rng.choice(d.seats), rng.choice(d.options))
        step += 1


@pytest.mark.parametrize(("name", "players"), CASES)
def test_views_are_worked_out_once_a_state_and_shared(name, players):
    """Every reader of a state (table, TV, phones, bots, journal) gets the very same view
    object until the next move; a move, any move, gives new views that show it."""
    game = new_game(name, players=players, seed=7)
    rng = random.Random(7)
    while (d := game.decision) is not None:
        public = game.public_view()
        seat = rng.choice(d.seats)
        own = game.view(seat)
        assert game.public_view() is public and game.view(seat) is own
        assert own["seat"] == seat and public["waiting"]["seats"] == list(d.seats)
        game.act(seat, rng.choice(d.options))
        assert game.public_view() is not public and game.view(seat) is not own
        after = game.decision
        waiting = game.public_view()["waiting"]
        assert waiting is None if after is None else waiting["seats"] == list(after.seats)


def unfrozen(value, path="view", checked=None):
    """Where in ``value`` a container could still be changed (or is a tuple, which JSON
    turns into a list), or None when every list and dict in it is frozen.

    The path is written out only for what is found. ``checked`` (by id) holds containers
    already found frozen all the way down, which cannot change and stay alive there (so
    no id is reused): the views of one game share most of their entries, from seat to
    seat and from move to move, and each is walked once."""
    kind = type(value)
    if kind is FrozenDict:
        items = value.items()
    elif kind is FrozenList:
        items = enumerate(value)
    elif isinstance(value, (dict, list, tuple)):
        return path
    else:
        return None
    if checked is not None and id(value) in checked:
        return None
    for key, item in items:
        if isinstance(item, (dict, list, tuple)):
            where = unfrozen(item, "", checked)
            if where is not None:
                return f"{path}[{key!r}]{where}"
    if checked is not None:
        checked[id(value)] = value
    return None


@pytest.mark.parametrize(("name", "players"), CASES)
def test_views_are_built_frozen_all_the_way_down(name, players):
    """Every reader shares one view a state, so no list or dict in any view may be changed
    by a reader; the games build them frozen (no walk freezes a view afterwards), at every
    step of a random game and at its end. The check can fail: a plain list is found."""
    assert unfrozen(FrozenDict(a=FrozenList([1, FrozenDict(b=[2])]))) == "view['a'][1]['b']"
    assert unfrozen(FrozenList([FrozenDict(c=(3,))]), checked={}) == "view[0]['c']"
    game = new_game(name, players=players, seed=5)
    rng = random.Random(5)
    checked = {}
    while True:
        for seat, view in enumerate(all_views(game), start=-1):
            assert unfrozen(view, checked=checked) is None, (seat, game.decision, unfrozen(view))
        if (d := game.decision) is None:
            break
        game.act(rng.choice(d.seats), rng.choice(d.options))


def test_a_copy_works_its_views_out_anew():
    """A copy takes the state, not the views worked out from it: a what-if copy changed by
    hand shows its change (and the original does not)."""
    import copy

    game = new_game("gulag", players=5, seed=2)
    assert game.public_view()["canal"] == 0 and game.view(1)["canal"] == 0
    for twin in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        twin.s.canal = 4
        assert twin.public_view()["canal"] == 4 and twin.view(1)["canal"] == 4
    assert game.public_view()["canal"] == 0


@pytest.mark.parametrize("name", available_games())
def test_random_bots_build_no_view(name, monkeypatch):
    """A view nobody reads is never built: random bots read none, so a whole game of them
    works out none (the public facts of every game pass through ``public_view``)."""
    from companion.bots import make_bots, play_out
    from companion.games.base import Game

    game = new_game(name, players=table_sizes(name)[0], seed=3)
    built = []
    monkeypatch.setattr(Game, "_public_view", lambda self: built.append(1))
    play_out(game, make_bots(game, "random", random.Random(3)))
    assert built == []
    monkeypatch.undo()
    assert game.public_view()["result"] == game.result.to_json()  # and one read builds one


@pytest.mark.parametrize(("name", "players"), CASES)
def test_bools_are_not_seats(name, players):
    """``True == 1`` in Python, but ``True`` is no seat: refused by every door that takes one."""
    game = new_game(name, players=players, seed=41)
    rng = random.Random(42)
    while (d := game.decision) is not None:
        for fake in (False, True):
            with pytest.raises(ValueError, match="no seat"):
                game.view(fake)
            with pytest.raises(IllegalMove, match="no seat"):
                game.act(fake, d.options[0])
        if game.ballot is not None:
            for fake in (False, True):
                with pytest.raises(IllegalMove):
                    game.ballot.cast(fake, d.options[0])
        game.act(rng.choice(d.seats), rng.choice(d.options))
