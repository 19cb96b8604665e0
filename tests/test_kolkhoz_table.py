"""Kolkhoz at the table: the box as the planner's clerk, driven only by mock button presses.

With real cards (deal "cards") the box never sees a hand: the demo's bots play
a hidden twin game dealt by the box with the same seed (the real cards) and
enter it on the virtual box. Kolkhoz has no secret choice (every card is
played face up), so there is no ballot and no swap test.
"""

import random
import re

import pytest

from companion.box import VirtualClock, open_box
from companion.demo import GAP, Player, play
from companion.games import new_game
from companion.games.kolkhoz import screens as kolkhoz_ui
from companion.games.kolkhoz.bots import Twin
from companion.games.kolkhoz.cards import suit_of
from companion.table import Settings, Table
from companion.table.modes import Announce, Cursor, Handoff
from companion.ui.canvas import render
from companion.ui.i18n import translator
from tests.tables import every_screen_fits_and_says_who, lit_bar, match_references

CARDS = {"deal": "cards"}


def demo(box, lang="en", seed=5, deal="cards"):
    twins = []

    def bots(game, rng):
        from companion.games.kolkhoz.bots import make_bots

        made = make_bots(game, rng)
        twins.extend(b.twin for b in made[:1] if hasattr(b, "twin"))
        return made

    run = play(Settings("kolkhoz", 4, lang, {"deal": deal}), seed=seed, bots=bots, box=box)
    return run, (twins[0].game if twins else None)


def test_a_five_year_plan_entered_by_presses_scores_as_the_dealt_twin(box):
    """K1, K6: bots play five years on real cards; the clerk's book ends as the dealt game."""
    run, twin = demo(box, seed=5)
    game = run.table.game
    assert game.over and twin.over
    view, truth = game.public_view(), twin.public_view()
    assert len(view["history"]) == 5
    assert view["scores"] == truth["scores"]
    assert game.result.winners == twin.result.winners
    assert view["plots"] == truth["plots"] and view["north"] == truth["north"]
    for mine, real in zip(view["history"], truth["history"], strict=True):
        assert mine == real  # every year: trump, jobs, brigadiers, completions, requisitions
    final = kolkhoz_ui.final(view, translator("en"))[0]
    assert box.board.glass().tobytes() == render(final).tobytes()
    assert run.presses > 300


def test_the_demo_by_the_box_deals_and_plays_too(box):
    """deal "box": the box deals, each seat picks its card on the box; a whole game."""
    run, _ = demo(box, seed=2, deal="box")
    assert run.table.game.over and len(run.table.game.public_view()["history"]) == 5


def started(box, seed, lang="en"):
    table = Table(box, seed=seed, lang=lang)
    table.start(Settings("kolkhoz", 4, lang, CARDS))
    player = Player(box, table, box.clock)
    player.wait(GAP)
    return table, player


def settle(table, player):
    """Take the box / read the announcements until a question is on screen."""
    while isinstance(table.mode, Handoff | Announce):
        player.press("ok")


def enter(table, player, cards):
    for card in cards:
        settle(table, player)
        player.answer(suit_of(card))
        player.answer(card)
    settle(table, player)


def refusal(table):
    shown = table.screen()
    assert shown.status == "Not allowed"
    return " ".join(shown.body)


def test_a_complete_year_entered_by_presses_matches_the_engine(box):
    """2a-2d, K3-K5: the first year of a dealt game, entered press by press, gives its summary."""
    seed = 8
    truth = new_game("kolkhoz", seed=seed, deal="box")  # the real cards: dealt by the box
    table, player = started(box, seed)
    twin = Twin(table.game, random.Random(seed))
    while len(table.game.public_view()["history"]) < 1:
        settle(table, player)
        d = table.game.decision
        player.answer(twin.answer(table.game.view(d.seats[0]), d))
    real = twin.game.public_view()["history"][0]
    assert table.game.public_view()["history"][0] == real
    # The box revealed the job cards a game it deals itself reveals with that seed.
    rewards = {suit: job["reward"] for suit, job in truth.public_view()["jobs"].items()}
    assert {suit: job["reward"] for suit, job in real["jobs"].items()} == rewards
    pv = table.game.public_view()
    assert pv["year"] == 2 and pv["deck"] == twin.game.public_view()["deck"]
    assert pv["plots"] == twin.game.public_view()["plots"]


