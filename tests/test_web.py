"""The web room and its server: the seam with the table, tokens, and the server's defences."""

import asyncio
import json
import logging
import os
import stat

import aiohttp
import aiohttp.test_utils as aiohttp_test
import pytest

from companion.games import GAMES as REGISTRY
from companion.store import Journal
from companion.table import Settings
from companion.table.modes import Announce, Handoff, Peek, Phones
from companion.ui import defaults, game_ui
from companion.web import server
from companion.web.padding import bucket, padded
from companion.web.room import SILENT
from companion.web.server import MAX_MESSAGE, make_app
from tests.conftest import alone, usual_table
from tests.webtables import give_phones, play_out, web_table


def run(scenario):
    """Run ``scenario(client)`` against the room's app on the aiohttp test server."""

    async def main():
        client = aiohttp_test.TestClient(aiohttp_test.TestServer(make_app(scenario.room)))
        await client.start_server()
        try:
            return await scenario(client)
        finally:
            await client.close()

    return asyncio.run(main())


async def receive(ws):
    msg = await asyncio.wait_for(ws.receive(), 5)
    return msg


def politburo_on_phones():
    table, room, player = web_table(Settings("politburo", 7))
    tokens = give_phones(room, [0, 1])
    player.wait(0.5)
    return table, room, player, tokens


def test_the_spectator_page_and_its_feed_carry_only_the_public_view():
    table, room, _player, tokens = politburo_on_phones()

    async def scenario(client):
        page = await client.get("/")
        assert page.status == 200
        html = await page.text()
        assert "spectator.js" in html and "http" not in html.replace('"/static', "")
        ws = await client.ws_connect("/ws")
        state = json.loads((await receive(ws)).data)
        assert state["game"] == "politburo" and state["title"] == "Politburo"
        for token in tokens.values():
            assert token not in html and token not in room.spectator
        secret = table.game.view(0)["member"]
        assert secret not in room.spectator
        await ws.close()

    scenario.room = room
    run(scenario)


def test_a_phone_sees_its_own_seat_and_answers_only_for_it():
    table, room, player, tokens = politburo_on_phones()
    assert isinstance(table.mode, Phones)  # seat 1 peeks on its phone

    async def scenario(client):
        ws = await client.ws_connect(f"/ws/P/{tokens[0]}")
        first = json.loads((await receive(ws)).data)
        assert first["seat"] == 1
        assert any(table.game.view(0)["member"] in line for line in first["private"])
        assert first["ask"]["options"] == ["I have seen my card"]  # no box key named
        other = await client.ws_connect(f"/ws/P/{tokens[1]}")
        second = json.loads((await receive(other)).data)
        assert second["ask"] is None  # seat 2 is not asked: it cannot answer for seat 1
        await other.send_str(json.dumps({"ballot": first["ask"]["ballot"], "option": 0}))
        refused = json.loads((await receive(other)).data)
        assert refused == {
            "type": "refused",
            "ballot": first["ask"]["ballot"],
            "why": "nothing is asked of this seat now",
        }
        assert table.game.decision.seats == (0,)
        await ws.send_str(json.dumps({"ballot": first["ask"]["ballot"], "option": 0}))
        await asyncio.sleep(0.05)
        player.wait(0.5)
        assert table.game.decision.seats == (1,)  # seat 1's answer went through the table
        await ws.close()
        await other.close()

    scenario.room = room
    run(scenario)


@pytest.mark.parametrize("kind", ["wrong", "stale", "other game"])
def test_a_bad_token_is_refused_and_changes_nothing(kind, tmp_path):
    table, room, player, tokens = politburo_on_phones()
    good = tokens[0]
    if kind == "wrong":
        bad = good[:-1] + ("A" if good[-1] != "A" else "B")
    elif kind == "stale":
        bad, _ = good, room.tokens.issue(0)  # showing the QR again cancels the old token
    else:
        room.begin("another", resumed=False)
        bad = good
    before = (table.game.to_record(), room.phones.ask_open)

    async def scenario(client):
        page = await client.get(f"/P/{bad}")
        assert page.status == 403
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await client.ws_connect(f"/ws/P/{bad}")

    scenario.room = room
    run(scenario)
    player.wait(0.5)
    assert (table.game.to_record(), room.phones.ask_open) == before


