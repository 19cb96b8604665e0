"""Politburo at the table: the box in the middle, played only by pressing its buttons."""

import random

import pytest

from companion.bots import RandomBot, make_bots, play_out
from companion.box import VirtualClock, open_box
from companion.demo import Player, play
from companion.games import new_game
from companion.games.politburo import screens as politburo_ui
from companion.games.politburo.rules import DONE, LEFT, NO, REFORM, REPRESS, RIGHT, YES
from companion.table import Settings, Table
from companion.table.modes import Announce, Choose, Cursor, Handoff, Peek
from companion.ui.canvas import Screen, overflow, render, wrap
from companion.ui.i18n import translator
from tests.tables import every_screen_fits_and_says_who, lit_bar, match_references, started


class Scripted:
    """Bots that reach a purge every round: all approve, the first three legal
    seats execute, two repress and one reforms, nobody is replaced."""

    cards = (REPRESS, REPRESS, REFORM)

    def __call__(self, game, rng):
        return [self] * game.players

    def choose(self, view, decision):
        kind = decision.kind
        if kind == "plan_vote" or kind == "casting":
            return YES
        if kind == "plan_count":
            return decision.options[-1]
        if kind == "replace":
            return DONE
        if kind == "execute":
            return self.cards[view["executors"].index(view["seat"])]
        if kind == "point":
            return LEFT
        return decision.options[0]


def advance(table, player, bots, until, execution=None):
    """Press through the game until the decision ``until`` waits on its own screen
    (and, if given, the execution has that number)."""
    while True:
        d = table.game.decision
        number = table.game.public_view()["execution"]
        if (
            d.kind == until
            and isinstance(table.mode, Cursor | Choose | Peek)
            and execution in (None, number)
        ):
            return
        if isinstance(table.mode, Handoff | Announce):
            player.press("ok")
            continue
        seat = d.seats[0]
        player.answer(bots[seat].choose(table.game.view(seat), d))


# -- whole games ----------------------------------------------------------------------
@pytest.mark.parametrize(("players", "vote"), [(7, "each"), (6, "count")])
def test_a_whole_game_by_button_presses_only_matches_the_engine(box, players, vote):
    """The game played through the buttons is the one the engine plays with the same bots."""
    seed = 5
    run = play(Settings("politburo", players, "en", {"vote": vote}), seed=seed, box=box)
    game = run.table.game
    assert game.over and run.presses > 100
    twin = new_game("politburo", players=players, seed=seed, vote=vote)
    play_out(twin, make_bots(twin, "smart", random.Random(seed)))
    assert game.public_view() == twin.public_view()
    view = game.public_view()
    assert len(view["history"]) == players  # P2
    # The last screen is the result's first page, as the panel shows it.
    final = politburo_ui.final(view, translator("en"))[0]
    assert box.board.glass().tobytes() == render(final).tobytes()
    # The LED bar counts the rounds.
    assert lit_bar(box) == players
    # Every reveal the table saw went to the log.
    assert sum("shown: Execution" in line for line in run.log) == sum(
        len(r["executions"]) for r in view["history"]
    )


# -- secrecy -----------------------------------------------------------------------------
class ForcedExecutors:
    """Random bots, except that in round 1 executions 1 and 2 the executors play ``cards``
    by their place among the executors."""

    def __init__(self, cards, seed):
        self.cards = cards
        self.rng = random.Random(seed)

    def __call__(self, game, rng):
        outer = self

        class Bot:
            def choose(self, view, decision):
                if decision.kind == "execute" and view["round"] == 1 and view["execution"] < 3:
                    return outer.cards[view["executors"].index(view["seat"])]
                return RandomBot(outer.rng).choose(view, decision)

        return [Bot() for _ in range(game.players)]


