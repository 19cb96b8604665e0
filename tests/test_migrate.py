"""Saved games of an older format resume on this version, exactly where the facts allow.

Kolkhoz format 2 counts the tricks each seat won this year (shown after each
trick, "Won 1:2 2:0 3:1 4:0"). A format-1 record knows only which seats won at
least one: the count is carried over when it follows from that (nobody or one
seat has won), and is otherwise unknown until the next year, when the screens
show the brigadiers instead of inventing a tally.
"""

import copy
import json
import random

from companion.bots import make_bots, next_move
from companion.box import VirtualClock, open_box
from companion.demo import GAP, Player
from companion.games import new_game, restore
from companion.migrate import upgrade
from companion.store import Journal
from companion.table import Settings, Table
from companion.table.modes import Announce, Cursor
from tests.test_store import sql


def format_1(record):
    """``record`` as the version before per-seat trick counts wrote it."""
    old = copy.deepcopy(record)
    old["format"] = 1
    state = old["state"]
    del state["won"]
    for year in [*state["history"], *([state["closing"]] if state["closing"] else [])]:
        del year["won"]
    return old


def kolkhoz_records(seed, deal="box"):
    """Every saved step of a whole bot game, with the moves between them."""
    game = new_game("kolkhoz", seed=seed, deal=deal)
    bots = make_bots(game, "smart", random.Random(seed))
    steps = [(game.to_record(), None)]
    while (move := next_move(game, bots)) is not None:
        game.act(*move)
        steps.append((game.to_record(), move))
    return steps


def test_a_format_1_kolkhoz_record_keeps_every_count_it_can_know():
    seen = {"exact": 0, "unknown": 0}
    for deal in ("box", "cards"):
        for record, _ in kolkhoz_records(seed=11, deal=deal):
            state = record["state"]
            up = upgrade(format_1(record))
            assert up["format"] == 2
            if len(state["brigadiers"]) <= 1:
                seen["exact"] += 1
                assert up["state"]["won"] == state["won"]
                if state["closing"] is not None:
                    assert up["state"]["closing"]["won"] == state["closing"]["won"]
            else:
                seen["unknown"] += 1
                assert up["state"]["won"] is None
                # never a guess: the unknown count is None, the brigadiers are kept
                assert up["state"]["brigadiers"] == state["brigadiers"]
            assert all(year["won"] is None for year in up["state"]["history"])
            for key in set(state) - {"won", "history", "closing"}:
                assert up["state"][key] == state[key], key
    assert seen["exact"] > 50 and seen["unknown"] > 50


def test_a_migrated_kolkhoz_game_plays_on_as_the_unmigrated_one_and_counts_again_next_year():
    steps = kolkhoz_records(seed=12)
    at = next(
        i
        for i, (record, _) in enumerate(steps)
        if len(record["state"]["brigadiers"]) >= 2 and record["state"]["year"] == 2
    )
    game = restore(upgrade(format_1(steps[at][0])))
    assert game.public_view()["won"] is None
    for record, move in steps[at + 1 :]:
        game.act(*move)
        mine = game.to_record()
        if mine["state"]["year"] > 2 or mine["state"]["phase"] == "over":
            assert mine["state"]["won"] == record["state"]["won"]  # a new year: counted
        else:
            assert mine["state"]["won"] is None
    assert game.over and game.to_record()["state"]["plots"] == steps[-1][0]["state"]["plots"]
    assert game.result == restore(steps[-1][0]).result


def one_step(player, table, bots):
    """The bots' answer on a cursor; OK on a hand-over, a reveal or a notice."""
    if isinstance(table.mode, Cursor):
        player.answer_as(bots)
    else:
        player.press("ok")


def won_trick(body):
    return len(body) == 3 and " wins trick " in body[1]