def test_oversized_malformed_and_flooding_messages_are_refused():
    table, room, player, tokens = politburo_on_phones()
    ballot = room.phones.ask_open.ballot

    async def scenario(client):
        ws = await client.ws_connect(f"/ws/P/{tokens[0]}")
        await receive(ws)
        for bad in [
            "not json",
            "[]",
            '{"ballot": 1}',
            json.dumps({"ballot": ballot, "option": 7}),
            json.dumps({"ballot": ballot, "option": True}),
        ]:
            await ws.send_str(bad)
            reply = json.loads((await receive(ws)).data)
            assert reply["type"] == "refused"
        await ws.send_str(json.dumps({"ballot": ballot, "option": "x" * MAX_MESSAGE}))
        closing = await receive(ws)
        assert closing.type.name in ("CLOSE", "CLOSED", "CLOSING", "ERROR")
        flood = await client.ws_connect(f"/ws/P/{tokens[0]}")
        await receive(flood)
        for _ in range(40):
            if flood.closed:
                break
            await flood.send_str("{}")
        while not flood.closed:
            msg = await receive(flood)
            if msg.type.name != "TEXT":
                break
        assert flood.close_code == 1008

    scenario.room = room
    run(scenario)
    player.wait(0.5)
    assert table.game.decision.seats == (0,)  # nothing got through


def test_websockets_from_another_origin_are_refused():
    _table, room, _player, tokens = politburo_on_phones()

    async def scenario(client):
        for path in ("/ws", f"/ws/P/{tokens[0]}"):
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await client.ws_connect(path, headers={"Origin": "http://evil.example"})
        ok = await client.ws_connect(
            "/ws", headers={"Origin": f"http://{client.host}:{client.port}"}
        )
        await ok.close()

    scenario.room = room
    run(scenario)


def test_no_endpoint_serves_a_private_view_without_its_token():
    table, room, _player, tokens = politburo_on_phones()
    secrets_ = [table.game.view(s)["member"] for s in range(7)]

    async def scenario(client):
        for path in [
            "/",
            "/static/spectator.js",
            "/static/phone.js",
            "/P/",
            "/ws/P/",
            "/P/x",
            "/static/../room.py",
            "/static/tokens.py",
        ]:
            response = await client.get(path)
            body = await response.text()
            assert not any(s in body for s in secrets_), path
            assert not any(t in body for t in tokens.values()), path
            if path.startswith("/P/") or "room" in path or "tokens" in path:
                assert response.status in (403, 404), path

    scenario.room = room
    run(scenario)


def test_tokens_are_kept_0600_and_rejoin_the_same_game_after_a_power_cut(tmp_path):
    path = tmp_path / "phones.json"
    journal = Journal(tmp_path / "journal.sqlite")
    _table, room, player = web_table(Settings("gulag", 5), tokens_path=path, journal=journal)
    player.press("ok")  # seat 1 takes the box
    player.box.board.drive("peek", True)
    player.press("up")  # PEEK + Up: seat 1's phone QR
    player.box.board.drive("peek", False)
    token = room.tokens.by_seat[0]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    journal.close()
    # The power comes back: the same game resumes, and the same phone link still works.
    journal = Journal(tmp_path / "journal.sqlite")
    _again, room2, _ = web_table(None, tokens_path=path, journal=journal)
    assert room2.tokens.seat_of(token) == 0
    journal.close()
    journal = Journal(tmp_path / "journal.sqlite")
    _fresh, room3, _ = web_table(Settings("gulag", 5), tokens_path=path, journal=journal)
    assert room3.tokens.seat_of(token) is None  # a new game: the old tokens died
    assert token not in path.read_text()
    journal.close()


def test_a_silent_phone_falls_back_to_passing_the_box_for_that_seat_alone():
    table, room, player = web_table(Settings("gulag", 5))
    tokens = give_phones(room, range(5))
    while not (isinstance(table.mode, Phones) and table.game.decision.kind == "task"):
        if isinstance(table.mode, Phones):
            ask = room.phones.ask_open
            for seat in set(ask.offers) - ask.answered:
                room.phones.answer(seat, ask.ballot, 0)
            player.wait(0.5)
        else:
            player.press("ok")
    workers = table.game.decision.seats
    room.phones.joined(workers[0], -1)  # the first worker's phone goes away
    for seat in workers[1:]:
        room.phones.answer(seat, room.phones.ask_open.ballot, 0)
    player.wait(0.5)
    assert isinstance(table.mode, Phones) and table.game.decision.seats == (workers[0],)
    player.wait(SILENT + 1)
    assert isinstance(table.mode, Handoff) and table.game.decision.seats == (workers[0],)
    assert tokens  # the silent seat's token stays valid for when it comes back


