"""Audit: "a reveal that needs no reading is one press for the table, not one per seat".

That requirement of issue 10 ("At the table: fewer presses...") is why this
file exists: an outcome the whole table reads off one screen at once (Gulag's order and inspection,
Politburo's plan vote and execution counts, Glasnost's vote results,
Kolkhoz's trick winner, job done and year end) must cost one OK a screen,
pressed by anyone, and must never hand the box round the table. At ten or
twelve seats a hand-over per seat per reveal would be most of a game's presses
and would tell nobody anything more.

Each game is played whole by the demo's bots on the virtual box, headless, at a
fixed seed, at its smallest and its largest table (Kolkhoz, always four, with
each deal), and the test looks at what the table was shown:

- every reveal screen (the ``Announce`` mode) goes with exactly one OK and
  is addressed to nobody: no "Box to seat N", no seat's prompt, and never
  reached through a hand-over;
- a reveal takes at most a fixed number of screens for its kind, the same at
  the largest table as at the smallest; where the text to read does grow (a
  list of seats), it fits the screen's lines and its pages are full;
- from the last vote of a secret ballot to the next decision the table sees
  the reveal and nothing else but that decision's own hand-over;
- an anonymous ballot's reveal names no voter: with two voters' choices swapped,
  the table sees the same screens (a reveal in the order the seats voted fails).

The games are the registry's; what is a game's own (the kinds of its reveals, the most
screens each takes, its ballots, the tables played when not its smallest and largest)
comes from its folder, ``companion/games/<game>/tests/reveals.py`` (``Declared`` says
what it may hold): a new folder is played here with no edit to this file, and the
file fails to load until the folder says at least the most screens of its reveals.

Answers are not reveals and are out of scope: Politburo's open plan vote is
entered by the secretary as a count of thumbs up (the default, "count") or seat
by seat with "each" (a hand-over a member); its result is one screen either way.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

import pytest

from companion.bots import Bot, make_bots
from companion.box import VirtualClock, open_box
from companion.demo import GAP, Player
from companion.games import GAMES, Choice, Decision, game_class
from companion.table import Settings, Table
from companion.table.modes import Announce, Choose, Countdown, Cursor, Handoff, Mode, Over, Peek
from companion.ui.canvas import BODY_LINES, Screen, overflow, wrap

#: a seed at which each table reaches the main kinds of reveal (Gulag's order at five seats too)
SEED = 4
#: the modes in which a decision is asked (of a seat, or of the table on a countdown)
PROMPTS = (Choose, Peek, Cursor, Countdown)

Entered = tuple[Mode, Decision | None]
Parts = Callable[[str, list[Screen]], list[tuple[str, list[Screen]]]]
Options = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Declared:
    """What a game's folder says of its reveals (``<folder>/tests/reveals.py``); only
    ``CAPS`` is required."""

    #: the tables played, (seats, options): by default its smallest and its largest
    tables: list[tuple[int, dict[str, Any]]]
    #: the decision answered -> the kind of reveal it brings (by default, the decision's)
    causes: dict[str, str]
    #: the most screens a reveal of each kind takes, at any table
    caps: dict[str, int]
    #: kinds that take exactly so many screens at every table (a board's, not a table's)
    exact: dict[str, int]
    #: the kinds every table reaches at the seed (by default, every kind capped)
    main: set[str]
    #: kinds whose text grows with the table or the play: each page but the last is full
    paged: set[str]
    #: the secret ballots every table reaches (none: the game has none)
    ballots: set[str]
    #: the ballots whose reveal names no voter
    anonymous: set[str]
    #: a reveal cut into parts of several kinds (by default one part, of its cause's kind)
    parts: Parts | None


@functools.cache
def declared(game: str) -> Declared:
    name = f"{GAMES[game].package}.tests.reveals"
    try:
        data = import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:
            raise
        raise AssertionError(f"no {name}: it says {game}'s reveals (CAPS at least)") from None
    cls = game_class(game)
    caps = data.CAPS
    return Declared(
        tables=getattr(data, "TABLES", [(cls.min_players, {}), (cls.max_players, {})]),
        causes=getattr(data, "CAUSES", {}),
        caps=caps,
        exact=getattr(data, "EXACT", {}),
        main=getattr(data, "MAIN", set(caps)),
        paged=getattr(data, "PAGED", set()),
        ballots=getattr(data, "BALLOTS", set()),
        anonymous=getattr(data, "ANONYMOUS", set()),
        parts=getattr(data, "parts", None),
    )


CASES = [(game, players, options) for game in GAMES for players, options in declared(game).tables]


def case_id(game: str, players: int, options: dict[str, Any]) -> str:
    return "-".join([game, str(players), *options.values()])


class WatchedTable(Table):
    """A table that keeps every mode it enters, with the decision open at the time."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.entered: list[Entered] = []
        super().__init__(*args, **kwargs)

    def enter(self, mode: Mode) -> None:
        super().enter(mode)
        self.entered.append((self.mode, None if self.game is None else self.game.decision))