def test_the_box_resumes_a_format_1_kolkhoz_game_and_names_the_brigadiers_it_cannot_count(
    tmp_path,
):
    path = tmp_path / "journal.sqlite"
    box = open_box("virtual", clock=VirtualClock())
    table = Table(box, seed=5, journal=Journal(path))
    player = Player(box, table, box.clock)
    table.step()
    player.setup(Settings("kolkhoz", 4, "en", {"deal": "box"}))
    bots = make_bots(table.game, "smart", random.Random(5))
    while not (
        len(table.game.public_view()["brigadiers"]) >= 2
        and table.game.public_view()["phase"] == "play"
        and not table.game.public_view()["trick"]
    ):
        one_step(player, table, bots)
    brigadiers = table.game.public_view()["brigadiers"]
    box.close()  # the plug is pulled; the saved steps are rewritten as format 1 wrote them
    for n, record in sql(path, "SELECT n, record FROM steps"):
        sql(
            path,
            "UPDATE steps SET record = ?, checksum = NULL WHERE n = ?",  # no checksums then
            json.dumps(format_1(json.loads(record))),
            n,
        )

    box = open_box("virtual", clock=VirtualClock())
    table = Table(box, seed=1, journal=Journal(path))
    try:
        assert table.resume()
        player = Player(box, table, box.clock)
        table.step()
        shown = []
        year = table.game.public_view()["year"]
        while table.game.public_view()["year"] == year:
            if isinstance(table.mode, Announce):
                shown.append(table.screen().body)
            one_step(player, table, bots)
        tricks = [body for body in shown if won_trick(body)]
        assert tricks and all(body[2].startswith("Brigadiers: ") for body in tricks)
        named = {int(seat) - 1 for seat in tricks[0][2].split()[1:]}
        assert set(brigadiers) <= named  # those before the plug, and the trick's winner
        while not (isinstance(table.mode, Announce) and won_trick(table.screen().body)):
            one_step(player, table, bots)
        won = table.screen().body[2]  # the new year's first trick is counted again
        assert won.startswith("Won ")
        assert sum(int(pair.split(":")[1]) for pair in won.split()[1:]) == 1
    finally:
        box.close()


def glasnost_format_1(record):
    """``record`` as the version that asked the coup question one leader at a time wrote it:
    no countdown option; at a question, the leader asked (``leader``) and the one after."""
    old = copy.deepcopy(record)
    old["format"] = 1
    del old["options"]["countdown"]
    state = old["state"]
    if state["phase"] == "coup_offer":
        state["leader"], state["leaders"] = state["leaders"][0], state["leaders"][1:]
        if old.get("ballot") is not None:
            old["ballot"]["options"] = ["coup", "no"]
    return old


def test_the_box_resumes_a_format_1_glasnost_game_at_its_coup_question_asking_both_leaders(
    tmp_path,
):
    """Glasnost format 2 asks both leaders one question: a journal written by format 1 at a
    question resumes on the one countdown, and the leader's claim is his coup."""
    from companion.table.modes import Countdown
    from tests.test_glasnost_table import (
        BEAR,
        DOLL,
        EXAMPLE_SEED,
        GORBACHEV,
        MEDAL,
        answer_all,
        claim,
        give,
        read_peeks,
        wait_out,
    )

    path = tmp_path / "journal.sqlite"
    box = open_box("virtual", clock=VirtualClock())
    table = Table(box, seed=EXAMPLE_SEED, journal=Journal(path))
    table.start(Settings("glasnost", 5, "en", {"crises": "fixed"}))
    player = Player(box, table, box.clock)
    player.wait(GAP)
    read_peeks(table, player)
    for place in (1, 13, 6, 9, 2):
        give(table, player, place - 1)
    answer_all(table, player, {MEDAL: "yes", BEAR: "yes", DOLL: "yes"})
    assert isinstance(table.mode, Countdown)
    box.close()  # the plug is pulled during the countdown; format 1 wrote the steps
    for n, record in sql(path, "SELECT n, record FROM steps"):
        sql(
            path,
            "UPDATE steps SET record = ?, checksum = NULL WHERE n = ?",
            json.dumps(glasnost_format_1(json.loads(record))),
            n,
        )
    box = open_box("virtual", clock=VirtualClock())
    try:
        table = Table(box, seed=1, journal=Journal(path))
        assert table.resume()
        player = Player(box, table, box.clock)
        while not isinstance(table.mode, Countdown):
            player.press("ok")  # "the vote starts again"
        assert table.game.public_view()["asking"] == ["Gorbachev", "Kryuchkov"]
        assert table.screen().body[:2] == ("A coup by Gorbachev", "or by Kryuchkov?")
        claim(table, player, BEAR, GORBACHEV)
        shown = wait_out(table, player)
        assert (shown[0].body, shown[0].big) == (("Seat 2, Gorbachev:",), "COUP!")
    finally:
        box.close()


def test_every_migrated_step_keeps_the_invariants():
    """No false alarm after an upgrade: a format-1 game's steps, brought up to date, keep
    every invariant their game declares (a count the old format cannot give is None)."""
    from companion.games.shape import broken_invariants, check_record
    from tests.mutants import saved_steps

    older = [
        format_1(record)
        for seed, deal in ((1, "box"), (2, "cards"))
        for record, _ in kolkhoz_records(seed, deal)
    ]
    older += [glasnost_format_1(record) for record in saved_steps("glasnost", 3)[1]]
    for record in older:
        upgraded = upgrade(record)
        check_record(upgraded)
        assert broken_invariants(upgraded) == [], upgraded["state"]["phase"]