def test_whole_games_of_every_game_are_played_from_phones():
    """...in both languages, and no phone is asked in the box's own words (PEEK, OK)."""
    for n, game in enumerate(REGISTRY):
        players, lang = usual_table(game), ("en", "fr")[n % 2]
        options = alone(game)  # a hand to play from a phone
        table, room, player = web_table(Settings(game, players, lang, options))
        give_phones(room, range(players))

        def answer(seat, index, room=room, game=game):
            question = room.phones.question(seat)
            for line in question["prompt"] + question["options"]:
                assert "PEEK" not in line and line.strip() != "OK", (game, line)
            assert room.phones.answer(seat, room.phones.ask_open.ballot, index) is None

        asked = play_out(table, player, answer)
        assert table.game.over
        kinds = {kind for _, kind in asked}
        no_card = game_ui(game).peek is defaults.peek  # nothing to read: no peek
        assert "peek" in kinds or game == "kolkhoz" or no_card
        # each game's main secret choice among them; any game's, at least one answer
        main = {"glasnost": "coup_vote", "gulag": "task", "politburo": "execute", "kolkhoz": "play"}
        assert main[game] in kinds if game in main else kinds


def test_the_panel_shows_the_seat_its_phone_qr_code_which_decodes_to_its_url():
    import zxingcpp  # a test tool (the test extra): the web tests fail, not skip, without it
    from PIL import Image

    table, room, player = web_table(Settings("glasnost", 8))
    room.url_of = lambda token: f"HTTP://192.0.2.7:8080/P/{token}"
    while isinstance(table.mode, Announce):
        player.press("ok")  # where the crisis cards go (rule 3.2), read first
    player.press("ok")  # seat 1 takes the box at its hand-over
    decision = table.game.decision
    player.press("up")
    assert room.tokens.by_seat == {}  # Up alone does nothing on the peek screen
    player.box.board.drive("peek", True)
    player.press("up")
    player.box.board.drive("peek", False)
    player.wait(0.5)
    frame = player.box.board.glass()  # what the panel really lit
    big = frame.convert("L").resize((frame.width * 4, frame.height * 4), Image.NEAREST)
    found = [code.text for code in zxingcpp.read_barcodes(big)]
    first = room.tokens.by_seat[0]
    assert found == [f"HTTP://192.0.2.7:8080/P/{first}"]
    player.press("ok")  # dismissed, never answered
    assert table.game.decision == decision and isinstance(table.mode, Peek)
    assert not zxingcpp.read_barcodes(player.box.board.glass().convert("L").resize(big.size))
    player.box.board.drive("peek", True)
    player.press("up")  # shown again: a new token, the old one dies
    player.box.board.drive("peek", False)
    assert room.tokens.seat_of(first) is None and room.tokens.seat_of(room.tokens.by_seat[0]) == 0


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_seats_qr_frame_speaks_the_tables_language_and_every_word_fits(lang):
    """The QR frame's words come from the catalog, like the code's frame, and none runs off
    the panel (the French ones are longer); the code still reads."""
    import zxingcpp
    from PIL import Image

    from companion.ui.i18n import translator
    from companion.web.qr import seat_frame

    url = "HTTP://192.168.100.100:8080/P/" + "A" * 24
    t = translator(lang)
    frame = seat_frame(url, 3, t)
    english = seat_frame(url, 3, translator("en"))
    assert (frame.tobytes() != english.tobytes()) == (lang != "en")
    assert t("scan me") != "scan me" or lang == "en"
    width, height = frame.size
    assert not any(frame.getpixel((width - 1, y)) for y in range(height))  # nothing cut off
    big = frame.convert("L").resize((width * 4, height * 4), Image.NEAREST)
    assert [code.text for code in zxingcpp.read_barcodes(big)] == [url]


