"""The convention kiosk: attract, join, learn, walked-away games, staff, a whole booth day."""

import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.box import VirtualClock, open_box
from companion.box.inputs import Press
from companion.box.pinout import BUTTONS
from companion.games import GAMES
from companion.games.glasnost.rules import NO, YES
from companion.kiosk import booth, daystats, learn
from companion.kiosk.booth import (
    MENU_IDLE,
    WARNING,
    Attract,
    Join,
    Kiosk,
    Learn,
    Playing,
    Staff,
    StaffCode,
    Title,
)
from companion.kiosk.chord import CHORD, CHORD_HOLD, CODE
from companion.kiosk.day import SIM_DAY, Day, simulate_day
from companion.kiosk.daystats import Ledger
from companion.kiosk.safemode import FAILS, StartRecord, set_journal_aside
from companion.monkey import HINT_NAMES, foreign_buttons
from companion.store import Journal
from companion.ui.canvas import overflow
from companion.ui.i18n import translator
from tests.tables import match_references

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def day(tmp_path):
    d = Day(seed=7, journal=tmp_path / "journal.sqlite")
    yield d
    d.close()


def until(day, test, limit=600.0):
    """Let the kiosk run (nobody pressing) until ``test()`` holds."""
    waited = 0.0
    while not test():
        assert waited < limit, f"still {day.kiosk.mode} after {limit} s"
        day.wait(0.5)
        waited += 0.5


# -- attract and join ---------------------------------------------------------------------
def test_attract_plays_real_games_on_the_table_and_never_journals_them(day):
    until(day, lambda: isinstance(day.kiosk.mode, Attract))
    table = day.kiosk.table
    assert table is not None and table.journal is None
    start = table.game.public_view()
    until(day, lambda: table.game.public_view() != start, limit=60)  # the bots really play
    assert day.journal.unfinished() is None


def test_the_first_press_joins_and_does_nothing_else(day):
    until(day, lambda: isinstance(day.kiosk.mode, Attract))
    game = day.kiosk.table.game
    before = game.to_record()
    day.press("choice_a", gap=0.01)  # the bots' next press is not due yet
    assert isinstance(day.kiosk.mode, Join)
    assert game.to_record() == before


def test_join_offers_play_watch_and_learn(day):
    day.press("ok")
    assert isinstance(day.kiosk.mode, Join)
    day.press("ok")  # Play a game: the table's own setup
    assert isinstance(day.kiosk.mode, Playing) and day.kiosk.table.game is None
    assert day.kiosk.table.journal is day.journal


def test_a_menu_left_alone_goes_back_to_attract(day):
    day.press("ok")
    day.press("down")
    day.wait(MENU_IDLE + 1)
    assert isinstance(day.kiosk.mode, (Title, Attract))


# -- learn ----------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_learn_page_fits_the_screen_and_is_translated(lang):
    t = translator(lang)
    for game in GAMES:
        pages = learn.pages_of(game)
        screens = learn.pages(game, t)
        assert len(screens) == len(pages) >= 3
        for screen in screens:
            assert overflow(screen) == []
            if lang == "fr":
                assert screen.body[0] not in {text for _, text, _ in pages}, screen


def test_learn_walks_through_a_games_pages_and_back(day):
    day.press("ok")
    day.press("up")  # Watch, the next row
    day.press("up")  # Learn
    day.press("ok")
    assert isinstance(day.kiosk.mode, Learn)
    day.press("ok")  # the first game's pages
    seen = []
    while isinstance(day.kiosk.mode, Learn):
        seen.append(day.kiosk.screen().status)
        day.press("ok")
    assert seen == [s.status for s in learn.pages(booth.GAME_NAMES[0], translator("en"))]
    assert isinstance(day.kiosk.mode, Join)


# -- a game left alone ----------------------------------------------------------------------
def started_game(day, game="gulag"):
    day.press("ok")
    day.press("ok")
    table = day.kiosk.table
    while table.game is None:
        form = table.mode.form
        key = form.rows[form.row][0]
        day.press("up" if key == "game" and form.values["game"] != game else "ok")
    return table


def test_a_walked_away_game_warns_then_is_abandoned_and_never_resumed(day):
    table = started_game(day)
    day.press("ok")  # the first hand-over
    day.wait(day.kiosk.idle + 1)
    assert day.kiosk.mode.warn_until is not None
    assert day.kiosk.screen().status == "Still playing?"
    day.wait(WARNING + 1)
    assert isinstance(day.kiosk.mode, (Title, Attract))
    assert day.journal.unfinished() is None
    assert table.game is None
    assert day.kiosk.ledger.stats().abandoned == 1


