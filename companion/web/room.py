"""The web room: what the table tells its watchers, kept for the server thread, and the phones.

The room watches the table (``Table.watch``: ``began``, ``stepped``,
``revealed``, ``ended``, ``connected``), and its ``phones`` answer for their
seats through the table's phones' desk (``Table.join``), as the wired handsets
do. The server thread reads finished messages and hands in phone answers,
codes typed on the join page and new phones asking for a seat
(``companion.web.rejoin``). One lock guards both sides; the server is woken
through ``listeners`` and never calls into the game: what it changes reaches
the TV on the table's next turn (``presence_changed``).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from companion.games.base import Choice
from companion.table.names import checked
from companion.table.phones import Offer, View
from companion.table.watchers import Step, Watcher
from companion.ui.canvas import Screen
from companion.ui.contract import GameUI
from companion.ui.i18n import Translate, language_of, translator
from companion.web.hand import private_card
from companion.web.pictures import picture
from companion.web.rejoin import (
    Codes,
    Request,
    Requests,
    code_frame,
    holder_question,
    shown_address,
    tv_line,
)
from companion.web.reveals import Reveals
from companion.web.summary import summary_svg
from companion.web.tokens import Tokens
from companion.web.tv import (
    end_of_game,
    page_words,
    reveal_words,
    screen_lines,
    status_words,
    title_words,
    waiting_lines,
)

AWAY = 5.0  # seconds without a link before the TV shows a seat's phone as away
SILENT = 20.0  # seconds a phone may be away (a locked screen) before its seat passes the box
HISTORY = 200  # reveal screens (and events) sent to the spectator page


def _json(message: dict[str, Any]) -> str:
    return json.dumps(message, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def said_lines(screens: Sequence[Screen]) -> list[list[str]]:
    """A step's reveal screens as lines, those with nothing but a status line left out."""
    return [lines for s in screens if (lines := screen_lines(s))]


def spectator_state(
    view: View, ui: GameUI, t: Translate, names: Mapping[int, str] | None = None
) -> dict[str, Any]:
    """Everything the TV shows, made from the public view alone and the seats' public
    names (0-based), written for the table."""
    waiting = view["waiting"]
    status = status_words(view, ui, t)
    drawn = picture(view, t, names)
    end = None if waiting is not None else end_of_game(view, ui, t)
    if end is not None:
        end["summary"] = summary_svg(title_words(view, ui, t), status, end, drawn)
    return {
        "type": "state",
        "game": view["game"],
        "title": title_words(view, ui, t),
        "lang": language_of(t),
        "words": page_words(t),
        "status": status,
        "waiting": None if waiting is None else waiting["seats"],
        "prompt": waiting_lines(view, ui, t),
        "picture": drawn,
        "end": end,
        "final": [] if end is None else end["pages"],
    }


def room_list(
    view: View,
    names: dict[str, str],
    presence: dict[int, str],
    asking: frozenset[int] = frozenset(),
) -> list[dict[str, Any]]:
    """Who is at the table, for the TV: each seat's number, name, link and turn. A seat
    without a phone is "box"; "turn" is the public wait (who is asked now); "asks": a new
    phone asks for the seat."""
    waiting = view["waiting"]
    asked = set() if waiting is None else set(waiting["seats"])
    return [
        {
            "seat": seat + 1,
            "name": names.get(str(seat + 1), ""),
            "link": presence.get(seat, "box"),
            "turn": seat in asked,
            "asks": seat in asking,
        }
        for seat in range(view["players"])
    ]


def private_lines(own: View, public: View, ui: GameUI, t: Translate) -> list[str]:
    """What only the seat may read: its private card, in words."""
    return private_card(own, public, ui, t)


@dataclass
class Ask:
    """An open question on the phones: seat -> (prompt lines, ((choice, label), ...))."""

    ballot: int
    offers: dict[int, Offer]
    answered: set[int] = field(default_factory=set)


