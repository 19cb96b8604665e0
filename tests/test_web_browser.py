"""The pages in real Chromium: a TV following whole games, and phones voting and playing."""

import json
import time

import pytest

from companion.games import GAMES as REGISTRY
from companion.games.kolkhoz.screens import card_label
from companion.table import Settings
from tests.browser import chromium, masks, own_pages, same_screenshot
from tests.conftest import usual_table
from tests.webtables import direct, give_phones, play_out, web_table

GAMES = [(name, usual_table(name)) for name in REGISTRY]
WAIT = 10_000  # ms Playwright waits for a page to catch up (a bound, not a measure)


@pytest.fixture(scope="module")
def shared_browser():
    with chromium() as browser:
        yield browser


def caught_up(page, room):
    """The TV shows the room's latest state: its status line, its prompt (two decisions
    in a row may share a status line) and whether the game is over (the last reveal and the
    end may share both)."""
    state = json.loads(room.spectator)
    last = " ".join(state["prompt"][-1].split()) if state["prompt"] else ""
    shows = """([status, last, over]) =>
        document.getElementById('status').textContent === status &&
        document.getElementById('prompt').innerText.split(/\\s+/).join(' ').includes(last) &&
        document.getElementById('final').hidden === !over"""
    page.wait_for_function(shows, arg=[state["status"], last, bool(state.get("end"))], timeout=WAIT)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_tv_follows_a_whole_bot_game(game, players, served, shared_browser):
    options = {"deal": "box"} if game == "kolkhoz" else {}  # the box deals, as before
    table, room, player = web_table(Settings(game, players, "en", options))
    base = served(room)
    with own_pages(shared_browser) as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(base + "/")
        caught_up(page, room)
        assert page.locator("#picture svg").count() == 1
        same_screenshot(f"{game}-start", page.screenshot(animations="disabled", **masks(page)))
        decisions = {"n": 0}

        def follow(seat, view, decision):
            decisions["n"] += 1
            if decisions["n"] % 15 == 0:
                caught_up(page, room)
                shown = " ".join(page.locator("#prompt").inner_text().split())
                assert " ".join(json.loads(room.spectator)["prompt"][-1].split()) in shown
            if decisions["n"] == 30:
                same_screenshot(
                    f"{game}-middle", page.screenshot(animations="disabled", **masks(page))
                )
            return None

        play_out(table, player, answer_phone=None, pick=follow)
        player.wait(0.5)
        caught_up(page, room)
        assert not page.locator("#final").is_hidden()
        assert page.locator("#history li").count() > 0
        same_screenshot(f"{game}-over", page.screenshot(animations="disabled", **masks(page)))


def open_phones(browser, base, tokens):
    pages = {}
    for seat, token in tokens.items():
        page = browser.new_page(viewport={"width": 400, "height": 800})
        page.goto(f"{base}/P/{token}")
        page.wait_for_function(
            "n => document.getElementById('seat').textContent === n",
            arg=f"Seat {seat + 1}",
            timeout=WAIT,
        )
        pages[seat] = page
    return pages


def tap(room, player, pages):
    """Answer on a phone page as a person would: pick the option, then Send."""

    def answer(seat, index):
        ballot = room.phones.ask_open.ballot
        page = pages[seat]
        page.wait_for_function(
            "b => document.body.dataset.ballot === b", arg=str(ballot), timeout=WAIT
        )
        page.locator("#options button").nth(index).click()
        page.locator("#send").click()
        deadline = time.monotonic() + WAIT / 1000
        while seat not in room.phones.ask_open.answered:
            assert time.monotonic() < deadline, f"seat {seat + 1}'s answer never arrived"
            time.sleep(0.01)

    return answer


def play_with_pages(table, room, player, pages, on_pages):
    """Seats with pages answer there for decisions of ``on_pages`` kinds; the rest directly."""
    by_page, by_room = tap(room, player, pages), direct(room)
    seen = []

    def answer(seat, index):
        kind = table.game.decision.kind
        if kind in on_pages and seat in pages:
            seen.append((kind, seat))
            by_page(seat, index)
        else:
            by_room(seat, index)

    play_out(table, player, answer)
    return seen