def first_trick(box):
    """Trump clubs; trick 1 led by seat 2: 6H, seat 3 plays 7S (no hearts), 8H, 9H."""
    table, player = started(box, seed=4)
    settle(table, player)
    player.answer("clubs")
    enter(table, player, ["6H"])
    return table, player


def test_a_card_seen_twice_is_refused_on_screen(box):
    table, player = first_trick(box)
    player.answer("hearts")
    player.answer("6H")  # seat 3 cannot play seat 2's card
    assert "6H is seen twice: it was played in this trick by seat 2" in refusal(table)
    player.press("ok")
    assert table.game.public_view()["trick"] == [{"seat": 1, "card": "6H"}]


def test_a_revoke_is_refused_on_screen(box):
    """2b: players follow suit if able: seat 3 did not follow hearts, so holds none."""
    table, player = first_trick(box)
    enter(table, player, ["7S", "8H", "9H"])  # seat 1 wins with 9H and leads
    assert table.game.public_view()["history"] == []
    assert table.game.decision.seats == (0,)
    enter(table, player, ["6D", "7D"])
    player.answer("hearts")  # seat 3 shows hearts after not following them
    assert "follow suit: seat 3 did not follow hearts in trick 1" in refusal(table)


def test_a_trump_lead_before_trump_is_played_binds_the_hand(box):
    """2b: no trump lead until played, unless the hand holds nothing else."""
    table, player = first_trick(box)
    enter(table, player, ["7S", "8H", "9H"])
    enter(table, player, ["6C"])  # seat 1 leads trump: it must hold only trump
    enter(table, player, ["7C", "8C", "9C"])  # seat 4 wins with the 9C
    d = table.game.decision
    assert d.kind == "assign" or table.game.public_view()["leader"] == 3
    while table.game.decision.kind == "assign":
        settle(table, player)
        player.answer("clubs")
    enter(table, player, ["10D"])  # seat 4 leads, seat 1 follows
    assert table.game.public_view()["turn"] == 0
    player.answer("diamonds")  # a diamond from seat 1, who had only trump
    assert "seat 1 led trump in trick 2 before it was played" in refusal(table)


def test_back_undoes_a_suit_entered(box):
    table, player = first_trick(box)
    player.answer("spades")
    assert table.game.decision.kind == "card"
    player.press("back")
    assert table.game.decision.kind == "suit"


def dealt_by_the_box(box, seed, lang="en"):
    table = Table(box, seed=seed, lang=lang)
    table.start(Settings("kolkhoz", 4, lang, {"deal": "box"}))
    player = Player(box, table, box.clock)
    player.wait(GAP)
    return table, player


def hand_line(hand):
    """The seat's hand as its prompt labels it: one of its secrets (``Private``)."""
    spaced = "Hand " + kolkhoz_ui.cards_label(hand)
    return spaced if len(spaced) <= 21 else "Hand " + "".join(map(kolkhoz_ui.card_label, hand))


