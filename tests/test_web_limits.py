"""The web server on a shared Wi-Fi: nothing a device on the network can crash, lock out or learn.

Every server here listens on the loopback and every client is on the loopback
(127.0.1.x addresses stand for separate devices); each test's traffic is bounded
in count and time.
"""

import asyncio
import json
import logging
import os
import resource
import signal
import socket
import stat
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import pytest
from PIL import ImageFont

from companion.box import VirtualClock, open_box
from companion.demo import Player
from companion.table import Settings, Table
from companion.table.modes import Phones
from companion.ui import canvas
from companion.ui.i18n import translator
from companion.web import server as web_server
from companion.web.guard import HEADERS, Connections
from companion.web.load import loopback
from companion.web.server import WebServer, host_allowed
from companion.web.start import serve
from tests.webtables import give_phones, web_table


@contextmanager
def serving(room, **guard):
    """A real server (the guarded connection handler) for ``room`` on 127.0.0.1."""
    server = WebServer(room, "127.0.0.1", 0, tv_token="T" * 24, guard=Connections(**guard))
    server.start()
    try:
        yield server
    finally:
        server.stop()


def raw(port, data, source="127.0.0.1", wait=5.0):
    """Send ``data`` on a fresh connection; everything the server answered before closing."""
    with socket.create_connection(
        ("127.0.0.1", port), timeout=wait, source_address=(source, 0)
    ) as s:
        s.sendall(data)
        got = b""
        try:
            while chunk := s.recv(65536):
                got += chunk
        except ConnectionResetError:
            pass  # closed at once, before it read what was sent
        return got


def get(port, path="/", host=None, source="127.0.0.1", wait=5.0):
    """A plain ``GET``: (status, headers dict) of the answer."""
    head = (
        f"GET {path} HTTP/1.1\r\nHost: {host or f'127.0.0.1:{port}'}\r\nConnection: close\r\n\r\n"
    )
    answer = raw(port, head.encode(), source, wait)
    lines = answer.split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers


def test_a_font_is_opened_once_whatever_form_the_call_takes(monkeypatch):
    canvas.preload_fonts()

    def no_more_files(*args, **kwargs):
        raise OSError("cannot open resource")

    monkeypatch.setattr(ImageFont, "truetype", no_more_files)
    for size in canvas.BIG_SIZES:
        assert canvas.font(True, size) is canvas.font(bold=True, size=size)
    assert canvas.font() is canvas.font(False, canvas.LINE)
    canvas.render(canvas.Screen("Seat 4: vote", big="Страйк"))  # a big word, no file opened


def test_an_unfinished_request_is_closed_within_its_deadline():
    _table, room, _player = web_table(Settings("gulag", 5))
    with serving(room, deadline=1.0) as server:
        started = time.monotonic()
        assert raw(server.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n") == b""
        assert time.monotonic() - started < 1.0 + 0.5 + 1.0  # deadline, a sweep, slack
        assert get(server.port)[0] == 200


def test_no_body_is_waited_for():
    _table, room, _player = web_table(Settings("gulag", 5))
    with serving(room, deadline=30.0) as server:
        started = time.monotonic()
        head = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Length: 900\r\n\r\n"
        answer = raw(server.port, head.encode() + b"x" * 10)
        assert answer.startswith(b"HTTP/1.1 400") and time.monotonic() - started < 5


def test_at_the_cap_a_real_request_displaces_the_oldest_unfinished_one():
    _table, room, _player = web_table(Settings("gulag", 5))
    with serving(room, total=10, deadline=30.0) as server:
        held = []
        for i in range(10):
            s = socket.create_connection(
                ("127.0.0.1", server.port), source_address=(loopback(i), 0)
            )
            s.sendall(b"GET / HTTP/1.1\r\n")
            held.append(s)
        time.sleep(0.2)
        assert get(server.port)[0] == 200
        held[0].settimeout(2)
        assert held[0].recv(100) == b""  # the oldest was closed to make room
        held[-1].setblocking(False)
        with pytest.raises(BlockingIOError):
            held[-1].recv(100)  # the newest is still open
        for s in held:
            s.close()


def test_one_address_holds_only_its_share_of_connections():
    _table, room, _player = web_table(Settings("gulag", 5))
    with serving(room, per_address=3, deadline=30.0) as server:
        held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(3)]
        for s in held:
            s.sendall(b"GET / HTTP/1.1\r\n")
        time.sleep(0.2)
        assert get(server.port)[0] == 200  # a real request from that address still gets in
        held[0].settimeout(2)
        assert held[0].recv(100) == b""  # by displacing that address's oldest unfinished one
        held[1].setblocking(False)
        with pytest.raises(BlockingIOError):
            held[1].recv(100)  # the others stay
        assert get(server.port, source=loopback(7))[0] == 200  # another device gets in
        for s in held:
            s.close()