def wire(game, players, kind, swap):
    """Every message the TV and each phone are sent, from the start to the decision after the
    first ``kind`` vote, with the first two voters' choices swapped if ``swap``."""
    table, room, player = web_table(Settings(game, players))
    give_phones(room, range(players))
    for seat in range(players):  # named seats: a name is public, never tied to a choice
        assert (
            room.phones.name(seat, ("Anna", "Борис", "Élodie", "Zoë")[seat % 4] + str(seat)) is None
        )
    sent = {"tv": [], **{seat: [] for seat in range(players)}}

    def record():
        for who, message in [("tv", room.spectator)] + [
            (seat, room.phone_message(seat)) for seat in range(players)
        ]:
            if not sent[who] or sent[who][-1] != message:
                sent[who].append(message)

    room.listeners.append(record)
    player.wait(0.5)

    def answer(seat, index):
        assert room.phones.answer(seat, room.phones.ask_open.ballot, index) is None

    voters, revealed = [], []

    def pick(seat, view, decision):
        if decision.kind != kind:
            return None
        if not voters:
            voters.extend(decision.seats[:2])
            revealed.append(len(room.history))
        if seat not in voters:
            return None
        a, b = decision.options[:2]
        first = seat == voters[0]
        return a if first != swap else b

    def after_reveal(table):
        return (
            bool(voters)
            and len(room.history) > revealed[0]
            and not isinstance(table.mode, Announce)
        )

    play_out(table, player, answer, pick=pick, until=after_reveal)
    return sent, voters


@pytest.mark.parametrize(
    ("game", "players", "kind"), [("gulag", 5, "task"), ("glasnost", 8, "crisis_vote")]
)
def test_swapped_secret_choices_send_the_same_messages(game, players, kind):
    plain, voters = wire(game, players, kind, swap=False)
    swapped, same_voters = wire(game, players, kind, swap=True)
    assert voters == same_voters and len(voters) == 2
    assert plain["tv"] == swapped["tv"]
    assert any('"reveal"' in m for m in plain["tv"])  # the vote's result did reach the TV
    assert '"Élodie2"' in plain["tv"][-1] and '"Élodie2"' in plain[0][-1]  # names on every page
    for seat in range(players):
        if seat not in voters:
            assert plain[seat] == swapped[seat], seat


def to_the_pick_of_workers(table, room, player):
    """Every phone answers its first option, the box OK, until the commissar's phone is asked
    for workers."""
    while not (isinstance(table.mode, Phones) and table.game.decision.kind == "pick_worker"):
        if isinstance(table.mode, Phones):
            ask = room.phones.ask_open
            for seat in set(ask.offers) - ask.answered:
                room.phones.answer(seat, ask.ballot, 0)
            player.wait(0.5)
        else:
            player.press("ok")


def test_a_choice_the_rules_refuse_is_explained_on_the_phone_and_asked_again():
    table, room, player = web_table(Settings("gulag", 5))
    give_phones(room, range(5))
    to_the_pick_of_workers(table, room, player)
    commissar = table.game.decision.seats[0]
    before = table.game.to_record()
    ask = room.phones.ask_open
    labels = [label for _, label in ask.offers[commissar][1]]
    assert room.phones.answer(commissar, ask.ballot, labels.index(f"Seat {commissar + 1}")) is None
    player.wait(0.5)
    assert table.game.to_record() == before and isinstance(table.mode, Phones)  # nothing on the box
    message = json.loads(room.phone_message(commissar))
    assert message["refused"] and message["ask"] is not None  # why, and the question again


def test_a_named_seat_is_offered_on_a_phone_by_its_name_and_number():
    """Picking workers on the commissar's phone: "Anna (3)" for a named seat, "Seat 4" for
    one without a name, in the order and with the answers the box would offer."""
    table, room, player = web_table(Settings("gulag", 5))
    give_phones(room, range(5))
    assert room.phones.name(2, "Anna") is None
    player.wait(0.5)
    to_the_pick_of_workers(table, room, player)
    commissar = table.game.decision.seats[0]
    offered = dict(room.phones.ask_open.offers[commissar][1])
    others = [s for s in range(5) if s not in (2, commissar)]
    assert commissar != 2 and offered[2] == "Anna (3)"
    assert all(offered[s] == f"Seat {s + 1}" for s in others if s in offered)
    assert "Anna" not in " ".join(label for o, label in offered.items() if o != 2)