def test_with_the_box_dealing_each_seat_sees_its_whole_hand_and_the_year(box):
    """deal "box": the planner sees the hand before trump (the deal comes first), every
    seat its whole hand at its card (the ones it may not play marked, and refused with the
    rule), the brigadier the hours of each job; the hand-over screen carries the year, and
    each trick's screen the tricks each seat has won so far."""
    from companion.bots import make_bots

    t = translator("en")
    table, player = dealt_by_the_box(box, seed=3)
    bots = make_bots(table.game, "smart", random.Random(3))
    seen = {"trump": 0, "play": 0, "assign": 0, "marked": 0, "handoff": 0}
    tally = [0, 0, 0, 0]
    while len(table.game.public_view()["history"]) < 1:
        game = table.game
        view = game.public_view()
        if isinstance(table.mode, Handoff):
            body = table.screen().body
            if view["trump"] is None:
                assert body[-1] == "Jobs " + kolkhoz_ui.jobs_line(view)
            else:  # hours so far, a job done ticked
                assert body[-1] == kolkhoz_ui.hours_line(view)
                seen["handoff"] += 1
            player.press("ok")
            continue
        if isinstance(table.mode, Announce):
            body = table.screen().body
            if (won := re.fullmatch(r"Seat (\d) wins trick (\d)\.", body[1])) is not None:
                tally[int(won[1]) - 1] += 1  # the running year: each seat's tricks so far
                assert int(won[2]) == sum(tally)
                assert body[2] == "Won " + " ".join(f"{i + 1}:{k}" for i, k in enumerate(tally))
            player.press("ok")
            continue
        d = game.decision
        seat = d.seats[0]
        hand = game.view(seat)["hand"]
        body = table.screen().body
        assert table.mode.seat == seat == table.holder
        if d.kind == "trump":
            assert len(hand) == view["hand_size"] == 5  # dealt before the planner chooses
            assert body[:2] == ("Seat 1: trump?", hand_line(hand))
        elif d.kind == "play":
            assert body[1] == hand_line(hand)  # the whole hand, always, labelled
            assert sorted(table.mode.options) == sorted(hand)
            assert table.mode.options[: len(d.options)] == d.options  # the playable first
            if len(d.options) < len(hand):
                seen["marked"] += 1
                for _ in range(len(d.options) - table.mode.at):
                    player.press("up")  # onto the first card it may not play
                label = table.screen().body[-1]
                card = kolkhoz_ui.card_label(table.mode.options[table.mode.at])
                lead = view["lead_suit"]
                why = (
                    t("{card}: follow {sign}").format(card=card, sign=kolkhoz_ui.SIGN[lead])
                    if lead
                    else t("{card}: no trump yet").format(card=card)
                )
                assert label == f"▲ {why} ▼"
                player.press("ok")
                assert table.screen().status == "Not allowed"
                sign = kolkhoz_ui.SIGN[lead or view["trump"]]
                assert " ".join(table.screen().body) == (
                    f"2b: follow suit: seat {seat + 1} holds {sign}."
                    if lead
                    else f"2b: seat {seat + 1} may not lead trump {sign} before it is played."
                )
                player.press("ok")
                assert isinstance(table.mode, Cursor), table.mode
                assert table.game.decision == d
        elif d.kind == "assign":  # the hand, then the card going on into the job's cursor
            card = kolkhoz_ui.card_label(view["to_assign"][0])
            assert body[:2] == (hand_line(hand), f"Seat {seat + 1}: {card} goes to")
            labels = []
            for _ in range(4):
                labels.append(table.screen().body[-1])
                player.press("down")
            for suit in ("hearts", "diamonds", "clubs", "spades"):
                job = view["jobs"][suit]
                hours = "✓" if job["done"] else f"{job['hours']}h"
                assert f"▲ {kolkhoz_ui.option_label(suit, t)} {hours} ▼" in labels
            for _ in range(4):
                player.press("up")
        seen[d.kind] += 1
        player.answer(bots[seat].choose(game.view(seat), d))
    assert seen["trump"] == 1 and seen["play"] == 16 and seen["handoff"] > 10
    assert sum(tally) == 4 and tally.count(0) < 4  # K3: a hand of 5 plays 4 tricks
    assert seen["marked"] > 0 and seen["assign"] > 0


def test_with_the_box_dealing_the_demo_stays_within_300_presses():
    box = open_box("virtual", clock=VirtualClock())
    try:
        run, _ = demo(box, seed=3, deal="box")
    finally:
        box.close()
    assert run.table.game.over and run.presses <= 300


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("seed", "deal"), [(3, "cards"), (7, "box")])
def test_every_screen_fits_and_says_who_and_what(lang, seed, deal, shown_screens):
    shown = shown_screens
    box = open_box("virtual", clock=VirtualClock())
    try:
        demo(box, lang=lang, seed=seed, deal=deal)
    finally:
        box.close()
    counted = every_screen_fits_and_says_who(shown, 4, ("handoff", "cursor", "announce", "over"))
    assert counted["named"] >= 4