@pytest.mark.parametrize("vote", ["each", "count"])
def test_p5_swapping_two_executors_cards_changes_no_frame_blink_beep_or_log_line(vote):
    """P5: executions 1 and 2 are shuffled; the box shows the same thing whoever played what."""

    def run(cards):
        box = open_box("virtual", clock=VirtualClock())
        try:
            settings = Settings("politburo", 7, "en", {"vote": vote})
            return play(settings, seed=9, bots=ForcedExecutors(cards, 4), box=box)
        finally:
            box.close()

    a = run((REPRESS, REFORM, REPRESS))
    b = run((REFORM, REPRESS, REPRESS))
    assert a.frames == b.frames
    assert a.trace == b.trace
    assert a.log == b.log
    record = a.table.game.public_view()["history"][0]
    assert [e["number"] for e in record["executions"]][:2] == [1, 2]
    assert any("execute recorded" in line for line in a.log)
    # ... and the runs really differ when the counts differ.
    c = run((REPRESS, REPRESS, REPRESS))
    assert c.frames != a.frames


def test_every_secret_choice_gets_the_same_feedback_and_frames():
    """A then OK and B then OK: the same blink, beep and screens, for a card and a pointing."""

    def secret_choice(kind, button):
        b = open_box("virtual", clock=VirtualClock())
        table, player = started(b, Settings("politburo", 5, "en"), 1)
        advance(table, player, Scripted()(table.game, None), kind)
        start = len(b.outputs.trace)
        glass = []
        for press in (button, "ok"):
            player.press(press)
            glass.append(b.board.glass().tobytes())
        trace = b.outputs.trace[start:]
        b.close()
        return trace, glass

    for kind in ("execute", "point"):
        a, b_ = secret_choice(kind, "choice_a"), secret_choice(kind, "choice_b")
        assert a == b_, kind
        assert any("buzzer 1" in line for line in a[0])


def test_p7_each_executor_sees_which_seat_left_and_right_mean(box):
    """P7: the pointing screen names the two other executors, on that executor's turn only."""
    table, player = started(box, Settings("politburo", 7, "en"), 2)
    advance(table, player, Scripted()(table.game, None), "point")
    seat = table.game.decision.seats[0]
    sides = table.game.view(seat)["point_at"]
    shown = table.screen()
    assert shown.body == (
        f"Seat {seat + 1}, point at:",
        f"left: seat {sides[LEFT] + 1}",
        f"right: seat {sides[RIGHT] + 1}",
    )
    assert shown.keys == "A: left  B: right"


def test_p6_third_execution_tells_each_executor_its_card_number(box):
    table, player = started(box, Settings("politburo", 7, "en"), 2)
    bots = Scripted()(table.game, None)
    advance(table, player, bots, "execute", execution=3)
    view = table.game.public_view()
    seat = table.game.decision.seats[0]
    order = sorted(view["executors"], key=lambda e: (e - view["secretary"]) % 7)
    assert table.screen().body[2] == f"your card: number {order.index(seat) + 1}"


def test_p7_after_the_purge_the_cards_pointing_and_losses_are_announced(box):
    table, player = started(box, Settings("politburo", 5, "en"), 3)
    bots = Scripted()(table.game, None)
    advance(table, player, bots, "point")
    for _ in range(3):
        advance(table, player, bots, "point")
        player.answer(LEFT)
    assert isinstance(table.mode, Announce)
    purge = table.game.public_view()["history"][0]["purge"]
    texts = [s.body for s in table.mode.screens]
    cards = tuple(
        f"{i + 1} seat {seat + 1}: {'Repress' if card == REPRESS else 'Reform'}"
        for i, (seat, card) in enumerate(zip(purge["executors"], purge["cards"], strict=True))
    )
    assert cards in texts
    assert any(body[0] == f"Deviant: seat {purge['deviant'] + 1}." for body in texts)
    influence = "".join(str(i) for i in table.game.public_view()["influence"])
    assert any(body[-1] == f"Influence {influence}" for body in texts)


