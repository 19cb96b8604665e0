"""An evening at a table, end to end (issue 31): a Gulag game for seven, six seats on phones
they named, the seventh passing the box and named on it; one phone dies mid-game, its seat
rejoins by the box's code, and a second phone on that seat waits to be let in.

Everything goes through what a table has: a real server on the loopback, each phone a
websocket from an address of its own (127.0.1.x), the TV the public feed, the box its
buttons and screen. The phones run on an event loop of their own, in a thread of their
own, so that the table can play in the test's thread as a box's loop does.
"""

import asyncio
import json
import logging
import threading
import time

import aiohttp
import pytest

from companion.store import Journal
from companion.table import Settings
from companion.table.modes import Admit, Announce, Choose, Cursor, Handoff, Over, Peek
from companion.ui.canvas import overflow
from companion.ui.i18n import translator
from companion.web.load import loopback
from companion.web.server import REPLACED
from tests.test_web_limits import serving
from tests.webtables import play_out, web_table

#: seat (0-based) -> the name typed on its phone: Latin with accents, Cyrillic
TYPED = {0: "Élodie", 1: "Борис", 2: "Zoë", 3: "Łukasz", 4: "Ольга", 5: "Jean-Luc"}
RECENT = {0: "Борис", 1: "Мария"}  # a recent game's names: "Борис" is taken tonight
BOX_SEAT, LOST = 6, 2  # seat 7 passes the box; seat 3's phone dies mid-game
NAMES = {**TYPED, BOX_SEAT: "Мария"}
#: seat 3 on the TV while its phone is lost (whatever its turn)
AWAY = {"seat": LOST + 1, "name": "Zoë", "link": "away", "asks": False, "turn": None}
ENDED = 4403  # the close of a link whose game is over


def words(lang: str) -> dict[str, str]:
    """What the box, the phones and the TV say of the evening, in the table's language
    (the catalog's sentences, whatever their wording, with the names in them)."""
    t = translator(lang)
    return {
        "bare": t("Box to seat {n}.").format(n=7),
        "handed": t("Box to {name} ({n})").format(name="Мария", n=7),
        "passed": t("Box to {name} ({n})").format(name="Zoë", n=3),
        "asks": t("Another phone asks for seat {n}: let it take your seat?").format(n=3),
        "waiting": t("Waiting for seat {n}'s phone or the box to let this phone in.").format(n=3),
        "moved": t("Seat {who} moved to a new phone.").format(who="3 (Zoë)"),
    }


#: every logger of the box and of the server's library, beside the root's
LOGGERS = ("companion", "aiohttp", "asyncio")
LOGGERS += tuple(f"aiohttp.{part}" for part in ("access", "server", "web", "websocket", "client"))