@dataclass
class Reveal:
    """The screens of one reveal, read one after the other, and the OKs each took."""

    cause: str  # the kind of decision answered just before ("opening": the game's start)
    screens: list[Screen] = field(default_factory=list)
    presses: list[int] = field(default_factory=list)
    addressed: list[str] = field(default_factory=list)  # what named a seat as its reader


@dataclass
class Played:
    reveals: list[Reveal]
    #: for each secret ballot, its kind and the modes entered from its last vote on, up to
    #: the next decision's prompt (or the last screen)
    ballots: list[tuple[str, list[Entered]]]
    entered: list[Entered]
    #: the first anonymous ballot whose voters chose differently (an index of ``ballots``)
    marked: int | None


class Voters:
    """The bots' answers. An anonymous ballot is asked of all its voters as it opens, so
    that a game in which two of them swap their choices asks the bots the same things in
    the same order: the first one with two different choices is marked (and, with
    ``swap``, its first two different choices exchanged)."""

    def __init__(self, table: Table, bots: list[Bot], anonymous: set[str], swap: bool) -> None:
        self.table, self.bots, self.anonymous, self.swap = table, bots, anonymous, swap
        self.plan: dict[int, Choice] = {}
        self.opened = 0  # anonymous ballots opened
        self.marked: int | None = None  # the one marked, counted as ``opened``

    def __call__(self, seat: int, view: dict[str, Any], decision: Decision) -> Choice:
        if decision.kind not in self.anonymous:
            return self.bots[seat].choose(view, decision)
        if seat not in self.plan:
            assert self.table.game is not None
            game = self.table.game
            self.plan = {s: self.bots[s].choose(game.view(s), decision) for s in decision.seats}
            self.opened += 1
            differ = [s for s in decision.seats if self.plan[s] != self.plan[decision.seats[0]]]
            if self.marked is None and differ:
                self.marked = self.opened
                if self.swap:
                    a, b = decision.seats[0], differ[0]
                    self.plan[a], self.plan[b] = self.plan[b], self.plan[a]
        return self.plan.pop(seat)


def addressed_to_a_seat(table: Table, screen: Screen) -> list[str]:
    """What in a reveal screen asks one seat rather than the table: a hand-over's words, a
    seat's key line ("Seat 3: press OK"), a screen not the reveal's own."""
    found = [line for line in screen.body if "box to seat" in line.lower()]
    if not screen.keys.startswith("OK") or "seat" in screen.keys.lower():
        found.append(f"keys {screen.keys!r}")
    assert isinstance(table.mode, Announce)
    if screen != table.mode.screens[0]:
        found.append("not the reveal's screen")
    return found


def read(table: Table, player: Player, cause: str) -> Reveal:
    """Read a reveal to its end: each screen is looked at, then OK is pressed until it goes.

    The table reads a screen before pressing, as people do: a press within the guard after
    a screen appears is dropped by design (the demo's loop presses at once, so after the
    coup countdown runs out its first OK is lost and the outcome seems to take two)."""
    reveal = Reveal(cause)
    while isinstance(table.mode, Announce):
        shown = table.mode
        screen = table.screen()
        reveal.screens.append(screen)
        reveal.addressed += addressed_to_a_seat(table, screen)
        player.wait(GAP)
        presses = 0
        while table.mode == shown and presses < 5:
            player.press("ok")
            presses += 1
        reveal.presses.append(presses)
    return reveal


def ballot_ended(asked: Decision, now: Decision | None) -> bool:
    """After answering the secret ``asked``, its ballot is complete (the decision open now
    is not the same ballot waiting for fewer seats)."""
    return now is None or now.kind != asked.kind or not set(now.seats) < set(asked.seats)