def test_a_glasnost_coup_vote_is_taken_on_twelve_phones_at_once(served, shared_browser):
    table, room, player = web_table(Settings("glasnost", 12))
    tokens = give_phones(room, range(12))
    player.wait(0.5)
    base = served(room)
    with own_pages(shared_browser) as browser:
        pages = open_phones(browser, base, tokens)
        seen = play_with_pages(table, room, player, pages, {"coup_vote", "crisis_vote"})
    coup = {seat for kind, seat in seen if kind == "coup_vote"}
    assert len(coup) >= 10, coup  # every seat but the leader's side votes on its own phone
    assert any(kind == "crisis_vote" for kind, _ in seen)
    assert table.game.over


def test_politburo_executions_and_gulag_workers_vote_from_phones(served, shared_browser):
    for game, players, kinds in [
        ("politburo", 7, {"execute", "plan_vote"}),
        ("gulag", 7, {"task"}),
    ]:
        table, room, player = web_table(Settings(game, players))
        tokens = give_phones(room, range(players))
        player.wait(0.5)
        base = served(room)
        with own_pages(shared_browser) as browser:
            pages = open_phones(browser, base, tokens)
            seen = play_with_pages(table, room, player, pages, kinds)
        assert {kind for kind, _ in seen} >= ({"execute"} if game == "politburo" else {"task"})
        assert table.game.over


def test_a_kolkhoz_seat_plays_its_whole_hand_from_its_phone(served, shared_browser):
    table, room, player = web_table(Settings("kolkhoz", 4, "en", {"deal": "box"}))
    tokens = give_phones(room, [0])
    player.wait(0.5)
    base = served(room)
    with own_pages(shared_browser) as browser:
        pages = open_phones(browser, base, tokens)
        hand = list(table.game.view(0)["hand"])
        pages[0].locator("#hold").dispatch_event("pointerdown")  # the card shows while held
        shown = pages[0].locator("#secret").inner_text()
        pages[0].locator("#hold").dispatch_event("pointerup")
        assert all(card_label(card) in shown for card in hand)  # as the box writes cards
        assert shown.count(card_label(hand[0])) == 1  # once: the PEEK line and no repeat
        seen = play_with_pages(table, room, player, pages, {"play", "assign", "trump"})
    plays = [k for k, s in seen if k == "play"]
    assert len(plays) >= len(hand)
    assert table.game.over


def held(page):
    """The private card held, as a thumb on the phone's hold button shows it."""
    page.wait_for_function("() => !document.getElementById('hold').hidden", timeout=WAIT)
    page.locator("#hold").dispatch_event("pointerdown")


def test_a_second_phone_let_in_replaces_the_first_which_says_so_and_shows_nothing_more(
    served, shared_browser
):
    table, room, player = web_table(Settings("gulag", 5))
    tokens = give_phones(room, [0])
    player.wait(0.5)
    base = served(room)
    with own_pages(shared_browser) as browser:
        (first,) = open_phones(browser, base, tokens).values()
        held(first)
        assert first.locator("#secret").inner_text().strip()  # its private lines were shown
        sockets = room.phones.connected[0]
        second = browser.new_page(viewport={"width": 400, "height": 800})
        second.goto(f"{base}/P/{tokens[0]}")
        second.wait_for_function("() => document.body.dataset.link === 'waiting'", timeout=WAIT)
        first.wait_for_selector("#request:not([hidden])", timeout=WAIT)
        first.click("#let-in")  # confirmed by the phone holding the seat (tests/test_web_rejoin.py)
        second.wait_for_function(
            "() => document.getElementById('seat').textContent === 'Seat 1'", timeout=WAIT
        )
        first.wait_for_function(
            "() => document.getElementById('link').textContent.includes('Another phone')",
            timeout=WAIT,
        )
        assert first.locator("#secret").inner_text().strip() == ""
        assert not first.locator("#private").is_visible()
        time.sleep(2.5)  # longer than a reconnection's wait: the first does not come back
        assert room.phones.connected[0] == sockets  # one phone's socket for the seat, still
        held(second)
        assert second.locator("#secret").inner_text().strip()
    assert table.game is not None