# -- refusals, undo, peeks -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "rule"),
    [
        ("en", "P4: the general secretary cannot appoint themself"),
        ("fr", "P4 : le secrétaire général ne peut pas se nommer lui-même"),
    ],
)
def test_p4_appointing_yourself_is_refused_on_screen_in_the_tables_language(box, lang, rule):
    table, player = started(box, Settings("politburo", 7, lang), 2)
    advance(table, player, Scripted()(table.game, None), "appoint")
    secretary = table.game.public_view()["secretary"]
    steps = table.mode.options.index(secretary) - table.mode.at  # refused: after the legal ones
    for _ in range(steps):
        player.press("up")
    player.press("ok")
    shown = table.screen()
    assert shown.status == translator(lang)("Not allowed")
    assert rule in " ".join(shown.body)
    assert overflow(shown) == []
    assert table.game.public_view()["executors"] == []
    player.press("ok")
    assert table.screen().status.startswith("Round 1/7 " if lang == "en" else "Tour 1/7 ")


def test_every_refusal_a_table_can_meet_is_translated_and_fits():
    """Each real refusal is written from its code and facts, in French as in English."""
    game = new_game("politburo", players=10, seed=1, vote="each")
    while game.decision.kind == "peek":
        game.act(game.decision.seats[0], "seen")
    sec = game.public_view()["secretary"]
    game.act(sec, "defence")
    for seat in game.decision.seats:
        game.act(seat, NO)
    messages = []

    def refused(choice):
        try:
            game.act(sec, choice)
        except ValueError as exc:
            messages.append(exc)

    refused("defence")  # P3: rejected
    game.act(sec, "finance")
    for seat in game.decision.seats:
        game.act(seat, YES)
    refused(sec)  # P4: themself
    executors = list(game.decision.options[:3])
    for seat in executors:
        game.act(sec, seat)
    for seat in list(game.decision.seats):
        game.act(seat, REPRESS if seat != executors[0] else REFORM)
    outsider = next(s for s in range(10) if s not in executors and s != sec)
    refused(outsider)  # P5: not executing
    game.act(sec, executors[0])
    refused(executors[1])  # P4: already executing
    game.act(sec, outsider)
    refused(outsider)  # just brought in
    assert len(messages) == 5
    fr = translator("fr")
    for message in messages:
        french = politburo_ui.refusal(message, fr)
        assert french != str(message), message
        if message.rule:
            assert french.startswith(message.rule), "the rule stays named"
        assert politburo_ui.refusal(message, translator("en")) == str(message)
        assert overflow(Screen("Refus", tuple(wrap(french)), "OK")) == [], french


def test_p3_a_rejected_plan_proposed_again_is_refused_on_screen(box):
    table, player = started(box, Settings("politburo", 5, "en", {"vote": "count"}), 2)
    bots = Scripted()(table.game, None)
    advance(table, player, bots, "propose")
    first = table.game.decision.options[0]
    player.answer(first)
    advance(table, player, bots, "plan_count")
    assert table.screen().body[2] == "▲ 3 thumbs up ▼"  # of 4 voters: a bare majority
    player.answer("0")
    advance(table, player, bots, "propose")
    player.answer(first)
    shown = table.screen()
    assert shown.status == "Not allowed"
    assert f"P3: the {first} plan was already rejected" in " ".join(shown.body)
    assert overflow(shown) == []


def test_back_undoes_an_appointment_but_never_crosses_an_execution(box):
    table, player = started(box, Settings("politburo", 7, "en"), 2)
    bots = Scripted()(table.game, None)
    advance(table, player, bots, "appoint")
    options = table.game.decision.options
    player.answer(options[0])
    assert table.game.public_view()["executors"] == [options[0]]
    player.press("back")
    assert table.game.public_view()["executors"] == []
    advance(table, player, bots, "replace")  # after execution 1 and its reveal
    player.press("back")
    assert table.screen().status == "Not allowed"
    assert "Nothing to undo" in " ".join(table.screen().body)