@functools.cache
def played(game: str, players: int, options: Options = (), swap: bool = False) -> Played:
    """A whole game of the demo's bots on the buttons, every reveal read off the screen;
    with ``swap``, two voters of the marked anonymous ballot swap their choices."""
    clock = VirtualClock()
    box = open_box("virtual", clock=clock)
    try:
        table = WatchedTable(box, seed=SEED)
        table.start(Settings(game, players, "en", dict(options)))
        player = Player(box, table, clock)
        player.wait(GAP)
        assert table.game is not None
        anonymous = declared(game).anonymous
        voters = Voters(table, make_bots(table.game, "smart", random.Random(SEED)), anonymous, swap)
        cause = "opening"
        reveals: list[Reveal] = []
        ends: list[tuple[Decision, int]] = []
        closed, marked = 0, None  # anonymous ballots closed; the marked one in ``ends``
        while not isinstance(table.mode, Over):
            if isinstance(table.mode, Announce):
                reveals.append(read(table, player, cause))
            elif isinstance(table.mode, Handoff):
                player.press("ok")
            else:
                asked = table.game.decision
                assert asked is not None
                mark = len(table.entered)
                player.answer_with(voters)
                cause = asked.kind
                vote = asked.secret and asked.kind != "peek"  # a peek reads a private card
                if vote and ballot_ended(asked, table.game.decision):
                    ends.append((asked, mark))
                    closed += asked.kind in anonymous
                    if asked.kind in anonymous and closed == voters.marked:
                        marked = len(ends) - 1
        ballots = []
        for asked, mark in ends:
            # from the last vote's move on: what came before it (its confirmation, a claim
            # on the countdown) was entered while its decision was still open
            after = table.entered[mark:]
            after = after[next(i for i, (_, d) in enumerate(after) if d is not asked) :]
            end = next(i for i, (mode, _) in enumerate(after) if isinstance(mode, (*PROMPTS, Over)))
            ballots.append((asked.kind, after[: end + 1]))
        return Played(reveals, ballots, table.entered, marked)
    finally:
        box.close()


def play_case(game: str, players: int, options: dict[str, Any], swap: bool = False) -> Played:
    return played(game, players, tuple(sorted(options.items())), swap)


# -- what a reveal is about, and how many screens it may take ------------------------------
def parts(game: str, reveal: Reveal) -> list[tuple[str, list[Screen]]]:
    """The reveal's parts, each of one kind: as the game's folder cuts it, else the whole
    reveal, of the kind its cause brings."""
    said = declared(game)
    if said.parts is not None:
        return said.parts(reveal.cause, reveal.screens)
    return [(said.causes.get(reveal.cause, reveal.cause), reveal.screens)]


def most_screens(game: str, game_played: Played) -> dict[str, int]:
    """The most screens one reveal of each kind took in the game."""
    most: dict[str, int] = defaultdict(int)
    for reveal in game_played.reveals:
        for kind, screens in parts(game, reveal):
            most[kind] = max(most[kind], len(screens))
    return dict(most)


# -- the tests -----------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=[case_id(*c) for c in CASES])
def test_every_reveal_screen_is_one_ok_for_the_table_and_names_no_reader(
    game: str, players: int, options: dict[str, Any]
) -> None:
    result = play_case(game, players, options)
    screens = [s for r in result.reveals for s in r.screens]
    assert len(result.reveals) >= 5  # the game did reveal things
    presses = [p for r in result.reveals for p in r.presses]
    assert presses == [1] * len(screens)
    addressed = [(r.cause, line) for r in result.reveals for line in r.addressed]
    assert addressed == []
    # never reached through a hand-over: a reveal follows the move (or another reveal's
    # screen) straight away
    entered = [mode for mode, _ in result.entered]
    handed = [
        (before, after)
        for before, after in itertools.pairwise(entered)
        if isinstance(after, Announce) and isinstance(before, Handoff)
    ]
    assert handed == []