class Phones:
    """Phones as handsets, for any option: the ``PhoneRoom`` of ``companion.table.phones``."""

    def __init__(self, room: WebRoom, clock: Callable[[], float]) -> None:
        self.room = room
        self.clock = clock
        self.connected: dict[int, int] = {}  # seat -> open websockets
        self.last_seen: dict[int, float] = {}
        self.ask_open: Ask | None = None
        self.ballot = 0
        self.votes: list[tuple[int, Choice]] = []
        self.refusals: dict[int, tuple[str, ...]] = {}
        self.names: list[tuple[int, str]] = []  # names typed on the phones, for the table
        self.taken: dict[int, int] = {}  # seat -> the last ballot whose answer it gave was taken

    # -- the table's side ---------------------------------------------------------
    def seats(self) -> set[int]:
        """Seats whose phone is connected, or was within ``SILENT`` seconds."""
        with self.room.lock:
            now = self.clock()
            live = {s for s, n in self.connected.items() if n > 0}
            recent = {s for s, t in self.last_seen.items() if now - t < SILENT}
            return (live | recent) & set(self.room.tokens.by_seat)

    def ask(self, offers: dict[int, Offer]) -> None:
        with self.room.lock:
            self.ballot += 1
            self.ask_open = Ask(self.ballot, dict(offers))
            self.votes = []
            self.refusals = {}
        self.room.changed()

    def poll(self) -> list[tuple[int, Choice]]:
        with self.room.lock:
            votes, self.votes = self.votes, []
            lapsed = self.room.requests.lapse()
        if lapsed:
            self.room.changed()  # the waiting phone hears its request lapsed
        self.room.presence_changed()  # asked every turn of the loop: a link lost long enough
        return votes

    def code(self, seat: int) -> Image.Image:
        """A new code for ``seat`` (its old one dies), as the panel frame that shows it."""
        with self.room.lock:
            code = self.room.codes.issue(seat)
        where = shown_address(self.room.join_url())
        return code_frame(code, seat, where, translator(self.room.lang))

    def asking(self) -> list[tuple[int, int]]:
        """The open requests for a seat by a new phone: (number, seat), oldest first."""
        with self.room.lock:
            return sorted((r.number, r.seat) for r in self.room.requests.open.values())

    def admit(self, number: int, let_in: bool) -> None:
        """The box's answer to request ``number``."""
        self.room.settle(number, let_in)

    def presence(self) -> dict[int, str]:
        """seat -> "here" or "away" (its link lost for ``AWAY`` seconds), for the seats whose
        phone joined; a blip shorter than that is not shown."""
        with self.room.lock:
            now = self.clock()
            return {
                seat: "here" if self.connected.get(seat, 0) > 0 or now - seen < AWAY else "away"
                for seat, seen in sorted(self.last_seen.items())
                if seat in self.room.tokens.by_seat
            }

    def done(self) -> None:
        with self.room.lock:
            self.ask_open = None
            self.votes = []
        self.room.changed()

    def refused(self, seat: int, why: tuple[str, ...]) -> None:
        """The table refused the seat's answer: it may answer again, and reads why."""
        with self.room.lock:
            if self.ask_open is not None:
                self.ask_open.answered.discard(seat)
            self.taken.pop(seat, None)  # its next answer to the ballot is a new one
            self.refusals[seat] = tuple(why)
        self.room.changed()

    # -- the server's side ----------------------------------------------------------
    def joined(self, seat: int, delta: int) -> None:
        with self.room.lock:
            self.connected[seat] = self.connected.get(seat, 0) + delta
            self.last_seen[seat] = self.clock()

    def answer(self, seat: int, ballot: object, index: object) -> str | None:
        """Take a phone's answer for its own seat; the refusal's reason, or None if taken.

        A phone sends its answer again until it hears it was taken: an answer to a ballot
        this seat's answer was already taken for is taken again and played once. An
        answer to any other ballot than the open one is refused, never played as it."""
        with self.room.lock:
            if type(ballot) is int and self.taken.get(seat) == ballot:
                return None
            ask = self.ask_open
            if ask is None or ballot != ask.ballot or seat not in ask.offers:
                return "nothing is asked of this seat now"
            options = ask.offers[seat][1]
            if (
                not isinstance(index, int)
                or isinstance(index, bool)
                or not 0 <= index < len(options)
            ):
                return "no such option"
            if seat in ask.answered:
                return "already answered"
            ask.answered.add(seat)
            self.taken[seat] = ask.ballot
            self.refusals.pop(seat, None)
            self.votes.append((seat, options[index][0]))
            return None

    def typed(self) -> list[tuple[int, str]]:
        """The names typed on the phones since the last call: (seat, name), checked."""
        with self.room.lock:
            names, self.names = self.names, []
            return names

    def name(self, seat: int, text: object) -> str | None:
        """A name typed on ``seat``'s phone ("" clears it); why it is refused, or None."""
        with self.room.lock:
            name, why = checked(text, translator(self.room.lang))
            if name is None:
                return why
            self.names.append((seat, name))
            return None

    def question(self, seat: int) -> dict[str, Any] | None:
        ask = self.ask_open
        if ask is None or seat not in ask.offers or seat in ask.answered:
            return None
        prompt, options = ask.offers[seat]
        labels = [o[1] for o in options]
        if [o[0] for o in options] == ["seen"]:
            # A peek: the box's prompt names its PEEK and OK keys, which a phone has not; the
            # phone's own hold button shows the card, and its one option says it was seen.
            prompt, labels = (self.room.words["look"],), [self.room.words["seen"]]
        return {"ballot": ask.ballot, "prompt": list(prompt), "options": labels}

    def admit_from(self, seat: int, number: object, let_in: object) -> str | None:
        """The answer of ``seat``'s phone to a request for its own seat; why it is refused."""
        if type(number) is not int or type(let_in) is not bool:
            return "expected {request, let}"
        if self.room.settle(number, let_in, seat) is None:
            return "no such request for this seat"
        return None

    def link(self, seat: int) -> Image.Image:
        """A new link for ``seat``'s phone (the old one dies): the panel frame of its QR code."""
        return self.room.qr_image(seat)