def test_an_address_whose_connections_are_all_busy_gets_no_more():
    guard = Connections(total=10, per_address=2, deadline=30.0)

    class Handler:
        closed = False

        def force_close(self):
            self.closed = True

    busy = [Handler(), Handler()]
    for handler in busy:
        assert guard.admit(handler, "10.42.0.9")
        guard.busy(handler)  # two websockets open
    assert not guard.admit(Handler(), "10.42.0.9")
    assert not any(h.closed for h in busy)
    assert guard.admit(Handler(), "10.42.0.10")


def test_every_answer_carries_the_security_headers_errors_included(monkeypatch):
    _table, room, _player = web_table(Settings("gulag", 5))
    with serving(room) as server:
        port = server.port
        answers = {
            200: get(port),
            404: get(port, "/nowhere"),
            403: get(port, "/P/WRONG"),
            421: get(port, host="evil.example"),
        }
        bad = raw(port, b"NOT HTTP AT ALL\r\n\r\n").split(b"\r\n\r\n")[0].decode()
        monkeypatch.setattr(web_server, "now", lambda: 1000.0)
        statuses = [get(port, "/static/style.css", source=loopback(3)) for _ in range(105)]
    assert statuses[-1][0] == 429
    answers[429] = statuses[-1]
    for status, (got, headers) in answers.items():
        assert got == status
        for name, value in HEADERS.items():
            assert headers.get(name) == value, (status, name)
    assert bad.split()[1] == "400"
    for name, value in HEADERS.items():
        assert f"{name}: {value}" in bad


def test_the_host_must_name_the_address_the_request_came_in_on():
    assert host_allowed("10.42.0.1:8080", ("10.42.0.1", 8080))
    assert host_allowed("localhost:8080", ("127.0.0.1", 8080))
    assert host_allowed("[::1]:8080", ("::1", 8080))
    assert host_allowed("10.42.0.1", ("10.42.0.1", 80))
    for host in ["evil.example:8080", "10.42.0.2:8080", "10.42.0.1:8081", "localhost:8080", ""]:
        assert not host_allowed(host, ("10.42.0.1", 8080)), host
    assert not host_allowed("10.42.0.1:80:80", ("10.42.0.1", 80))
    # Wildcard and look-alike names: only the bare ``localhost``, on the loopback
    for host in [
        "*.localhost:8080",
        "a.localhost:8080",
        "localhost.:8080",
        "*:8080",
        "127.0.0.1.nip.io:8080",
        "localhost.evil.example:8080",
        "*.127.0.0.1:8080",
    ]:
        assert not host_allowed(host, ("127.0.0.1", 8080)), host


def test_bad_requests_are_counted_and_logged_at_a_bounded_rate_never_with_a_token(caplog):
    caplog.set_level(logging.DEBUG)
    _table, room, _player = web_table(Settings("gulag", 5))
    token = room.tokens.issue(0)
    with serving(room, deadline=0.4) as server:
        for i in range(30):
            raw(server.port, f"GET /P/{token}{'x' * 9000} HTTP/1.1\r\n\r\n".encode())
            raw(server.port, f"BAD /P/{token} HTTP/1.1\r\n\r\n".encode(), source=loopback(i))
        time.sleep(0.5)
        for _ in range(10):
            raw(server.port, b"\x16\x03\x01 not http\r\n\r\n")
        time.sleep(0.5)
    assert token not in caplog.text
    assert "Traceback" not in caplog.text and not any(r.exc_info for r in caplog.records)
    said = [r.getMessage() for r in caplog.records if "bad requests" in r.getMessage()]
    assert len(said) == 1, said  # one line for the lot, the next not before a minute
    assert "bad requests" in said[0]