def test_the_bar_shows_the_open_job_nearest_40_hours(box):
    table, player = first_trick(box)
    enter(table, player, ["7S", "8H", "9H"])
    view = table.game.public_view()
    hours = max(j["hours"] for j in view["jobs"].values() if not j["done"])
    assert hours == 6 + 8 + 9 + 0  # the hearts, 23 hours
    assert lit_bar(box) == hours // 4


# -- reference screens -----------------------------------------------------------------
def screens_to_check(lang):
    box = open_box("virtual", clock=VirtualClock())
    try:
        table = Table(box, seed=11, lang=lang)
        player = Player(box, table, box.clock)
        table.step()
        player.setup(Settings("kolkhoz", 4, lang, CARDS))
        shots = {"handoff": box.board.glass()}
        twin = Twin(table.game, random.Random(11))
        while len(table.game.public_view()["history"]) < 1 or isinstance(table.mode, Announce):
            if isinstance(table.mode, Announce):
                top = table.mode.screens[0].body[0]
                if "trick" not in shots:
                    shots["trick"] = box.board.glass()
                elif "year" not in shots and ("Year 1" in top or "l'année 1" in top):
                    shots["year"] = box.board.glass()
                player.press("ok")
                continue
            if isinstance(table.mode, Handoff):
                player.press("ok")
                continue
            d = table.game.decision
            if d.kind in ("trump", "suit", "card", "assign", "reveal") and d.kind not in shots:
                shots[d.kind] = box.board.glass()
            player.answer(twin.answer(table.game.view(d.seats[0]), d))
        return shots
    finally:
        box.close()


def held_peek(player, box, look):
    """What ``look()`` sees while PEEK is held; PEEK is let go after."""
    box.virtual_board.drive("peek", True)
    player.wait(0.2)
    seen = look()
    box.virtual_board.drive("peek", False)
    player.wait(0.2)
    return seen


def screens_dealt_by_the_box(lang):
    """deal "box": the planner's hand at trump, a hand at its card, a card it may not play,
    a hand-over with the hours of the year, and PEEK held by a seat with a hidden plot card."""
    from companion.bots import make_bots

    box = open_box("virtual", clock=VirtualClock())
    try:
        table, player = dealt_by_the_box(box, seed=3, lang=lang)
        bots = make_bots(table.game, "smart", random.Random(3))
        shots = {}
        while len(shots) < 6:
            game = table.game
            if isinstance(table.mode, Handoff):
                if game.public_view()["trick"] and "hours" not in shots:
                    shots["hours"] = box.board.glass()
                player.press("ok")
                continue
            if isinstance(table.mode, Announce):
                player.press("ok")
                continue
            d = game.decision
            if d.kind == "trump":
                shots.setdefault("planner", box.board.glass())
            elif d.kind == "assign":
                shots.setdefault("brigadier", box.board.glass())
            elif d.kind == "play" and "hand" not in shots:
                shots["hand"] = box.board.glass()
            elif (
                d.kind == "play" and game.view(d.seats[0])["plot"]["hidden"] and "peek" not in shots
            ):
                shots["peek"] = held_peek(player, box, box.board.glass)
            elif (
                d.kind == "play"
                and "marked" not in shots
                and len(d.options) < len(table.mode.options)
            ):
                player.press("up")
                player.press("up")
                player.press("up")
                shots["marked"] = box.board.glass()
                player.press("down")
                player.press("down")
                player.press("down")
            player.answer(bots[d.seats[0]].choose(game.view(d.seats[0]), d))
        return shots
    finally:
        box.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_screens_match_the_reference_pictures(lang):
    shots = screens_to_check(lang) | screens_dealt_by_the_box(lang)
    wanted = {"handoff", "trump", "suit", "card", "planner", "hand", "marked", "hours", "peek"}
    wanted |= {"assign", "brigadier"}  # with real cards, and with the box dealing
    assert wanted <= set(shots)
    match_references("kolkhoz", lang, shots)