def test_a_press_during_the_warning_carries_on_and_does_nothing_else(day):
    table = started_game(day)
    day.wait(day.kiosk.idle + 1)
    before = (table.game.to_record(), table.mode)
    day.press("ok")
    assert day.kiosk.mode.warn_until is None and isinstance(day.kiosk.mode, Playing)
    assert (table.game.to_record(), table.mode) == before
    day.wait(WARNING + 1)
    assert isinstance(day.kiosk.mode, Playing)  # the idle time starts again from the press


# -- staff -----------------------------------------------------------------------------------
def open_staff(day):
    day.hold_together(sorted(CHORD), CHORD_HOLD + 0.5)
    assert isinstance(day.kiosk.mode, StaffCode)
    for button in CODE:
        day.press(button)


def test_the_chord_and_code_open_the_staff_menu(day):
    open_staff(day)
    assert isinstance(day.kiosk.mode, Staff)


def test_the_chord_alone_or_a_wrong_code_opens_nothing(day):
    day.hold_together(sorted(CHORD), CHORD_HOLD + 0.5)
    for button in (*CODE[:3], "ok"):
        day.press(button)
    assert not isinstance(day.kiosk.mode, (Staff, StaffCode))
    day.hold_together(sorted(CHORD | {"up"}), CHORD_HOLD + 3)  # a bigger chord is not it
    assert not isinstance(day.kiosk.mode, (Staff, StaffCode))


def test_a_storm_of_presses_and_holds_never_opens_the_staff_menu():
    """100,000 seeded presses: taps, and overlapping long holds of random sets of buttons,
    through the real pins and debouncers into what the kiosk listens to."""
    clock = VirtualClock()
    box = open_box("virtual", clock=clock)
    try:
        kiosk = Kiosk(box, seed=1)
        rng = random.Random(2024)
        buttons = ("up", "down", "ok", "back", "choice_a", "choice_b", "peek")
        held: dict[str, float] = {}  # button -> when it is let go
        presses = armed = 0

        def settle(seconds):
            nonlocal armed
            end = clock.now() + seconds
            while clock.now() < end:
                clock.advance(min(0.25, end - clock.now()))
                for button, until_t in list(held.items()):
                    if clock.now() >= until_t:
                        box.board.drive(button, False)
                        del held[button]
                kiosk.mode = kiosk.mode if isinstance(kiosk.mode, StaffCode) else Join()
                kiosk.listen(clock.now())
                armed += kiosk.chord.armed
                assert not isinstance(kiosk.mode, Staff)

        while presses < 100_000:
            if rng.random() < 0.1:  # a long hold of a random set, over what is held already
                for button in rng.sample(buttons, rng.randint(1, 3)):
                    if button not in held:
                        box.board.drive(button, True)
                        presses += 1
                    held[button] = clock.now() + rng.uniform(1.0, 9.0)
            elif free := [b for b in buttons if b not in held]:
                button = rng.choice(free)
                box.board.drive(button, True)
                presses += 1
                held[button] = clock.now() + 0.08
            settle(rng.choice((0.1, 0.1, 0.3, 1.0)))
        assert armed > 0  # the storm did hold the chord itself: only the code kept it shut
    finally:
        box.close()


def test_leaving_the_staff_menu_mid_game_gives_the_players_their_screen_back(day):
    """The chord holds Back for five seconds: the table must not take it for the abandon
    gesture (1.5 s), nor the Back that leaves the menu for an undo."""
    table = started_game(day)
    day.press("ok")  # the first hand-over: seat 1 holds the box
    before = (table.game.to_record(), table.mode)
    open_staff(day)
    assert isinstance(day.kiosk.mode, Staff)
    day.press("back")  # leave
    assert isinstance(day.kiosk.mode, Playing)
    assert type(table.mode).__name__ != "Abandon"  # not "Abandon this game? OK: abandon it"
    assert (table.game.to_record(), table.mode) == before
    day.press("ok")  # and the game goes on from there
    assert table.game is not None and table.mode != before[1]


def test_staff_settings_are_kept_and_statistics_shown(day):
    open_staff(day)
    while day.kiosk.mode.row != 4:  # idle time
        day.press("down")
    before = day.kiosk.idle
    day.press("ok")
    assert day.kiosk.idle != before
    assert day.kiosk.ledger.setting("idle", None) == day.kiosk.idle
    day.press("up")  # the language
    day.press("up")
    day.press("ok")  # day statistics
    assert day.kiosk.screen().status == "Today"


