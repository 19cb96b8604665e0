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
  the reveal and nothing else but that decision's own hand-over.

Answers are not reveals and are out of scope: Politburo's open plan vote is
entered by the secretary as a count of thumbs up (the default, "count") or seat
by seat with "each" (a hand-over a member); its result is one screen either way.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import pytest

from companion.bots import make_bots
from companion.box import VirtualClock, open_box
from companion.demo import GAP, Player
from companion.games import Decision
from companion.games.glasnost.board import BOARD
from companion.table import Settings, Table
from companion.table.modes import Announce, Choose, Countdown, Cursor, Handoff, Mode, Over, Peek
from companion.ui.canvas import BODY_LINES, Screen, overflow, wrap

#: a seed at which each table reaches the main kinds of reveal (Gulag's order at five seats too)
SEED = 4
#: each game at its smallest and its largest table (Kolkhoz seats four: one table per deal)
SIZES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "gulag": [(5, {}), (10, {})],
    "politburo": [(5, {}), (10, {})],
    "glasnost": [(4, {}), (12, {})],
    "kolkhoz": [(4, {"deal": "cards"}), (4, {"deal": "box"})],
}
CASES = [(game, players, options) for game, sizes in SIZES.items() for players, options in sizes]
#: the modes in which a decision is asked (of a seat, or of the table on a countdown)
PROMPTS = (Choose, Peek, Cursor, Countdown)
#: the most lines a Kolkhoz year's close has (K5, ``kolkhoz/screens.py``): "Year y is
#: over.", then for each of the four jobs "<job> failed:" and a line for each of the four
#: seats sending cards north
YEAR_END_LINES = 1 + 4 * (1 + 4)

Entered = tuple[Mode, Decision | None]


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
def played(game: str, players: int, deal: str | None = None) -> Played:
    """A whole game of the demo's bots on the buttons, every reveal read off the screen."""
    options = {} if deal is None else {"deal": deal}
    clock = VirtualClock()
    box = open_box("virtual", clock=clock)
    try:
        table = WatchedTable(box, seed=SEED)
        table.start(Settings(game, players, "en", options))
        player = Player(box, table, clock)
        player.wait(GAP)
        assert table.game is not None
        bots = make_bots(table.game, "smart", random.Random(SEED))
        cause = "opening"
        reveals: list[Reveal] = []
        ends: list[tuple[Decision, int]] = []
        while not isinstance(table.mode, Over):
            if isinstance(table.mode, Announce):
                reveals.append(read(table, player, cause))
            elif isinstance(table.mode, Handoff):
                player.press("ok")
            else:
                asked = table.game.decision
                assert asked is not None
                mark = len(table.entered)
                player.answer_as(bots)
                cause = asked.kind
                vote = asked.secret and asked.kind != "peek"  # a peek reads a private card
                if vote and ballot_ended(asked, table.game.decision):
                    ends.append((asked, mark))
        ballots = []
        for asked, mark in ends:
            # from the last vote's move on: what came before it (its confirmation, a claim
            # on the countdown) was entered while its decision was still open
            after = table.entered[mark:]
            after = after[next(i for i, (_, d) in enumerate(after) if d is not asked) :]
            end = next(i for i, (mode, _) in enumerate(after) if isinstance(mode, (*PROMPTS, Over)))
            ballots.append((asked.kind, after[: end + 1]))
        return Played(reveals, ballots, table.entered)
    finally:
        box.close()


def play_case(game: str, players: int, options: dict[str, Any]) -> Played:
    return played(game, players, options.get("deal"))