class WebRoom(Watcher):
    """What the spectator page and each phone are sent, made on the table's thread from
    what the table tells its watchers."""

    def __init__(
        self,
        tokens: Tokens,
        clock: Callable[[], float],
        url_of: Callable[[str], str] = lambda token: f"/P/{token}",
        join_url: Callable[[], str] = lambda: "/J",
    ) -> None:
        self.lock = threading.RLock()
        self.tokens = tokens
        self.url_of = url_of
        self.join_url = join_url  # where a code is typed, as the box shows it
        self.codes = Codes(clock)  # in memory only: a code is never saved or logged
        self.requests = Requests(clock)
        self._rejoin: tuple[frozenset[int], str | None] = (frozenset(), None)
        self.phones = Phones(self, clock)
        self.listeners: list[Callable[[], None]] = []
        self.spectator = _json({"type": "state", "game": None})
        path = getattr(tokens, "path", None)
        self.reveals = Reveals(None if path is None else path.with_name("tv-history.json"))
        self.private: dict[int, list[str]] = {}
        self.status = ""
        self.lang = "en"
        self.words = page_words(str)
        self._reveal: dict[str, Any] | None = None  # the event on show, and
        self._reveal_view: dict[str, Any] | None = None  # the view it was first shown with
        self._unsaid: tuple[int, View | None] | None = None  # a reveal still in the box's lines
        self.version = 0
        self._view: View | None = None
        self._seats: frozenset[int] = frozenset()
        self.names: dict[
            str, str
        ] = {}  # "4" -> "Anna": the seats' public names, as the pages count
        self._names: dict[str, str] = {}  # the names last published
        self._presence: dict[int, str] = {}  # the phones' presence last published
        self._step: Step | None = None  # the last step told, remade when the phones change

    @property
    def history(self) -> list[list[str]]:
        """Every reveal screen of the game so far, oldest first."""
        return self.reveals.screens()

    def changed(self) -> None:
        with self.lock:
            self.version += 1
        for wake in list(self.listeners):
            wake()

    # -- the table's side: a watcher's events ---------------------------------------
    def began(
        self, key: str | None, resumed: bool, earlier: Sequence[Sequence[Screen]] = ()
    ) -> None:
        self.begin(key, resumed, earlier)

    def stepped(self, step: Step) -> None:
        self._step = step
        self.publish(step.view, step.ui, step.t, step.own)

    def revealed(self, screens: Sequence[Screen]) -> None:
        self.reveal(screens)

    def ended(self, step: Step) -> None:
        if self.tokens.by_seat:
            self.tokens.end()  # the game is over: its tokens die with it
            with self.lock:
                self.codes.clear()
                self.requests.clear()
            self._again()

    def connected(self, seats: frozenset[int]) -> None:
        self._again()

    def named(self, names: Mapping[int, str]) -> None:
        with self.lock:
            self.names = {str(seat + 1): name for seat, name in sorted(names.items())}
        self._again()

    def presence_changed(self) -> None:
        """A phone came, went or has been away long enough, a seat got a link, a new phone
        asks for a seat or was answered: the TV is told (on the table's thread: the server's
        side only changes the room and wakes the phones)."""
        with self.lock:
            seats = frozenset(self.tokens.by_seat)
        news = seats != self._seats or self.rejoin_state() != self._rejoin
        if news or self.phones.presence() != self._presence:
            self._again()

    def rejoin_state(self) -> tuple[frozenset[int], str | None]:
        """The seats a new phone asks for, and the TV's line about the last one settled."""
        with self.lock:
            said = self.requests.said
            return frozenset(self.requests.open), None if said is None else said[0]

    def settle(self, number: int, let_in: bool, seat: int | None = None) -> Request | None:
        """Answer request ``number`` (from the box, or from ``seat``'s phone): the TV says
        so in public words; the waiting phone's server task acts on the verdict."""
        with self.lock:
            request = self.requests.settle(number, let_in, seat)
            if request is None:
                return None
            line = tv_line(translator(self.lang), request.seat, self.names, let_in)
            self.requests.say(line)
        self.changed()
        return request

    def ask_for_seat(self, seat: int, token: str, fresh: bool) -> Request:
        """A phone asks for ``seat``, held by a connected phone: it waits for an answer."""
        with self.lock:
            request = self.requests.ask(seat, token, fresh)
        self.changed()
        return request

    def withdraw(self, request: Request) -> None:
        with self.lock:
            self.requests.withdraw(request)
        self.changed()

    def take_seat(self, seat: int, token: str) -> bool:
        """A phone joins ``seat`` with ``token``: a code's fresh link becomes the seat's own
        (the old one dies). False if the token is for no seat any more."""
        with self.lock:
            if self.tokens.by_seat.get(seat) == token:
                return True
            if self.requests.fresh.get(seat) != token:
                return False
            del self.requests.fresh[seat]
            self.tokens.adopt(seat, token)
        self.changed()
        return True

    def seat_by_code(self, code: str) -> tuple[int | str, str | None]:
        """A code typed on the join page: (seat, its link) or (why, None). A seat whose phone
        is connected gets a fresh link, live once let in; any other gets its new link now."""
        with self.lock:
            found = self.codes.use(code)
            if isinstance(found, str):
                return found, None
            if self.phones.connected.get(found, 0) > 0:
                token = self.requests.fresh[found] = self.tokens.fresh()
                return found, token
            self.requests.fresh.pop(found, None)
            token = self.tokens.issue(found)
        self.changed()  # the seat's view follows from the table's next turn (presence_changed)
        return found, token

    def _again(self) -> None:
        """The last step once more: a phone came or went, or a seat has a new link."""
        step = self._step
        if step is not None:
            self.publish(step.view, step.ui, step.t, step.own)

    def begin(
        self, key: str | None, resumed: bool, earlier: Sequence[Sequence[Screen]] = ()
    ) -> None:
        """A game starts or resumes; ``earlier``: its reveals so far (each step's screens, from
        the journal), which the TV's history is rebuilt from."""
        with self.lock:
            self.tokens.begin(key, resumed)
            self.codes.clear()
            self.requests.clear()
            self.reveals.begin(key, resumed, [said_lines(step) for step in earlier])
            self._reveal = self._reveal_view = None
            self._view = None
            self._unsaid = None
            self.phones.done()

    def publish(
        self,
        view: View | None,
        ui: GameUI,
        t: Translate,
        own_view: Callable[[int], View] | None,
    ) -> None:
        """The table's state after a step; messages are remade only when something changed."""
        seats = frozenset(self.tokens.by_seat)
        presence = self.phones.presence()
        rejoin = self.rejoin_state()
        same = view == self._view and seats == self._seats and presence == self._presence
        if same and self.names == self._names and rejoin == self._rejoin:
            if self._unsaid is not None:  # a reveal with no move after it: shown as it came
                self._unsaid = None
                self._show_reveals()
            return
        if view != self._view and self._reveal is not None:
            # A reveal stays on the TV while the box shows it: until the first move after it.
            if self._reveal_view is None:
                self._reveal_view = view
            elif view != self._reveal_view:
                self._reveal = self._reveal_view = None
        if view is not None and view != self._view:
            self._say_reveal(view, t)
        self._view, self._seats, self._names = view, seats, dict(self.names)
        self._presence, self._rejoin = presence, rejoin
        message: dict[str, Any]
        if view is None:
            message = {"type": "state", "game": None}
            private: dict[int, list[str]] = {}
            status = ""
        else:
            named = {int(seat) - 1: name for seat, name in self.names.items()}
            message = spectator_state(view, ui, t, named)
            message["room"] = room_list(view, self.names, presence, rejoin[0])
            message["rejoin"] = rejoin[1]
            status = message["status"]
            self.lang, self.words = message["lang"], message["words"]
            private = {}
            if own_view is not None:
                for seat in seats:
                    if seat < view["players"]:
                        private[seat] = private_lines(own_view(seat), view, ui, t)
        with self.lock:
            message["history"] = self.history[-HISTORY:]
            message["events"] = self.reveals.events[-HISTORY:]
            message["reveal"] = self._reveal
            message["names"] = self._names  # public: every page may read them
            self.spectator = _json(message)
            self.private = private
            self.status = status
        self.changed()

    def _say_reveal(self, after: View, t: Translate) -> None:
        """The reveal just shown, said again in the game's sentences, from the public views
        before and after it (the box's lines stay where the game has no words for it)."""
        unsaid, self._unsaid = self._unsaid, None
        if unsaid is None:
            return
        number, before = unsaid
        words = reveal_words(before, after, t)
        if words:
            with self.lock:
                event = self.reveals.reword(number, words)
                if event is not None and (self._reveal or {}).get("id") == number:
                    self._reveal = event

    def reveal(self, screens: Sequence[Screen]) -> None:
        """Results shown on the box (votes, cards, events): the TV shows them as they happen,
        in the game's sentences, with the step that made them (``publish``): the box's
        lines never reach a page first."""
        with self.lock:
            self._reveal = self.reveals.add(said_lines(screens))
            self._unsaid = (self._reveal["id"], self._view)
            self._reveal_view = None

    def _show_reveals(self) -> None:
        """The reveals sent again with the state already on show."""
        with self.lock:
            spectator = json.loads(self.spectator)
            spectator["history"] = self.history[-HISTORY:]
            spectator["events"] = self.reveals.events[-HISTORY:]
            spectator["reveal"] = self._reveal
            self.spectator = _json(spectator)
        self.changed()

    def holder_request(self, seat: int) -> dict[str, object] | None:
        """The question to the phone holding ``seat``, while a new phone asks for it."""
        request = self.requests.open.get(seat)
        return None if request is None else holder_question(translator(self.lang), request)

    def qr_image(self, seat: int) -> Image.Image:
        """A new token for ``seat`` (the old one dies) and the panel frame with its QR code."""
        from companion.web.qr import seat_frame

        with self.lock:
            token = self.tokens.issue(seat)
            self.requests.fresh.pop(seat, None)  # a code's link waiting for the seat dies too
            url = self.url_of(token)
        self._again()  # the seat's phone gets its private view as soon as it joins
        self.changed()
        return seat_frame(url, seat, translator(self.lang))

    # -- the server's side ------------------------------------------------------------
    def phone_message(self, seat: int) -> str:
        with self.lock:
            return _json(
                {
                    "type": "phone",
                    "seat": seat + 1,
                    "lang": self.lang,
                    "words": self.words,
                    "status": self.status,
                    "private": self.private.get(seat, []),
                    "ask": self.phones.question(seat),
                    "refused": list(self.phones.refusals.get(seat, ())),
                    "names": self.names,
                    "request": self.holder_request(seat),
                }
            )
