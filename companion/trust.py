"""Whether a saved step can be trusted: its checksum, its shape, and the rules' own checks.

The journal resumes a game only from a step that passes every check here, so
that a record changed on disk (a flipped digit, a hand edit, a half-written
sector) is set aside with its reason instead of resuming a different game in
silence or breaking the screens some moves later:

1. the checksum written with the record, when there is one (older journals
   have none: their records are checked by shape alone);
2. the record decodes, is brought to the current format, and has its game's
   declared shape (``companion.games.shape``) and the settings' game;
   its state keeps every invariant its game declares beside that shape (every
   card in exactly one place, one entry a seat...), the broken ones named;
3. the rules restore it and the screens draw everything a person can reach from
   its decision (``companion.reachable``): every screen, every option line the
   cursor can reach, every refusal and reveal a press can bring, in every
   language the table may switch to;
4. a short dry run: a copy plays on a few moves with any legal choice, on a
   seeded generator, every screen of each decision drawn (presses not tried).

Everything here is pure but for the screens' text; nothing touches hardware, and the
screens are loaded only when a game is resumed (``companion stats`` loads no box).
"""

from __future__ import annotations

import copy
import functools
import json
import random
from typing import Any

from companion.ballot import rng_state
from companion.errors import IllegalMove
from companion.games import GAMES, Game, game_class, restore
from companion.games.shape import (
    Anything,
    DictOf,
    Int,
    Maybe,
    Record,
    ShapeError,
    Str,
    check_invariants,
    check_record,
    one_of,
    shape_of,
)
from companion.migrate import upgrade
from companion.store.records import checksum  # the journal's own: the check compares with it

DRY_RUN = 25  # moves a copy of a resumed game plays forward before it is trusted


class Untrusted(ValueError):
    """A saved row that must not be resumed; the message says why, for the log."""


@functools.cache
def settings_shape() -> Record:
    """The shape of a game's settings row (the screens' languages: loaded on first use)."""
    from companion.ui.i18n import LANGUAGES

    return Record(
        {
            "game": one_of(GAMES),
            "players": Int(),
            "lang": one_of(LANGUAGES),
            "options": Maybe(DictOf(Str(40), Anything(), 10)),
        }
    )


def check_settings(settings: Any) -> dict[str, Any]:
    """``settings`` (a game's row: game, players, lang, options) if setup can start from them."""
    try:
        settings_shape().check(settings, "settings", {})
        cls = game_class(settings["game"])
        Int(cls.min_players, cls.max_players).check(settings["players"], "settings.players", {})
        options = {**cls.defaults(), **(settings["options"] or {})}
        shape_of(settings["game"]).options.check(options, "settings.options", {})
    except ShapeError as exc:
        raise Untrusted(str(exc)) from None
    return dict(settings)


def trusted_game(text: str, kept: str | None, settings: dict[str, Any]) -> Game:
    """The game saved as ``text`` (checksum ``kept``, None in older journals), checked."""
    if kept is not None and checksum(text) != kept:
        raise Untrusted("its checksum does not match its record")
    try:
        record = upgrade(json.loads(text))
        check_record(record)
        check_invariants(record)
        if (record["game"], record["players"]) != (settings["game"], settings["players"]):
            raise ShapeError("the record is not of the game its settings name")
        game = restore(record)
        _answers(game, settings["lang"])
        _dry_run(record, settings["lang"])
    except Untrusted:
        raise
    except Exception as exc:  # any failure of a saved record is a reason not to trust it
        raise Untrusted(str(exc) or type(exc).__name__) from None
    return game


def _answers(game: Game, lang: str, *, presses: bool = True) -> None:
    """Draw every screen of a resumed game's decision (``companion.reachable``), in the
    table's language and then in every other one it may switch to."""
    from companion.reachable import draw_decision  # the screens (and Pillow) only on a resume
    from companion.ui import game_ui
    from companion.ui.i18n import LANGUAGES, translator

    ui = game_ui(game.name)
    for other in (lang, *(x for x in LANGUAGES if x != lang)):
        try:
            t = translator(other)
        except RuntimeError:  # a catalog not compiled: the table cannot switch to it either
            continue
        draw_decision(game, ui, t, presses=presses)


def _dry_run(record: dict[str, Any], lang: str) -> None:
    """A copy plays ``DRY_RUN`` moves on: a record that breaks the rules soon breaks here."""
    record = copy.deepcopy(record)
    record["rng"] = rng_state(random.Random(0))
    game = restore(record)
    from companion.ui import game_ui
    from companion.ui.i18n import translator

    ui, t = game_ui(game.name), translator(lang)
    pick = random.Random(1)
    for _ in range(DRY_RUN):
        d = game.decision
        if d is None:
            return
        seat = d.seats[0]
        before = game.public_view()
        for choice in pick.sample(list(d.options), len(d.options)):
            try:
                game.act(seat, choice)
                break
            except IllegalMove:
                continue
        else:
            raise Untrusted(f"seat {seat + 1} has no legal choice at {d.kind}")
        ui.announcements(before, game.public_view(), t)  # what the table reads after a move
        if game.saveable:
            _answers(game, lang, presses=False)