def test_the_box_keeps_playing_under_a_thousand_unfinished_requests():
    """1,100 unfinished requests from 30 addresses under a 1,024-file limit (over both the
    per-address and the total cap; the normal requests come from one of the 30), against the box
    as ``companion run --web`` starts it (fonts and files warmed, then the server, with its
    real deadline): presses are answered, a normal request succeeds throughout, and the
    unfinished ones are closed within the deadline."""
    clock = VirtualClock()
    box = open_box("virtual", clock=clock)
    table = Table(box, seed=1)
    table.start(Settings("gulag", 7))
    player = Player(box, table, clock)
    canvas._face.cache_clear()  # the fonts now come from the web side's own warm-up
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))
    port = free_port()
    server = serve(table, f"127.0.0.1:{port}", None, clock.now)
    deadline = server.guard.deadline
    frames = set()
    try:
        hold = ["hold", "127.0.0.1", str(port), "1100", "30", str(4 * deadline + 10)]
        probe = subprocess.Popen(
            [sys.executable, "-m", "companion.web.load", *hold],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard)),
        )
        try:
            assert probe.stdout.readline().strip() == "ready"
            end = time.monotonic() + 3 * deadline  # long enough for a deadline to be missed
            served = presses = 0
            while time.monotonic() < end:
                player.press("ok" if presses % 3 == 0 else "down")
                presses += 1
                frames.add(box.board.glass().tobytes())
                # A flood fills the kernel's queue at times: a connection may wait for a
                # resent SYN (1 s, then 2 s more) before it is answered.
                assert get(port, source=loopback(0), wait=15.0)[0] == 200
                served += 1
                time.sleep(0.2)
            out, _ = probe.communicate(input="", timeout=30)
        finally:
            probe.kill()
    finally:
        server.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    held = json.loads(out.strip().splitlines()[-1])
    bound = 2 * deadline + 2  # the deadline, a sweep, and slack for a loaded machine
    assert held["held"] == 1100 and held["closed"] >= 1100  # each reopened when closed
    assert held["slowest"] < bound and held["oldest_open"] < bound
    assert served >= 10 and len(frames) >= 3  # the box drew what the presses asked


def run_on(server, scenario):
    """``scenario(base_url)`` in an asyncio loop of the test's own."""
    return asyncio.run(scenario(f"http://127.0.0.1:{server.port}"))


def session_from(i):
    return aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=0, local_addr=(loopback(i), 0))
    )


def test_one_address_cannot_take_every_spectator_slot_and_the_tv_link_always_gets_in(
    monkeypatch,
):
    monkeypatch.setattr(web_server, "MAX_SPECTATORS", 8)
    _table, room, _player = web_table(Settings("gulag", 5))

    async def scenario(base):
        sessions = [session_from(i) for i in range(4)]
        feeds = []
        try:
            for _ in range(web_server.SPECTATORS_PER_ADDRESS):
                feeds.append(await sessions[0].ws_connect(f"{base}/ws"))
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await sessions[0].ws_connect(f"{base}/ws")
            assert refused.value.status == 503  # this address had its share
            for _ in range(web_server.SPECTATORS_PER_ADDRESS):
                feeds.append(await sessions[1].ws_connect(f"{base}/ws"))  # another device
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await sessions[2].ws_connect(f"{base}/ws")  # every slot is taken now
            tv = await sessions[2].ws_connect(f"{base}/ws/TV/{'t' * 24}")  # case-insensitive
            assert json.loads((await tv.receive(timeout=5)).data)["game"] == "gulag"
            with pytest.raises(aiohttp.WSServerHandshakeError) as forged:
                await sessions[3].ws_connect(f"{base}/ws/TV/{'A' * 24}")
            assert forged.value.status == 403
        finally:
            for session in sessions:
                await session.close()

    with serving(room) as server:
        run_on(server, scenario)