# -- what a reveal is about, and how many screens it may take ------------------------------
def kolkhoz_parts(reveal: Reveal) -> list[tuple[str, list[Screen]]]:
    """A Kolkhoz move may end a trick, complete jobs and close the year at once: its reveal
    is cut into those parts by what the screens say."""
    parts: list[tuple[str, list[Screen]]] = []
    for screen in reveal.screens:
        text = " ".join(screen.body)
        if "wins trick" in text:
            kind = "trick winner"
        elif " done!" in text:
            kind = "job done"
        elif " is over." in text or (parts and parts[-1][0] == "year end"):
            kind = "year end"  # its pages, then the next year's deal
        else:
            kind = f"? {text}"
        if parts and parts[-1][0] == kind:
            parts[-1][1].append(screen)
        else:
            parts.append((kind, [screen]))
    return parts


#: the decision answered -> the kind of reveal it brings
CAUSES = {
    "gulag": {"supervise": "inspection"},
    "politburo": {
        "plan_vote": "plan vote",
        "plan_count": "plan vote",
        "casting": "plan vote",
        "execute": "execution",
        "point": "purge",
    },
    "glasnost": {
        "opening": "crisis cards",
        "sit": "crisis called",
        "crisis_vote": "vote",
        "purge": "purge",
        "coup_offer": "coup question",
        "coup_name": "coup named",
        "coup_vote": "coup vote",
    },
}

