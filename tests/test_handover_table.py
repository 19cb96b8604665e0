"""Between two hand-overs the screen shows only what the seat holding the box may see.

Two tables play the same game up to a hand-over; then the second game's hidden
holdings of other seats (roles, hands, plot cards, objective and member cards)
are changed, and both tables get the same random presses of every button
(Back, PEEK, holds and chords included) until the box changes hands again.
Every frame and every blink must be the same, byte for byte.
"""

import itertools
import pickle
import random

import pytest

from companion.bots import make_bots
from companion.box import VirtualClock, open_box
from companion.demo import GAP, TAP, Player
from companion.games import GAMES, game_class
from companion.table import Settings, Table
from companion.table.modes import (
    Abandon,
    Announce,
    Choose,
    Confirm,
    Cursor,
    Handoff,
    Notice,
    Over,
    Peek,
    Setup,
)
from tests.conftest import alone

CASES = [(name, game_class(name).default_players(), alone(name)) for name in GAMES]
BUTTONS = ("ok", "back", "up", "down", "peek", "choice_a", "choice_b")


def kind(table):
    return type(table.mode).__name__.lower()


def holder_of(table):
    """The seat the current hand-over screen calls."""
    return table.game.decision.seats[0]


def to_handover(table, player, bots, k):
    """Play (random legal choices) to the k-th hand-over screen; False if the game ends first."""
    seen = 0
    while True:
        mode = kind(table)
        if mode == "handoff":
            seen += 1
            if seen == k:
                return True
            player.previous = holder_of(table)
            player.press("ok")
        elif mode == "announce":
            player.press("ok")
        elif mode == "over":
            return False
        else:
            player.answer_as(bots)


def changes(values, a, b):
    """Ways to exchange what seats ``a`` and ``b`` hold in one hidden field."""
    if values[a] != values[b]:

        def whole(v):
            v[a], v[b] = v[b], v[a]

        yield whole
    va, vb = values[a], values[b]
    if isinstance(va, dict) and "hidden" in va:
        va, vb = va["hidden"], vb["hidden"]
        key = "hidden"
    else:
        key = None
    if isinstance(va, list):
        for i, j in itertools.product(range(len(va)), range(len(vb))):
            if va[i] != vb[j]:

                def one(v, i=i, j=j):
                    x, y = (v[a][key], v[b][key]) if key else (v[a], v[b])
                    x[i], y[j] = y[j], x[i]

                yield one


def seen_by(game, seat):
    return game.public_view(), game.view(seat), game.decision


def differently_hidden(game, holder, previous):
    """A change of other seats' hidden holdings that ``holder`` and the public cannot see
    (the seat that held the box before first: undo must not show its prompt again)."""
    others = sorted((s for s in range(game.players) if s != holder), key=lambda s: s != previous)
    for field in GAMES[game.name].hidden:  # what no other seat may see
        for a, b in itertools.combinations(others, 2):
            for change in changes(getattr(game.s, field), a, b):
                twin = pickle.loads(pickle.dumps(game))  # a deep copy, made in C
                change(getattr(twin.s, field))
                if seen_by(twin, holder) == seen_by(game, holder) and vars(twin.s) != vars(game.s):
                    return field, change
    return None


def hold(player, buttons, seconds):
    for b in buttons:
        player.box.board.drive(b, True)
        player.wait(0.02)
    player.wait(seconds)
    for b in buttons:
        player.box.board.drive(b, False)
    player.wait(GAP)


def random_action(rng):
    roll = rng.random()
    if roll < 0.6:
        return ("tap", (rng.choice(BUTTONS),), TAP)
    if roll < 0.8:
        return ("hold", (rng.choice(BUTTONS),), rng.choice((0.5, 1.0, 2.0)))
    return ("chord", tuple(rng.sample(BUTTONS, 2)), rng.choice((TAP, 2.0)))


def pair_at_handover(name, players, options, seed, k):
    tables = []
    for _ in range(2):
        box = open_box("virtual", clock=VirtualClock())
        table = Table(box, seed=seed)
        table.start(Settings(name, players, "en", dict(options)))
        player = Player(box, table, box.clock)
        player.wait(GAP)
        bots = make_bots(table.game, "random", random.Random(seed))
        if not to_handover(table, player, bots, k):
            box.close()
            for _, p in tables:
                p.box.close()
            return None
        tables.append((table, player))
    return tables


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_nothing_of_other_seats_shows_between_two_hand_overs(name, players, options):
    rng = random.Random(f"{name}{options}")
    tested = 0
    for window in range(10):
        seed = rng.randrange(1000)
        pair = pair_at_handover(name, players, options, seed, k=rng.randrange(2, 30))
        if pair is None:
            continue
        (a, pa), (b, pb) = pair
        try:
            holder = holder_of(a)
            found = differently_hidden(b.game, holder, pb.previous)
            if found is None:
                continue
            field, change = found
            change(getattr(b.game.s, field))
            for record in getattr(b, "undo", []):  # what a table keeps to undo, changed alike
                change(record["state"][field])
            tested += 1
            for p in (pa, pb):
                p.press("ok")  # the seat called takes the box
            for _ in range(40):
                action = random_action(rng)
                shots = []
                for t, p in ((a, pa), (b, pb)):
                    start = len(p.box.outputs.trace)
                    _, buttons, seconds = action
                    hold(p, buttons, seconds)
                    shots.append((p.box.board.glass().tobytes(), p.box.outputs.trace[start:]))
                    shots.append(kind(t))
                if a.game is not None and a.game.public_view() != b.game.public_view():
                    break  # a reveal by the rules: the two games now differ in public
                assert shots[0] == shots[2], (window, action, kind(a), kind(b))
                if kind(a) in ("handoff", "over", "setup"):
                    break
        finally:
            pa.box.close()
            pb.box.close()
    assert tested > 0


PROMPTS = (Choose, Confirm, Peek, Cursor)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_a_prompt_is_always_for_the_seat_that_last_took_the_box(name, players, options):
    """Random presses of every button among the answers: whenever a seat's prompt is on
    screen, it is the seat that took the box at the last hand-over."""
    rng = random.Random(name)
    box = open_box("virtual", clock=VirtualClock())
    table = Table(box, seed=4)
    table.start(Settings(name, players, "en", dict(options)))
    player = Player(box, table, box.clock)
    player.wait(GAP)
    bots = make_bots(table.game, "random", random.Random(4))
    taker = None
    prompts = 0
    try:
        for _ in range(300):
            mode = table.mode
            if isinstance(mode, Over | Setup):
                break
            if isinstance(mode, PROMPTS):
                assert mode.seat == taker == table.game.decision.seats[0]
                prompts += 1
            if rng.random() < 0.3:
                action = random_action(rng)
                if action[1] != ("back",) or action[2] < 1.5:  # not the abandon gesture
                    hold(player, action[1], action[2])
            elif isinstance(mode, Handoff):
                player.press("ok")
            elif isinstance(mode, Notice | Announce | Abandon):
                player.press("back" if isinstance(mode, Abandon) else "ok")
            elif isinstance(mode, Confirm):
                player.press("ok")
            elif isinstance(mode, Choose):
                player.press("choice_a")
            else:
                player.answer_as(bots)
            if isinstance(mode, Handoff) and not isinstance(table.mode, Handoff | Notice | Abandon):
                taker = mode.seat  # whatever the press, the box left the hand-over screen
        assert prompts > 20
    finally:
        box.close()