def test_an_address_that_asks_too_often_is_refused(monkeypatch):
    monkeypatch.setattr(server, "now", lambda: 1000.0)  # all 150 within the same instant
    _, room, _ = web_table(Settings("gulag", 5))

    async def scenario(client):
        statuses = [(await client.get("/static/style.css")).status for _ in range(150)]
        assert statuses[0] == 200 and statuses[-1] == 429

    scenario.room = room
    run(scenario)


def test_no_token_reaches_a_log_line(caplog):
    """A whole game played from phones through the server: the links appear in no log."""
    caplog.set_level(logging.DEBUG)
    table, room, player, tokens = politburo_on_phones()

    async def scenario(client):
        sockets = {s: await client.ws_connect(f"/ws/P/{t}") for s, t in tokens.items()}
        await client.get(f"/P/{tokens[0]}")
        await client.get("/P/WRONG")

        async def answer(seat, index):
            await sockets[seat].send_str(
                json.dumps({"ballot": room.phones.ask_open.ballot, "option": index})
            )
            for _ in range(100):
                if seat in room.phones.ask_open.answered:
                    return
                await asyncio.sleep(0.01)
            raise AssertionError("the answer never arrived")

        for _ in range(40):  # the first rounds, answered on the phones of seats 1 and 2
            if isinstance(table.mode, Phones):
                ask = room.phones.ask_open
                for seat in set(ask.offers) - ask.answered:
                    await answer(seat, 0)
                player.wait(0.5)
            elif isinstance(table.mode, Handoff | Announce):
                player.press("ok")
            else:
                break
        for ws in sockets.values():
            await ws.close()

    scenario.room = room
    run(scenario)
    assert caplog.records
    for token in tokens.values():
        assert token not in caplog.text


def test_the_tv_is_sent_the_shuffled_crises_laid_out_before_the_first_turn():
    """Glasnost, crises shuffled: the screens that tell the table where each crisis goes
    reach the spectator page too, as the box shows them."""
    table, room, _player = web_table(Settings("glasnost", 6, "en", {"crises": "shuffled"}))
    assert isinstance(table.mode, Announce)
    assert len(table.mode.screens) == 12  # one screen a crisis on the box
    view = table.game.public_view()
    history = json.loads(room.spectator)["history"]
    assert len(history) == 12  # and one sentence a crisis on the TV, in the box's order
    for k, (screen, crisis) in enumerate(zip(history, view["crises"], strict=True)):
        ids = [view["board_seats"][q]["id"] for q in crisis["board_seats"]]
        assert screen[0] == f"Crisis card {k + 1} of 12"
        assert screen[1] == f"{crisis['name']}: at board seats {ids[0]}, {ids[1]} and {ids[2]}."


def test_the_tv_history_comes_back_from_the_reveals_handed_over_on_resuming(tmp_path):
    """A resumed game's reveals (as the journal keeps them) are the TV's history, numbered
    as events in their order; a new game's history starts empty."""
    from companion.ui.canvas import Screen
    from companion.web.room import WebRoom
    from companion.web.tokens import Tokens

    room = WebRoom(Tokens(tmp_path / "phones.json"), lambda: 0.0)
    steps = [
        [Screen("Turn 1/5", ("Cards: Work, Strike",))],
        [],
        [Screen("Turn 2/5", ("Canal ↑2",)), Screen("x", ())],
    ]
    room.begin("7", resumed=True, earlier=steps)
    # each screen's status line is the box's code, which the TV says in words on its own
    assert room.history == [["Cards: Work, Strike"], ["Canal ↑2"]]
    assert [e["id"] for e in room.reveals.events] == [1, 3]
    room.begin("8", resumed=False, earlier=steps)
    assert room.history == []