class Pocket:
    """The phones' event loop, in a thread of its own."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="phones", daemon=True)
        self.thread.start()
        self.sessions: list[aiohttp.ClientSession] = []

    def run(self, coroutine, timeout=10.0):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        for session in self.sessions:
            self.run(session.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        self.loop.close()


class Phone:
    """One phone (or the TV): its own address, one socket at a time, all it was sent."""

    def __init__(self, pocket: Pocket, number: int, base: str) -> None:
        self.pocket, self.base = pocket, base

        async def session():
            connector = aiohttp.TCPConnector(limit=0, local_addr=(loopback(number), 0))
            return aiohttp.ClientSession(connector=connector)

        self.session = pocket.run(session())
        pocket.sessions.append(self.session)
        self.ws = None
        self.path = ""  # the socket's path: a phone's link
        self.got: list[dict] = []
        self.closed: int | None = None  # the close code of its last socket
        self.answered: list[int] = []  # the ballots it answered

    def open(self, path: str) -> None:
        async def go():
            self.ws = await self.session.ws_connect(f"{self.base}{path}")
            self.path = path
            self.closed = None
            asyncio.get_running_loop().create_task(self.read(self.ws))

        self.pocket.run(go())

    async def read(self, ws) -> None:
        async for msg in ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.got.append(json.loads(msg.data))
        self.closed = ws.close_code

    def send(self, message: dict) -> None:
        self.pocket.run(self.ws.send_str(json.dumps(message)))

    def hang_up(self) -> None:
        self.pocket.run(self.ws.close())

    def post(self, path: str, form: dict) -> tuple[int, str | None]:
        async def go():
            url, data = f"{self.base}{path}", aiohttp.FormData(form)
            async with self.session.post(url, data=data, allow_redirects=False) as r:
                return r.status, r.headers.get("Location")

        return self.pocket.run(go())

    def get(self, path: str) -> int:
        async def go():
            async with self.session.get(f"{self.base}{path}") as r:
                return r.status

        return self.pocket.run(go())

    def states(self, kind: str = "phone") -> list[dict]:
        return [m for m in list(self.got) if m["type"] == kind]


def until(player, holds, what: str) -> None:
    """Let the table loop turn (no time passes on its clock) until ``holds()``: a bound on
    waiting for the other threads, never a measure."""
    for _ in range(2000):
        if holds():
            return
        player.wait(0)
        time.sleep(0.005)
    raise AssertionError(f"never: {what}")


def forms(text: str) -> tuple[str, ...]:
    """``text`` as it is, and as JSON or ``repr`` would escape it."""
    return text, json.dumps(text)[1:-1], ascii(text)[1:-1]


def logged(records) -> str:
    """Every record whole: its message and every field it carries."""
    return "\n".join(f"{r.getMessage()} {r.args!r} {vars(r)!r}" for r in records)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_evening_of_gulag_with_six_named_phones_a_lost_phone_and_a_second_phone(
    caplog, lang, tmp_path
):
    for name in LOGGERS:
        caplog.set_level(logging.DEBUG, logger=name)
    caplog.set_level(logging.DEBUG)
    assert lang == "en" or words(lang)["moved"] != words("en")["moved"]  # the catalog is there
    journal = Journal(tmp_path / "journal.sqlite")  # the box keeps its games, as at a table
    tokens = tmp_path / "phones.json"
    table, room, player = web_table(Settings("gulag", 7, lang), tokens_path=tokens, journal=journal)
    table.record.names.recent.keep(RECENT, key="last week")
    pocket = Pocket()
    kept: set[str] = set()  # every token and code of the evening
    try:
        with serving(room) as server:
            base = f"http://127.0.0.1:{server.port}"
            evening(table, room, player, pocket, base, kept, words(lang))
    finally:
        pocket.close()
        journal.close()
    # Nothing of a name, a token or a code in any log record, from any thread
    records = logged(caplog.records)
    assert "web server on" in records and "task recorded" in records  # all was captured
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    said = [
        secret
        for secret in (*NAMES.values(), *kept)
        if any(form in records or form in caplog.text for form in forms(secret))
    ]
    assert said == []
    # Nor in any file the box keeps, but the names of recent games beside the journal
    kept_in = {
        path.name: [
            secret
            for secret in (*NAMES.values(), *kept)
            if any(form.encode() in path.read_bytes() for form in forms(secret))
        ]
        for path in tmp_path.iterdir()
    }
    assert kept_in.pop("journal.sqlite.names") == list(NAMES.values())
    assert "journal.sqlite" in kept_in and not any(kept_in.values()), kept_in


def evening(table, room, player, pocket, base, kept, said) -> None:
    tv = Phone(pocket, 20, base)
    tv.open("/ws")
    phones = {seat: Phone(pocket, seat + 1, base) for seat in TYPED}
    holder = dict(phones)  # seat -> the phone holding it now (None: its phone died)
    for seat, phone in phones.items():
        token = room.tokens.issue(seat)  # the seat's link, as its QR code on the box gives it
        kept.add(token)
        assert phone.get(f"/P/{token}") == 200
        phone.open(f"/ws/P/{token}")
        phone.send({"name": TYPED[seat]})
        until(player, lambda p=phone: {"type": "name", "why": ""} in p.got, "a name taken")
    seat_options: list[str] = []  # every option a phone showed for a seat
    story: dict[str, object] = {}
    rejoined, moved = Phone(pocket, 11, base), Phone(pocket, 12, base)

    def answer(seat, index):
        phone = holder[seat]
        if phone is None:
            return  # its phone died: the seat passes the box once it has been silent enough
        ask = room.phones.ask_open
        labels = [label for _, label in ask.offers[seat][1]]

        def asked():
            now = [m for m in phone.states() if m["ask"]]
            return now and now[-1]["ask"]["ballot"] == ask.ballot

        until(player, asked, f"seat {seat + 1}'s phone asked")
        shown = [m for m in phone.states() if m["ask"]][-1]["ask"]
        if table.game.decision.kind != "peek":  # a peek's one option is the room's own words
            assert shown["options"] == labels  # the phone shows what the box offers
        if table.game.decision.kind.startswith("pick"):
            seat_options.extend(labels)
        phone.send({"ballot": ask.ballot, "option": index})
        taken = {"type": "taken", "ballot": ask.ballot}
        until(player, lambda: taken in phone.got, f"seat {seat + 1}'s answer taken")
        phone.answered.append(ask.ballot)

    def scene(table):
        mode = table.mode
        if isinstance(mode, Handoff) and mode.seat == BOX_SEAT and "handed" not in story:
            player.wait(0.4)  # past the new screen's guard
            assert table.screen().body[0] == said["bare"]
            player.press("up")  # ▲: the newest recent name no other seat carries
            story["handed"] = table.screen().body[0]
            assert overflow(table.screen()) == []  # the panel draws it whole
        elif "lost" not in story and phones[LOST].answered:
            phones[LOST].hang_up()  # seat 3's phone dies (a flat battery)
            holder[LOST] = None
            story["lost"] = len(phones[LOST].answered)
        elif isinstance(mode, Handoff) and mode.seat == LOST and holder[LOST] is None:
            story["passed"] = table.screen().body[0]  # its phone silent, the box goes to it
        elif (
            holder[LOST] is None
            and isinstance(mode, Peek | Choose | Cursor)
            and mode.seat == LOST
            and "code" not in story
        ):
            rejoin_by_code(table, room, player, tv, phones[LOST], rejoined, kept)
            holder[LOST] = rejoined
            story["code"] = True
        elif (
            holder[LOST] is rejoined
            and rejoined.answered
            and isinstance(mode, Handoff | Announce)
            and "moved" not in story
        ):
            second_phone(table, player, tv, rejoined, moved, said)
            holder[LOST] = moved
            story["moved"] = True
        return False

    play_out(table, player, answer, until=scene)
    assert isinstance(table.mode, Over)
    assert story.keys() == {"handed", "lost", "passed", "code", "moved"}
    assert moved.answered, "the second phone played on"
    # The box's hand-overs: seat 7 named with the recent name no other seat carries, seat 3
    # by the name its phone typed ("Box to Мария (7)", "Box to Zoë (3)")
    assert story["handed"] == said["handed"]
    assert story["passed"] == said["passed"]
    # The names on the TV: its room list and its picture
    until(player, lambda: tv.states("state") and tv.states("state")[-1]["end"], "the TV's end")
    last = tv.states("state")[-1]
    assert last["lang"] == table.lang
    everyone = {str(seat + 1): name for seat, name in NAMES.items()}
    assert [s["name"] for s in last["room"]] == [NAMES[seat] for seat in range(7)]
    assert last["names"] == everyone
    assert all(name in last["picture"] for name in NAMES.values())
    # On every phone's messages; and a phone offers a named seat by its name and number
    live = [phones[s] for s in TYPED if s != LOST] + [moved]
    for phone in [*live, rejoined]:
        assert phone.states()[-1]["names"] == everyone
    assert seat_options and set(seat_options) <= {f"{n} ({s + 1})" for s, n in NAMES.items()}
    # Every phone still at the table ends on its result, with no error on any phone
    for phone in live:
        until(player, lambda p=phone: p.closed is not None, "a phone's link closed")
        assert phone.closed == ENDED
        phone.open("/ws")  # the page reads the result from the public feed
        until(player, lambda p=phone: p.states("state"), "the result on a phone")
        assert phone.states("state")[-1]["end"]["headline"]
    for phone in [*phones.values(), rejoined, moved]:
        kinds = {m["type"] for m in phone.got}
        assert kinds <= {"phone", "name", "taken", "request", "waiting", "replaced", "state"}
        assert not any(m.get("refused") or m.get("why") for m in phone.got), phone.got


def rejoin_by_code(table, room, player, tv, lost, rejoined, kept) -> None:
    """Seat 3, at its own prompt on the box with its phone dead, asks for a code (PEEK held,
    Down); a new phone types it on the join page and joins at once: no phone holds the seat."""
    seat = LOST + 1
    assert table.decision().seats[0] == LOST
    until(
        player,
        lambda: tv.states("state")[-1]["room"][LOST] | {"turn": None} == AWAY,
        "the TV sees seat 3's phone away",
    )
    board = table.box.virtual_board
    board.drive("peek", True)
    player.wait(0.05)
    player.press("down")
    board.drive("peek", False)
    player.wait(0.05)
    assert table.shown is not None  # the code on the panel
    code = room.codes.live[LOST][0]  # as the panel shows it: "123 456"
    kept.add(code)
    status, where = rejoined.post("/J", {"code": f"{code[:3]} {code[3:]}"})
    assert status == 303 and where.startswith("/P/")
    token = where.rsplit("/", 1)[1]
    kept.add(token)
    assert rejoined.get(where) == 200
    rejoined.open(f"/ws/P/{token}")
    assert rejoined.get(lost.path.removeprefix("/ws")) == 403  # the lost phone's link died
    until(player, lambda: rejoined.states(), "the rejoined phone's first state")
    first = rejoined.states()[0]
    assert first["seat"] == seat and first["names"]["3"] == "Zoë"
    assert {m["type"] for m in rejoined.got} == {"phone"}  # in at once, nothing asked of anyone
    until(
        player,
        lambda: tv.states("state")[-1]["room"][LOST]["link"] == "here",
        "the TV sees seat 3 here again",
    )
    player.press("ok")  # the seat puts its code away; its prompt is back


def second_phone(table, player, tv, rejoined, moved, said) -> None:
    """A second phone opens seat 3's link while the rejoined phone holds it: it waits, the
    holding phone and the box are asked, the holding phone lets it in, the TV says so."""
    moved.open(rejoined.path)  # the same link, opened on another phone
    until(player, lambda: moved.got, "the second phone hears something")

    def request():
        asks = [m["request"] for m in rejoined.states() if m["request"]]
        return asks[-1] if asks else None

    until(player, request, "the holding phone asked")
    assert request()["text"] == said["asks"]
    until(player, lambda: isinstance(table.mode, Admit), "the box asks too")
    assert "3 (Zoë)" in " ".join(table.screen().body)
    until(player, lambda: tv.states("state")[-1]["room"][LOST]["asks"], "the TV sees it asks")
    player.wait(1.0)  # time passes: nobody has answered, so it still waits
    assert [m["type"] for m in moved.got] == ["waiting"]
    assert moved.got[0]["text"] == said["waiting"]
    assert rejoined.closed is None and isinstance(table.mode, Admit)
    rejoined.send({"request": request()["number"], "let": True})
    until(player, lambda: rejoined.closed is not None, "the holding phone let go")
    assert rejoined.closed == REPLACED and {"type": "replaced"} in rejoined.got
    until(player, lambda: moved.states(), "the second phone's seat")
    assert moved.states()[-1]["seat"] == LOST + 1
    until(player, lambda: not isinstance(table.mode, Admit), "the box's question gone")
    until(
        player,
        lambda: tv.states("state")[-1]["rejoin"] == said["moved"],
        "the TV says seat 3 moved",
    )