@pytest.mark.parametrize("game", list(GAMES))
def test_a_reveal_takes_no_more_screens_at_the_largest_table_than_its_kind_needs(game: str) -> None:
    """The most screens a reveal of each kind took, at each table played, stay within the
    kind's fixed number (seed 4: Gulag 2 and 2; Politburo plan vote 1, execution 1, purge 3
    at five seats as at ten; Glasnost vote 2, purge 3 at four seats as at twelve, a coup
    vote 2 and 3 when the next crisis is called after it)."""
    said = declared(game)
    figures = {
        case_id(game, players, options): most_screens(game, play_case(game, players, options))
        for players, options in said.tables
    }
    caps = said.caps
    for table, most in figures.items():
        assert set(most) <= set(caps), f"{table}: a reveal of an unknown kind: {most}"
        over = {kind: n for kind, n in most.items() if n > caps[kind]}
        assert over == {}, f"{table}: more screens than the kind needs (caps {caps}): {most}"
        assert said.main <= set(most), f"{table} never reached {said.main - set(most)}"
        exact = {kind: most.get(kind) for kind in said.exact}
        assert exact == said.exact, f"{table}: a fixed number of screens changed"
    sizes = [players for players, _ in said.tables]
    if max(sizes) > min(sizes):
        # so a screen a seat at the largest table could not pass under a cap
        assert all(cap < max(sizes) for kind, cap in caps.items() if kind not in said.exact)


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=[case_id(*c) for c in CASES])
def test_text_that_grows_with_the_table_fits_its_lines_and_fills_its_pages(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """Seat lists (Politburo's influence digits, Kolkhoz's cards going north seat by seat,
    Glasnost's voters, the vote's cards) grow with the table: each fits the screen's lines,
    nothing is cut, and a reveal of several text pages fills each but its last, so it takes
    a page more only when three more lines must be read, never a screen a seat."""
    result = play_case(game, players, options)
    screens = [s for r in result.reveals for s in r.screens]
    assert [s for s in screens if overflow(s)] == []
    paged = declared(game).paged
    for reveal in result.reveals:
        for kind, pages in parts(game, reveal):
            if kind not in paged:
                continue
            lines = [len([row for entry in page.body for row in wrap(entry)]) for page in pages]
            assert lines[:-1] == [BODY_LINES] * (len(lines) - 1), pages


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=[case_id(*c) for c in CASES])
def test_no_ballot_result_is_asked_of_the_seats_one_by_one(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """From the last vote of a secret ballot the table goes through the reveal, then straight
    to the next decision: at most that decision's own hand-over, to the seat it asks, and
    that decision is the game's next move (not a seat reading the result for itself)."""
    result = play_case(game, players, options)
    expected = declared(game).ballots
    if not expected:  # a game with no secret ballot (Kolkhoz) holds none
        assert result.ballots == []
        return
    assert len(result.ballots) >= 5
    kinds = set()
    for kind, after in result.ballots:
        kinds.add(kind)
        modes = [mode for mode, _ in after]
        *between, (prompt, asked) = after
        reveal = [m for m in modes[:-1] if isinstance(m, Announce)]
        handed = [m for m in modes[:-1] if isinstance(m, Handoff)]
        assert len(reveal) + len(handed) == len(between), (kind, modes)
        assert modes[: len(reveal)] == reveal, (kind, modes)  # the reveal comes first
        if isinstance(prompt, Over):
            assert handed == [], (kind, modes)
            continue
        assert asked is not None
        assert [h.seat for h in handed] in ([], [asked.seats[0]]), (kind, modes)
        # the next decision is the game's next move (a forced one is still a move: a sit
        # with one legal place), never a private reading of the outcome
        assert not isinstance(prompt, Peek) and asked.options != ("seen",), (kind, asked)
    assert expected <= kinds


ANONYMOUS = [c for c in CASES if declared(c[0]).anonymous]


@pytest.mark.parametrize(
    ("game", "players", "options"), ANONYMOUS, ids=[case_id(*c) for c in ANONYMOUS]
)
def test_an_anonymous_ballots_reveal_is_the_same_whoever_chose_what(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """Two voters of an anonymous ballot swap their (different) choices: from the last vote
    to the next decision the table sees the same screens, and the next decision goes to
    the same seat. A reveal in the voters' order, or naming them, tells them apart."""
    plain, swapped = play_case(game, players, options), play_case(game, players, options, True)
    assert plain.marked is not None and swapped.marked == plain.marked
    kind, after = plain.ballots[plain.marked]
    assert kind in declared(game).anonymous
    *between, (prompt, _) = after
    *swapped_between, (swapped_prompt, _) = swapped.ballots[swapped.marked][1]
    assert swapped_between == between, kind
    assert type(swapped_prompt) is type(prompt)
    assert getattr(swapped_prompt, "seat", None) == getattr(prompt, "seat", None)