def test_after_a_power_cut_the_tv_history_is_rebuilt_from_the_journal(tmp_path):
    """A Gulag game played to its first task's reveal; the box restarts with the room's own
    history file gone: the TV's history still holds that reveal, read back from the journal."""
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    table, room, player = web_table(
        Settings("gulag", 5), tokens_path=tmp_path / "phones.json", journal=journal
    )
    play_out(table, player, lambda seat, index: None, until=lambda t: bool(room.history))
    shown = room.history
    assert shown
    journal.close()
    for kept in tmp_path.glob("tv-history*"):
        kept.unlink()
    again = Journal(path)  # the room's file gone: the same reveals, in the box's lines
    _table, resumed, _player = web_table(None, tokens_path=tmp_path / "phones.json", journal=again)
    assert len(resumed.history) >= len(shown)
    assert resumed.history[0][0].startswith("Cards: ")
    again.close()


def test_no_prefix_or_extension_of_a_real_token_is_taken_for_it():
    """A token checked by its first characters would hand a seat over in a few dozen tries."""
    _table, room, _player, tokens = politburo_on_phones()
    good = tokens[0]
    near = [good[:n] for n in range(1, len(good))] + [good + extra for extra in "A27"]
    near += [good[1:], good[:-1].lower()]
    assert all(room.tokens.seat_of(token) is None for token in near)

    async def scenario(client):
        for token in near:
            assert (await client.get(f"/P/{token}")).status == 403, token
        for token in (good[:-1], good + "A"):
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await client.ws_connect(f"/ws/P/{token}")
        assert (await client.get(f"/P/{good.lower()}")).status == 200  # the real one, any case

    scenario.room = room
    run(scenario)


def test_a_late_answer_to_an_earlier_ballot_is_refused_not_played_as_the_current_one():
    _table, room, _player, _tokens = politburo_on_phones()
    phones = room.phones
    offer = (("Vote?",), (("yes", "Yes"), ("no", "No")))
    phones.ask({0: offer, 1: offer})
    earlier = phones.ask_open.ballot
    phones.ask({0: offer, 1: offer})  # a new ballot: seat 1 never answered the earlier one
    assert phones.answer(0, earlier, 1) == "nothing is asked of this seat now"
    assert phones.poll() == [] and 0 not in phones.ask_open.answered
    assert phones.answer(0, phones.ask_open.ballot, 1) is None
    assert phones.poll() == [(0, "no")]
    # sent again until the phone hears it was taken: taken again, never played twice
    assert phones.answer(0, phones.ask_open.ballot, 1) is None
    assert phones.poll() == []


def test_a_refusal_is_seen_only_by_the_phone_that_made_it_and_every_reply_is_padded():
    _table, room, _player, tokens = politburo_on_phones()
    ballot = room.phones.ask_open.ballot

    async def scenario(client):
        mine = await client.ws_connect(f"/ws/P/{tokens[0]}")
        other = await client.ws_connect(f"/ws/P/{tokens[1]}")
        frames = [(await receive(mine)).data, (await receive(other)).data]
        await mine.send_str(json.dumps({"ballot": ballot, "option": 9}))
        refused = (await receive(mine)).data
        assert json.loads(refused) == {"type": "refused", "ballot": ballot, "why": "no such option"}
        with pytest.raises(asyncio.TimeoutError):  # the other phone hears nothing of it
            await other.receive(timeout=0.5)
        await mine.send_str(json.dumps({"ballot": ballot, "option": 0}))
        taken = (await receive(mine)).data
        assert json.loads(taken) == {"type": "taken", "ballot": ballot}
        frames += [refused, taken, (await receive(mine)).data]
        for frame in frames:  # every private frame a bucket's size, the replies included
            assert len(frame.encode()) == bucket(len(frame.rstrip().encode())), frame
        await mine.close()
        await other.close()

    scenario.room = room
    run(scenario)
    room.phones.refused(0, ("P3: no.",))  # the table refuses seat 1's answer
    assert json.loads(room.phone_message(0))["refused"] == ["P3: no."]
    assert json.loads(room.phone_message(1))["refused"] == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_padding_counts_the_bytes_sent_whatever_the_language(lang):
    from companion.ui.i18n import translator

    t = translator(lang)
    work, strike = t("Work"), t("Strike")
    assert lang == "en" or len(work.encode()) - len(work) != len(strike.encode()) - len(strike)
    for word in (work, strike):
        text = json.dumps({"played": word}, ensure_ascii=False)
        assert len(padded(text).encode("utf-8")) == bucket(len(text.encode("utf-8")))