def test_the_kiosk_menus_move_as_every_cursor_of_the_box(day):
    """Join, Learn's choice of game and the staff menu: Up is the next row, Down the one
    before, both wrap, and the row is drawn between the buttons that move it."""
    t = translator("en")

    def shown_row(labels):
        (line,) = [line for line in day.kiosk.screen().body if line.startswith("▲")]
        assert line.endswith(" ▼")
        return labels.index(line[2:-2])

    join = [t(r) for r in booth.JOIN_ROWS]
    day.press("ok")
    assert isinstance(day.kiosk.mode, Join) and shown_row(join) == 0
    day.press("up")
    assert day.kiosk.mode.row == shown_row(join) == 1  # Watch: the next one
    day.press("down")
    day.press("down")
    assert day.kiosk.mode.row == shown_row(join) == 2  # wrapped round to Learn
    day.press("up")
    assert day.kiosk.mode.row == shown_row(join) == 0  # and round again
    day.press("down")
    day.press("ok")
    games = [name.title() for name in booth.GAME_NAMES]
    assert isinstance(day.kiosk.mode, Learn) and shown_row(games) == 0
    day.press("down")
    assert shown_row(games) == len(games) - 1
    day.press("back")
    day.press("back")
    open_staff(day)
    rows = [label for _, label in day.kiosk.staff_rows()]
    assert day.kiosk.mode.row == shown_row(rows) == 0
    day.press("down")
    assert day.kiosk.mode.row == shown_row(rows) == len(rows) - 1
    assert day.kiosk.screen().status == f"Staff {len(rows)} of {len(rows)}"
    day.press("up")
    day.press("up")
    assert day.kiosk.mode.row == shown_row(rows) == 1


def kiosk_screens(kiosk):
    """Every screen the kiosk draws itself, each row and page of each menu."""
    now = kiosk.box.clock.now()
    modes = [Title(now + 10), Title(now + 10, invite=True), StaffCode()]
    modes += [booth.Playing(warn_until=now + 12)]
    modes += [Join(row=row) for row in range(len(booth.JOIN_ROWS))]
    for game, name in enumerate(booth.GAME_NAMES):
        pages = range(len(learn.pages_of(name)))
        modes += [Learn(game=game), *(Learn(game=game, page=page) for page in pages)]
    modes += [Staff(row=row) for row in range(len(kiosk.staff_rows()))]
    modes += [Staff(stats_page=page) for page in range(len(kiosk._stats_screens()))]
    modes += [Staff(confirm="restart"), Staff(confirm="poweroff")]
    screens = []
    for mode in modes:
        kiosk.mode = mode
        screens.append(kiosk.screen())
    return screens


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_kiosk_hint_names_only_the_boxs_buttons_and_every_screen_fits(lang):
    box = open_box("virtual", clock=VirtualClock())
    try:
        kiosk = Kiosk(box, seed=1, ledger=Ledger(today=lambda: SIM_DAY))
        kiosk.lang, kiosk.t = lang, translator(lang)
        screens = kiosk_screens(kiosk)
        assert len(screens) > 30
        assert [s.keys for s in screens if foreign_buttons(s.keys, kiosk.t)] == []
        assert [s for s in screens if overflow(s)] == []
        hints = {kiosk.t("▲▼ choose  OK  Back"), kiosk.t("▲▼ page  OK  Back")}
        assert hints <= {s.keys for s in screens}
    finally:
        box.close()
    assert set(HINT_NAMES) == set(BUTTONS)  # a name for each button the pinout wires, no more
    # The check can fail: the arrows the box has no buttons for, another device's key.
    assert foreign_buttons("◄ ►  OK", kiosk.t) == ["◄", "►"]
    assert foreign_buttons("OK  Select: next", kiosk.t) == ["Select"]


def test_poweroff_asks_first_and_then_calls_the_system(tmp_path):
    box = open_box("virtual", clock=VirtualClock())
    called = []
    try:
        kiosk = Kiosk(box, seed=1, poweroff=lambda: called.append("off"))
        kiosk.mode = Staff(row=8)
        for button in ("ok", "back", "ok", "ok"):
            kiosk._handle(Press(box.clock.now(), button, "press"))
        assert called == ["off"]  # the first OK only asked; Back said no
    finally:
        box.close()


# -- the day ----------------------------------------------------------------------------------
def test_a_booth_day_of_eight_hours(tmp_path):
    report = simulate_day(8, seed=11, journal=tmp_path / "journal.sqlite")
    stats, counted = report["stats"], report["counted"]
    assert {k: stats[k] for k in counted} == counted  # the kiosk's statistics, the driver's count
    assert counted["finished"] > 5 and counted["abandoned"] > 0
    # a busy booth every hour: a press every 2.4 s at least (games that need fewer presses
    # make the strangers' hours lighter, not the booth idle)
    assert all(n >= 1500 for n in report["presses_per_hour"]), report["presses_per_hour"]
    memory = report["memory_mib"]
    assert len(memory) == 8 and memory[-1] - memory[0] < 5, memory
    sizes = report["journal_bytes"]
    assert max(sizes) < 4 * 2**20 and sizes[-1] <= 2 * max(sizes[:2]), sizes