def frame_sizes(swap, pad=True, monkeypatch=None, leak=False, lang="en"):
    """The size of every websocket frame the TV and each phone receive, from the start of a
    Gulag game for 5 to the table's next decision after the first task vote, played on the
    phones, with the first two workers' cards swapped if ``swap``. With ``leak``, a room that
    tells each phone the card it played (as the phone page once did) stands in for ours.

    The table acts on the server's own loop and each step waits until every client has the
    latest message, so the frames sent are the same from run to run, whatever the timing."""
    table, room, player = web_table(Settings("gulag", 5, lang))
    tokens = give_phones(room, range(5))
    for seat in range(5):
        room.phones.joined(seat, -1)  # the real sockets below count instead
    t = translator(lang)  # in French the cards' words differ in bytes, not only in characters
    got = {who: [] for who in ["tv", *range(5)]}
    chosen = {}
    if leak:
        honest = room.phone_message

        def leaky(seat):
            card = {0: t("Work"), 1: t("Strike")}.get(chosen.get(seat), "")
            return honest(seat)[:-1] + f',"played":"{card}"}}'

        monkeypatch.setattr(room, "phone_message", leaky)

    async def read(ws, who):
        async for msg in ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                got[who].append(msg.data)

    def latest():
        return {"tv": room.spectator, **{seat: room.phone_message(seat) for seat in range(5)}}

    async def step(server, action):
        async def on_server_loop():
            action()

        asyncio.run_coroutine_threadsafe(on_server_loop(), server.loop).result(10)
        for _ in range(500):
            await asyncio.sleep(0.01)
            want = latest()
            if all(got[who] and got[who][-1].rstrip() == want[who] for who in got):
                return
        raise AssertionError("the clients never caught up")

    async def scenario(server):
        base = f"http://127.0.0.1:{server.port}"
        sessions = [session_from(i) for i in range(6)]
        sockets = {"tv": await sessions[5].ws_connect(f"{base}/ws")}
        for seat, token in tokens.items():
            sockets[seat] = await sessions[seat].ws_connect(f"{base}/ws/P/{token}")
        readers = [asyncio.create_task(read(ws, who)) for who, ws in sockets.items()]
        await step(server, lambda: player.wait(0.5))
        voted = []
        for _ in range(200):
            if voted and not isinstance(table.mode, Phones):
                break
            if not isinstance(table.mode, Phones):
                await step(server, lambda: player.press("ok"))
                continue
            d, ask = table.game.decision, room.phones.ask_open
            for seat in sorted(set(ask.offers) - ask.answered):
                index = 0
                if d.kind == "task" and seat in d.seats[:2]:
                    voted.append(seat)
                    index = int((seat == d.seats[0]) != swap)
                    chosen[seat] = index
                await sockets[seat].send_str(json.dumps({"ballot": ask.ballot, "option": index}))
                for _ in range(500):
                    await asyncio.sleep(0.01)
                    if seat in ask.answered:
                        break
                await step(server, lambda: None)
            await step(server, lambda: player.wait(0.5))
        for ws in sockets.values():
            await ws.close()
        await asyncio.gather(*readers, return_exceptions=True)
        for session in sessions:
            await session.close()
        return voted

    if not pad:
        monkeypatch.setattr(web_server, "padded", lambda text: text)
    with serving(room) as server:
        voted = asyncio.run(scenario(server))
    return {who: [len(m.encode()) for m in messages] for who, messages in got.items()}, voted


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_swapped_votes_give_every_client_frames_of_the_same_sizes(monkeypatch, lang):
    plain, voters = frame_sizes(swap=False, lang=lang)
    swapped, same = frame_sizes(swap=True, lang=lang)
    assert voters and sorted(voters) == sorted(same)
    for who in plain:
        assert plain[who] == swapped[who], who
        assert plain[who], who  # every client was sent something
    # The control: a room whose phone frames name the card played gives the vote away
    # unpadded, and padding hides it.
    hidden, _ = frame_sizes(swap=False, monkeypatch=monkeypatch, leak=True, lang=lang)
    hidden_swapped, _ = frame_sizes(swap=True, monkeypatch=monkeypatch, leak=True, lang=lang)
    assert hidden == hidden_swapped  # sizes as bytes on the wire: padded in bytes
    bare, _ = frame_sizes(swap=False, pad=False, monkeypatch=monkeypatch, leak=True, lang=lang)
    bare_swapped, _ = frame_sizes(
        swap=True, pad=False, monkeypatch=monkeypatch, leak=True, lang=lang
    )
    assert any(bare[seat] != bare_swapped[seat] for seat in voters)