#: the most screens a reveal of each kind takes at any table size: what it has to say is
#: a fixed number of things, whatever the number of seats
CAPS = {
    # the supervisor's order (G5, when one was given), the inspection (G6)
    "gulag": {"inspection": 2},
    "politburo": {
        # the count (or the secretary's casting vote), then the third plan approved unvoted
        "plan vote": 2,
        # P5/P6: the counts of the three executors' cards only
        "execution": 1,
        # P7: the three numbered cards, the three pointings, the losses (three executors)
        "purge": 3,
    },
    "glasnost": {
        # rule 3.2: one screen a crisis card, as many as the board has, at any table size
        "crisis cards": len(BOARD["crises"]),
        # each of the following may be followed by the next crisis called, or by "THE END"
        "crisis called": 1,
        # the three voters' cards, shuffled; the policy or the call to purge (5.2)
        "vote": 2 + 1,
        # the three voters' purges; the token turned down (or the cycle); the policy (5.4)
        "purge": 3 + 1,
        # the leader's answer (5.5)
        "coup question": 1 + 1,
        "coup named": 1 + 1,
        # every seat's vote, counted on one screen; the outcome (5.5)
        "coup vote": 2 + 1,
    },
    "kolkhoz": {
        "trick winner": 1,
        "job done": 4,  # one screen a job completed by the move: four jobs
        # K5 lines three a page, then the next year's deal: grows with what must be read
        # only (the pages are checked full in the test below)
        "year end": -(-YEAR_END_LINES // BODY_LINES) + 1,
    },
}
#: kinds every table of the game reaches at the seed, so that the comparison says something
MAIN = {
    "gulag": {"inspection"},
    "politburo": {"plan vote", "execution", "purge"},
    "glasnost": {"crisis cards", "vote", "purge", "coup question", "coup vote"},
    "kolkhoz": {"trick winner", "job done", "year end"},
}


def parts(game: str, reveal: Reveal) -> list[tuple[str, list[Screen]]]:
    if game == "kolkhoz":
        return kolkhoz_parts(reveal)
    return [(CAUSES[game].get(reveal.cause, f"? after {reveal.cause}"), reveal.screens)]


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


@pytest.mark.parametrize("game", list(SIZES))
def test_a_reveal_takes_no_more_screens_at_the_largest_table_than_its_kind_needs(game: str) -> None:
    """The most screens a reveal of each kind took, at the smallest and the largest table,
    stay within the kind's fixed number (seed 4: Gulag 2 and 2; Politburo plan vote 1,
    execution 1, purge 3 at five seats as at ten; Glasnost vote 2, purge 3 at four seats as
    at twelve, a coup vote 2 and 3 when the next crisis is called after it)."""
    figures = {
        case_id(game, players, options): most_screens(game, play_case(game, players, options))
        for players, options in SIZES[game]
    }
    caps = CAPS[game]
    for table, most in figures.items():
        assert set(most) <= set(caps), f"{table}: a reveal of an unknown kind: {most}"
        over = {kind: n for kind, n in most.items() if n > caps[kind]}
        assert over == {}, f"{table}: more screens than the kind needs (caps {caps}): {most}"
        assert MAIN[game] <= set(most), f"{table} never reached {MAIN[game] - set(most)}"
    if game == "glasnost":  # a screen a crisis card, at four seats as at twelve
        assert {most["crisis cards"] for most in figures.values()} == {len(BOARD["crises"])}
    (small, _), (large, _) = SIZES[game]
    if large > small:
        # so a screen a seat at the largest table could not pass under a cap
        assert all(cap < large for kind, cap in caps.items() if kind != "crisis cards")


def test_kolkhoz_reads_the_same_reveals_whichever_deal() -> None:
    """With real cards the box is told the tricks and the plots (between a trick's jobs and
    the year's end the seats enter their revealed plot cards); the table then reads, screen
    for screen, what it reads when the box deals, but for the new year's first line: a
    dealer deals real cards ("Year 2: deal 5 each,"); when the box has dealt, nobody deals
    ("Year 2: 5 cards each,")."""
    cards, box = played("kolkhoz", 4, "cards"), played("kolkhoz", 4, "box")
    told = [s for r in cards.reveals for s in r.screens]
    dealt = [s for r in box.reveals for s in r.screens]
    assert len(told) == len(dealt)
    for by_hand, by_box in zip(told, dealt, strict=True):
        if new_year(by_hand):
            year, size = re.fullmatch(r"Year (\d): deal (\d+) each,", by_hand.body[0]).groups()
            assert by_box.body[0] == f"Year {year}: {size} cards each,"
            assert by_hand.body[1:] == by_box.body[1:] and by_hand.status == by_box.status
        else:
            assert by_hand == by_box


def new_year(screen: Screen) -> bool:
    """Kolkhoz's screen that opens a year: its hand size, tricks and jobs."""
    return (
        bool(screen.body)
        and screen.body[0].startswith("Year ")
        and screen.body[0].endswith(" each,")
    )


@pytest.mark.parametrize(("game", "players", "options"), CASES, ids=[case_id(*c) for c in CASES])
def test_text_that_grows_with_the_table_fits_its_lines_and_fills_its_pages(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """Seat lists (Politburo's influence digits, Kolkhoz's cards going north seat by seat,
    Glasnost's voters) grow with the table: each fits the screen's lines, nothing is cut,
    and a reveal of several text pages fills each but its last, so it takes a page more only
    when three more lines must be read, never a screen a seat."""
    result = play_case(game, players, options)
    screens = [s for r in result.reveals for s in r.screens]
    assert [s for s in screens if overflow(s)] == []
    for reveal in result.reveals:
        for kind, pages in parts(game, reveal):
            if kind != "year end":
                continue
            lines = [len([row for entry in page.body for row in wrap(entry)]) for page in pages]
            closing = lines[:-1] if new_year(pages[-1]) else lines
            assert closing[:-1] == [BODY_LINES] * (len(closing) - 1), pages


BALLOTS = [c for c in CASES if c[0] != "kolkhoz"]  # Kolkhoz has no secret choice


@pytest.mark.parametrize(
    ("game", "players", "options"), BALLOTS, ids=[case_id(*c) for c in BALLOTS]
)
def test_no_ballot_result_is_asked_of_the_seats_one_by_one(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """From the last vote of a secret ballot the table goes through the reveal, then straight
    to the next decision: at most that decision's own hand-over, to the seat it asks, and
    that decision is the game's next move (not a seat reading the result for itself)."""
    result = play_case(game, players, options)
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
    expected: dict[str, set[str]] = {
        "gulag": {"task"},
        "politburo": {"execute", "point"},
        "glasnost": {"crisis_vote", "purge", "coup_offer", "coup_vote"},
    }
    assert expected[game] <= kinds