def test_the_same_seed_gives_the_same_day():
    assert simulate_day(0.4, seed=3) == simulate_day(0.4, seed=3)


def glasnost_votes(cards):
    """In each game's first crisis vote, its first two voters vote ``cards``."""

    def force(view, d):
        if d.kind == "crisis_vote" and not any(h["event"] == "vote" for h in view["history"]):
            index = view["voters"].index(view["seat"])
            return cards[index] if index < 2 else None
        return None

    return force


def test_swapping_two_secret_votes_changes_no_frame_of_the_day():
    a = simulate_day(0.4, seed=5, force=glasnost_votes((YES, NO)), games=("glasnost",))
    b = simulate_day(0.4, seed=5, force=glasnost_votes((NO, YES)), games=("glasnost",))
    c = simulate_day(0.4, seed=5, force=glasnost_votes((YES, YES)), games=("glasnost",))
    assert a["counted"]["started"] > 0
    assert a["frames_sha256"] == b["frames_sha256"]
    assert c["frames_sha256"] != a["frames_sha256"]  # the votes did matter to what was shown


# -- a pulled plug ------------------------------------------------------------------------------
def test_statistics_survive_the_journals_pruning(tmp_path, monkeypatch):
    monkeypatch.setattr(daystats, "KEEP", 1)
    path = tmp_path / "journal.sqlite"
    report = simulate_day(0.6, seed=8, journal=path)
    journal = Journal(path)
    try:
        kept = journal.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        stats = Ledger(journal.db, today=lambda: SIM_DAY).stats()
    finally:
        journal.close()
    assert kept <= 2 < report["counted"]["started"]  # the last ended game, and one in play
    assert stats.finished == report["counted"]["finished"]
    assert stats.started == report["counted"]["started"]


@pytest.mark.parametrize("state", ["attract", "game", "staff"])
def test_a_pulled_plug_brings_the_kiosk_back_where_it_belongs(tmp_path, state):
    """SIGKILL in attract, in a real game and in the staff menu, then a new start."""
    path = tmp_path / "journal.sqlite"
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.kiosk_child", state, str(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = child.stdout.readline().split()
        assert line[0] == "READY"
        idle = float(line[1])
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    box = open_box("virtual", clock=VirtualClock())
    journal = Journal(path)
    try:
        kiosk = Kiosk(box, journal, seed=3, ledger=Ledger(journal.db, today=lambda: SIM_DAY))
        if state == "game":
            assert isinstance(kiosk.mode, Playing) and kiosk.table.game is not None
            assert kiosk.table.game.name == "gulag"
            assert kiosk.ledger.stats().started == 1  # the same game, not a second one
        else:
            assert isinstance(kiosk.mode, Title) and journal.unfinished() is None
        assert kiosk.idle == idle  # what staff chose survived
    finally:
        journal.close()
        box.close()


def test_repeated_failed_starts_bring_safe_mode_with_the_journal_kept_aside(tmp_path):
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    record = StartRecord(tmp_path / "kiosk-starts.json")
    assert [record.started() for _ in range(FAILS + 1)] == [False] * FAILS + [True]
    aside = set_journal_aside(path)
    assert aside is not None and aside.exists() and not path.exists()
    record.healthy()
    assert record.started() is False
    box = open_box("virtual", clock=VirtualClock())
    try:
        kiosk = Kiosk(box, safe=True, seed=1)
        clock = box.clock
        for _ in range(20):
            clock.advance(0.5)
            kiosk.step()
        box.board.drive("ok", True)
        clock.advance(0.1)
        kiosk.step()
        assert isinstance(kiosk.mode, (Title, Attract))  # strangers cannot leave attract
    finally:
        box.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_kiosk_screens_match_their_references(lang):
    """The attract title, the invitation, join, learn, the warning and the staff menu."""
    box = open_box("virtual", clock=VirtualClock())
    try:
        kiosk = Kiosk(box, seed=1, ledger=Ledger(today=lambda: SIM_DAY))
        kiosk.lang, kiosk.t = lang, translator(lang)
        now = box.clock.now()
        modes = {
            "title": Title(now + 10),
            "invite": Title(now + 10, invite=True),
            "join": Join(),
            "learn": Learn(game=1, page=1),
            "warning": booth.Playing(warn_until=now + 12),
            "staff": Staff(row=4),
        }
        shots = {}
        for name, mode in modes.items():
            kiosk.mode = mode
            kiosk._draw()
            shots[name] = box.board.glass()
        match_references("kiosk", lang, shots)
    finally:
        box.close()