def test_an_interface_without_an_address_yet_is_waited_for(monkeypatch):
    """At boot the hotspot gets its address after the box starts: the box plays, and the
    server listens once the address is there."""
    from companion.web import address

    has = {"address": False}
    monkeypatch.setattr(
        address, "interface_address", lambda name: "127.0.0.1" if has["address"] else None
    )
    _table, room, player = web_table(Settings("gulag", 5))
    server = WebServer(room, "lo", 0)
    server.start()
    try:
        assert not server.listening.wait(1.5)
        player.press("ok")  # the box plays meanwhile
        has["address"] = True
        assert server.listening.wait(5)
        assert server.url("/P/X") == f"HTTP://127.0.0.1:{server.port}/P/X"
        assert get(server.port)[0] == 200
    finally:
        server.stop()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_companion_run_serves_the_tv_and_writes_its_link(tmp_path):
    port = free_port()
    ready = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)  # systemd's word: the box is up
    ready.bind(str(tmp_path / "notify"))
    ready.settimeout(60)
    env = {**os.environ, "COMPANION_DATA": str(tmp_path), "NOTIFY_SOCKET": str(tmp_path / "notify")}
    web = ["--web", f"127.0.0.1:{port}"]
    box = subprocess.Popen(
        [sys.executable, "-m", "companion", "run", "--board", "virtual", "--headless", *web],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        link = tmp_path / "tv-link.txt"
        end = time.monotonic() + 30
        while not link.exists() and time.monotonic() < end and box.poll() is None:
            time.sleep(0.1)
        url = link.read_text().strip()
        assert stat.S_IMODE(link.stat().st_mode) == 0o600
        assert url.startswith(f"http://127.0.0.1:{port}/TV/")
        assert get(port)[0] == 200
        assert get(port, url.removeprefix(f"http://127.0.0.1:{port}"))[0] == 200
        assert get(port, "/TV/" + "A" * 24)[0] == 403
        while b"READY=1" not in ready.recv(4096):  # its loop runs: a stop is now a clean one
            pass
        box.send_signal(signal.SIGTERM)
        assert box.wait(timeout=10) == 0
    finally:
        box.kill()
        ready.close()
    assert url.rsplit("/", 1)[1] not in box.stderr.read()  # the link is in no log line


def test_the_server_modules_stay_simple_and_touch_no_private_names():
    """ruff's C901 at 12 and SLF001 over the web server's own modules."""
    ruff = [sys.executable, "-m", "ruff", "check", "--select", "C901,SLF001"]
    files = ["server.py", "guard.py", "address.py", "start.py", "padding.py", "tokens.py"]
    root = Path(web_server.__file__).parent
    done = subprocess.run(
        [*ruff, "--config", "lint.mccabe.max-complexity=12", *(str(root / f) for f in files)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout


def test_the_readme_gives_the_servers_own_figures_and_no_web_extra():
    from companion.web import guard

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    text = " ".join(readme.split())
    assert f"{guard.DEADLINE:g}-second deadline" in text
    assert f"at most {guard.PER_ADDRESS} connections" in text
    assert f"stay {guard.RESERVED_FILES + guard.IN_FLIGHT} below the open-file limit" in text
    spectators = web_server.SPECTATORS_PER_ADDRESS, web_server.MAX_SPECTATORS
    assert "takes at most {} of the {} spectator feeds".format(*spectators) in text
    assert "[web]" not in readme and "`web` extra" not in readme
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    assert "companion[web]" not in pyproject and '"aiohttp>=' in pyproject


def test_handshakes_at_once_do_not_pass_the_per_address_share_together():
    _table, room, _player = web_table(Settings("gulag", 5))

    async def scenario(base):
        async with session_from(9) as session:
            tries = [session.ws_connect(f"{base}/ws") for _ in range(12)]
            results = await asyncio.gather(*tries, return_exceptions=True)
            opened = [r for r in results if not isinstance(r, BaseException)]
            assert len(opened) == web_server.SPECTATORS_PER_ADDRESS
            for ws in opened:
                await ws.close()

    with serving(room) as server:
        run_on(server, scenario)