@pytest.mark.parametrize("deal", ["box", "cards"])
def test_peek_at_a_seats_own_prompt_shows_its_hand_and_hidden_plot(box, deal):
    """deal "box": holding PEEK at its own prompt, a seat rereads its hand and the plot
    cards it hid in earlier years (K3); on a hand-over or a reveal PEEK shows nothing, and
    with real cards the box has nothing to show."""
    from companion.bots import make_bots

    table = Table(box, seed=4, lang="en")
    table.start(Settings("kolkhoz", 4, "en", {"deal": deal}))
    player = Player(box, table, box.clock)
    player.wait(GAP)
    bots = make_bots(table.game, "smart", random.Random(4))
    peeked = 0
    while table.game.public_view()["year"] < 3:
        before = table.screen()
        if not isinstance(table.mode, Cursor):
            held = held_peek(player, box, table.screen)
            assert held == before == table.screen()  # nothing private off a seat's own prompt
            player.press("ok")
            continue
        seat = table.mode.seat
        own = table.game.view(seat)
        held = held_peek(player, box, table.screen)
        assert table.screen() == before
        if deal == "cards":
            assert held.status == "Nothing to read" and held.body == ()
        else:
            assert held.status == f"Seat {seat + 1}'s cards"
            text = " ".join(held.body)
            assert text.startswith("Hand: " + kolkhoz_ui.cards_label(own["hand"]))
            hidden = own["plot"]["hidden"]
            assert text.endswith("Plot: " + (kolkhoz_ui.cards_label(hidden) or "-"))
            # a card a year to the plot, less what requisitions took
            assert len(hidden) < table.game.public_view()["year"]
            peeked += len(hidden) > 0
        player.answer_as(bots)
    assert deal == "cards" or peeked > 5


# -- with the box dealing, nobody is told to deal; the brigadier starts on an open job ------
@pytest.mark.parametrize(("lang", "deal_word"), [("en", r"\b[Dd]eal\b"), ("fr", r"\bDonnez\b")])
def test_with_the_box_dealing_no_screen_says_deal(lang, deal_word, shown_screens):
    import re

    box = open_box("virtual", clock=VirtualClock())
    try:
        demo(box, lang=lang, seed=7, deal="box")
    finally:
        box.close()
    texts = {
        " / ".join((screen.status, *screen.body, screen.keys))
        for mode, screen in shown_screens
        if mode != "setup"  # the form's "Deal: by the box" row names the option
    }
    assert any("Year 2" in t or "Année 2" in t for t in texts)  # the new years were shown
    assert [t for t in texts if re.search(deal_word, t)] == []
    # and with real cards the planner is still told to deal
    shown_screens.clear()
    box = open_box("virtual", clock=VirtualClock())
    try:
        demo(box, lang=lang, seed=3, deal="cards")
    finally:
        box.close()
    texts = {" / ".join((screen.status, *screen.body, screen.keys)) for _, screen in shown_screens}
    assert any(re.search(deal_word, t) for t in texts)


@pytest.mark.parametrize(("seed", "deal"), [(3, "cards"), (7, "box"), (11, "box")])
def test_the_brigadiers_cursor_never_starts_on_a_job_already_done(seed, deal, shown_screens):
    box = open_box("virtual", clock=VirtualClock())
    try:
        demo(box, seed=seed, deal=deal)
    finally:
        box.close()
    starts = []
    previous = None
    for mode, screen in shown_screens:
        asking = mode == "cursor" and any(
            "job?" in line or "goes to" in line for line in screen.body
        )
        if asking and (previous is None or previous.body[:-1] != screen.body[:-1]):
            starts.append(screen)  # a new card to assign: the cursor where it starts
        previous = screen if asking else None
    assert starts, "no trump worker was assigned"
    # the cursor's line shows "✓" on a done job; every start is on an open one
    assert [s for s in starts if "✓" in s.body[-1]] == []
