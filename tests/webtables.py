"""What the web tests share: a virtual table with a web room, and bots that answer on phones."""

import random

from companion.bots import make_bots
from companion.box import VirtualClock, open_box
from companion.demo import GAP, Player
from companion.table import Settings, Table
from companion.table.modes import Announce, Handoff, Notice, Over, Phones
from companion.table.phones import PhoneDesk
from companion.web.room import WebRoom
from companion.web.tokens import Tokens


def web_table(settings: Settings | None, seed: int = 1, tokens_path=None, journal=None):
    """A started (or, without settings, resumed) table on the virtual box with a web room."""
    clock = VirtualClock()
    box = open_box("virtual", clock=clock)
    table = Table(box, seed=seed, lang=settings.lang if settings else "en", journal=journal)
    room = WebRoom(Tokens(tokens_path), clock.now)
    table.watch(room)
    table.join(PhoneDesk(table, room.phones))
    if settings is None:
        assert table.resume()
    else:
        table.start(settings)
    player = Player(box, table, clock)
    player.wait(GAP)
    return table, room, player


def give_phones(room, seats):
    """Tokens for ``seats``, each with its phone connected; returns seat -> token."""
    tokens = {seat: room.tokens.issue(seat) for seat in seats}
    for seat in seats:
        room.phones.joined(seat, +1)
    return tokens


def play_out(table, player, answer_phone, seed=1, bots="smart", pick=None, until=None):
    """Play the game to its end (or ``until(table)``): phones answer through
    ``answer_phone(seat, index)``, the other seats on the box's buttons.
    ``pick(seat, view, decision)`` may override a bot."""
    game = table.game
    seat_bots = make_bots(game, bots, random.Random(seed))
    asked = []
    while not isinstance(table.mode, Over) and not (until and until(table)):
        game = table.game
        d = game.decision
        if isinstance(table.mode, Handoff | Announce | Notice):  # a notice waits for OK
            player.press("ok")
            continue
        if isinstance(table.mode, Phones):
            desk = next(a for a in table.answerers if isinstance(a, PhoneDesk))
            ask = desk.phones.ask_open
            for seat in sorted(set(ask.offers) - ask.answered):
                if seat not in game.decision.seats:
                    continue
                choice = (pick and pick(seat, game.view(seat), d)) or seat_bots[seat].choose(
                    game.view(seat), d
                )
                options = [o for o, _ in ask.offers[seat][1]]
                asked.append((seat, d.kind))
                answer_phone(seat, options.index(choice))
            player.wait(GAP)
            continue

        def choose(seat, view, d):
            return (pick and pick(seat, view, d)) or seat_bots[seat].choose(view, d)

        player.answer_with(choose)  # one answer, or a countdown's claims
    return asked


def direct(room):
    """Phones that answer by calling the room, as their page's Send does."""

    def answer(seat, index):
        assert room.phones.answer(seat, room.phones.ask_open.ballot, index) is None

    return answer