def test_peek_shows_the_member_card_only_while_held(box):
    table, player = started(box, Settings("politburo", 6, "fr"), 3)
    player.press("ok")
    assert isinstance(table.mode, Peek)
    hidden = box.board.glass().tobytes()
    box.board.drive("peek", True)
    player.wait(0.2)
    member = table.game.view(0)["member"]
    assert table.screen().body[0] == f"Siège 1 : {member}"
    assert table.screen().body[1].startswith("Gagne : ")
    box.board.drive("peek", False)
    player.wait(0.2)
    assert box.board.glass().tobytes() == hidden


def test_ministries_are_on_the_status_line_and_influence_under_every_handoff(box):
    table, player = started(box, Settings("politburo", 7, "en"), 2)
    bots = Scripted()(table.game, None)
    advance(table, player, bots, "point")
    for _ in range(3):
        advance(table, player, bots, "point")
        player.answer(LEFT)
    while isinstance(table.mode, Announce):
        player.press("ok")
    view = table.game.public_view()
    m = view["ministries"]
    arrows = {1: "↑", -1: "↓", 0: ""}  # no sign: "+" is Glasnost's reform
    assert table.screen().status == "Round 2/7 " + " ".join(
        f"{k[0].upper()}{arrows[(v > 0) - (v < 0)]}{abs(v)}" for k, v in m.items()
    )
    assert isinstance(table.mode, Handoff)
    digits = "".join(str(i) for i in view["influence"])
    assert table.screen().body[2] == f"Influence {digits[:5]} {digits[5:]}"
    assert lit_bar(box) == 2


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(("players", "vote"), [(5, "each"), (8, "count"), (10, "each")])
def test_every_screen_fits_and_says_who_and_what(lang, players, vote, shown_screens):
    shown = shown_screens
    box = open_box("virtual", clock=VirtualClock())
    try:
        play(Settings("politburo", players, lang, {"vote": vote}), seed=players, box=box)
    finally:
        box.close()
    must = ("handoff", "choose", "confirm", "cursor", "peek", "announce", "over")
    counted = every_screen_fits_and_says_who(shown, players, must)
    assert counted["named"] >= players  # each seat's first look, at least


def test_every_victory_condition_fits_the_peek_screen_in_both_languages():
    from companion.games.politburo.rules import MEMBERS

    for lang in ("en", "fr"):
        t = translator(lang)
        for players in (5, 10):
            for seat, member in enumerate(MEMBERS[:players]):
                view = {
                    "seat": seat,
                    "member": member,
                    "players": players,
                    "round": 10,
                    "rounds": 10,
                    "ministries": {"defence": -10, "finance": 10, "security": 0},
                }
                assert overflow(politburo_ui.peek(view, t)) == [], (lang, member)


@pytest.mark.parametrize("players", [5, 10])
def test_p9_the_last_pages_show_winners_and_every_card_and_fit(players):
    game = new_game("politburo", players=players, seed=players)
    play_out(game, make_bots(game, "smart", random.Random(players)))
    view = game.public_view()
    for lang in ("en", "fr"):
        pages = politburo_ui.final(view, translator(lang))
        assert all(overflow(page) == [] for page in pages), lang
        rows = [line for page in pages[2:] for line in page.body]
        assert len(rows) == players
        for seat, row in enumerate(rows):
            ok = "✓" if view["fulfilled"][seat] else "✗"
            assert row.split() == [
                str(seat + 1),
                view["members"][seat],
                str(view["influence"][seat]),
                ok,
            ]
    winners = sorted(game.result.winners)
    first = politburo_ui.final(view, translator("en"))[0]
    if len(winners) == 1:
        assert first.big == f"Seat {winners[0] + 1}"
    elif winners:
        assert first.big == "Seats " + ", ".join(str(w + 1) for w in winners)
    else:
        assert first.big == "NO WINNER"


def test_p3_the_open_vote_offers_yes_and_no_and_announces_the_result(box):
    """P3: the open vote's cursor offers yes and no, and the result is announced."""
    table, player = started(box, Settings("politburo", 5, "en", {"vote": "each"}), 4)
    bots = Scripted()(table.game, None)
    advance(table, player, bots, "plan_vote")
    assert table.screen().body[2] == "▲ yes ▼"
    while table.game.decision.kind == "plan_vote":
        advance(table, player, bots, "plan_vote")
        player.answer(NO)
    assert isinstance(table.mode, Announce)
    assert table.screen().big == "REJECTED"
    assert table.screen().body == ("Defence 0 yes, 4 no",)


# -- reference screens ---------------------------------------------------------------
def screens_to_check(lang):
    """A few screens of a scripted game, as the panel shows them."""
    box = open_box("virtual", clock=VirtualClock())
    try:
        table = Table(box, seed=11, lang=lang)
        player = Player(box, table, box.clock)
        table.step()
        player.setup(Settings("politburo", 7, lang, {"vote": "each"}))
        table.step()
        shots = {"handoff": box.board.glass()}
        bots = Scripted()(table.game, None)
        player.press("ok")
        box.board.drive("peek", True)
        player.wait(0.2)
        shots["peek"] = box.board.glass()
        box.board.drive("peek", False)
        player.wait(0.2)
        advance(table, player, bots, "plan_vote")
        shots["vote"] = box.board.glass()
        advance(table, player, bots, "execute")
        shots["execute"] = box.board.glass()
        advance(table, player, bots, "point")
        shots["point"] = box.board.glass()
        for _ in range(3):
            advance(table, player, bots, "point")
            player.answer(LEFT)
        shots["cards"] = box.board.glass()
        player.press("ok")
        player.press("ok")
        shots["losses"] = box.board.glass()
        return shots
    finally:
        box.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_screens_match_the_reference_pictures(lang):
    """Drawn through luma's real driver and read back from the panel's RAM."""
    match_references("politburo", lang, screens_to_check(lang))


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_hand_over_names_the_ministry_at_stake_and_the_executor_is_a_seat(box, lang):
    t = translator(lang)
    table, player = started(box, Settings("politburo", 7, lang, {"vote": "each"}), 2)
    bots = Scripted()(table.game, None)
    seen = set()
    while len(seen) < 3:
        d = table.game.decision
        if isinstance(table.mode, Handoff) and d.kind in ("plan_vote", "execute", "point"):
            view = table.game.public_view()
            ministry = politburo_ui.ministry_label(view["plan"] or view["proposal"], t)
            role = {
                "plan_vote": t("Vote: {ministry} plan."),
                "execute": t("Executor: {ministry}."),
                "point": t("Purge: {ministry}."),
            }[d.kind].format(ministry=ministry)
            shown = table.screen()
            assert shown.body[1] == role and overflow(shown) == []
            seen.add(d.kind)
            player.press("ok")
            if d.kind == "execute":  # the prompt names the seat, not an executor's number
                seat = d.seats[0] + 1
                assert table.screen().body[0] == t("Seat {seat}, executor:").format(seat=seat)
            continue
        if isinstance(table.mode, Handoff | Announce):
            player.press("ok")
            continue
        seat = d.seats[0]
        player.answer(bots[seat].choose(table.game.view(seat), d))
    if lang == "fr":
        assert t("Executor: {ministry}.").startswith("Exécutant : ")


def test_the_status_line_has_no_sign_and_fits_at_ten_rounds_and_two_digit_levels():
    t = translator("en")
    view = {"round": 3, "rounds": 7, "ministries": {"defence": 1, "finance": -2, "security": 0}}
    assert politburo_ui.status(view, t) == "Round 3/7 D↑1 F↓2 S0"
    view = {"round": 10, "rounds": 10, "ministries": {"defence": 12, "finance": -12, "security": 9}}
    assert politburo_ui.status(view, t) == "10/10 D↑12 F↓12 S↑9"
    for lang in ("en", "fr"):
        assert len(politburo_ui.status(view, translator(lang))) <= 21
        assert "+" not in politburo_ui.status(view, translator(lang))
