"""Saved states edited the way a bug or a hand edit writes them, and what the box makes of each.

Each edit keeps the record JSON and its checksum right (the journal's own check
cannot see it): a list shortened or an item doubled, a number put out of
range (a seat that does not exist, an index past its list, a score past its
bound), and for Kolkhoz a card lost or put in a second place. ``judge`` says
whether the resume checks refuse the edited state, and if they take it, plays
on with every screen of each decision drawn: an exception there is a crash.

Used by ``tests/test_mutants.py`` (a sample) and ``bench/mutants.py`` (a long run).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator
from typing import Any

from companion.bots import make_bots, next_move
from companion.games import Game, game_class, new_game
from companion.games.kolkhoz.cards import JOB_CARDS, WORKERS
from companion.reachable import draw_decision
from companion.trust import Untrusted, checksum, trusted_game
from companion.ui import game_ui
from companion.ui.i18n import translator

Path = tuple[Any, ...]
CARDS = frozenset((*WORKERS, *JOB_CARDS))
KINDS = ("shorten", "double", "seat", "index", "score")
CARD_KINDS = ("lose a card", "double a card")
#: where Kolkhoz keeps its cards (the year's summaries and the last trick are copies)
HOMES = frozenset({"deck", "hands", "plots", "north", "unclaimed", "piles", "jobs", "to_assign"})
PLAY_ON = 40  # moves played after a resume


@functools.cache
def saved_steps(name: str, seed: int, **options: Any) -> tuple[dict[str, Any], list[dict]]:
    """The settings and every saved record of a random-bot game of ``name`` (kept: callers
    copy before they edit)."""
    cls = game_class(name)
    rng = random.Random(seed)
    players = rng.randint(cls.min_players, cls.max_players)
    options = options or {k: rng.choice(o.values) for k, o in cls.OPTIONS.items() if o.values}
    game = new_game(name, players=players, seed=seed, **options)
    bots = make_bots(game, "random", rng)
    records = [game.to_record()]
    while (move := next_move(game, bots)) is not None:
        game.act(*move)
        if game.saveable and not game.over:
            records.append(game.to_record())
    return {"game": name, "players": players, "lang": "en", "options": options}, records


def _places(value: Any, at: Path = ()) -> Iterator[tuple[Path, Any]]:
    yield at, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _places(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _places(v, (*at, i))


def _at(record: dict[str, Any], path: Path) -> Any:
    for part in path:
        record = record[part]
    return record


def mutant(record: dict[str, Any], kind: str, rng: random.Random) -> dict[str, Any] | None:
    """``record`` with one edit of ``kind`` in its state, or None if it has no place for it."""
    record = json.loads(json.dumps(record))
    places = [(("state", *p), v) for p, v in _places(record["state"]) if p]
    lists = [(p, v) for p, v in places if isinstance(v, list) and v]
    ints = [(p, v) for p, v in places if type(v) is int]
    cards = [(p, v) for p, v in places if _card(p, v)]
    players = record["players"]
    if kind in ("shorten", "double") and lists:
        path, items = rng.choice(lists)
        if kind == "shorten":
            items.pop(rng.randrange(len(items)))
        else:
            items.insert(rng.randrange(len(items) + 1), rng.choice(items))
    elif kind in ("seat", "index", "score") and ints:
        path, value = rng.choice(ints)
        wrong = {"seat": rng.choice([players, -1]), "index": value + rng.randint(1, 60)}
        _at(record, path[:-1])[path[-1]] = wrong.get(kind, rng.choice([10**6, -(10**6)]))
    elif kind == "lose a card" and cards:
        path, _ = rng.choice(cards)
        _at(record, path[:-1]).pop(path[-1])
    elif kind == "double a card" and cards:
        _, card = rng.choice(cards)
        homes = [p for p, v in places if p[1] in HOMES and _holds_cards(v)]
        if not homes:
            return None
        home = rng.choice(homes)
        items = _at(record, home)
        items.insert(rng.randrange(len(items) + 1), card)
    else:
        return None
    return record


def _card(path: Path, value: Any) -> bool:
    """A card in one of its homes, in a list."""
    return path[1] in HOMES and type(path[-1]) is int and isinstance(value, str) and value in CARDS


def _holds_cards(items: Any) -> bool:
    return isinstance(items, list) and all(isinstance(x, str) and x in CARDS for x in items)


def refused_by_name_or_plays(name: str, seed: int, kind: str, pick: int) -> str:
    """One edit of ``kind`` (drawn by ``pick``) to a saved step of game ``seed``: the verdict,
    after checking it names why it refused, and that no state short of a card resumes."""
    settings, records = saved_steps(name, seed)
    rng = random.Random(pick)
    edited = mutant(rng.choice(records), kind, rng)
    if edited is None:
        return "no such place"
    verdict = judge(settings, edited, seed=pick)
    if verdict != "resumed":  # an invariant, or the field whose shape is wrong, is named
        assert any(word in verdict for word in ("invariant", "expected", "missing")), verdict
    assert kind not in CARD_KINDS or verdict != "resumed", "a card lost or doubled resumed"
    return verdict


def judge(settings: dict[str, Any], record: dict[str, Any], seed: int = 0) -> str:
    """ "refused: why" when the resume checks set ``record`` aside; "resumed" when they take
    it and it plays on; any exception in play (a crash at the table) is raised."""
    text = json.dumps(record, sort_keys=True)
    try:
        game = trusted_game(text, checksum(text), settings)
    except Untrusted as exc:
        return f"refused: {exc}"
    play_on(game, settings["lang"], seed)
    return "resumed"


def play_on(game: Game, lang: str, seed: int) -> None:
    """Random bots play ``PLAY_ON`` moves, every screen of each decision drawn."""
    ui, t = game_ui(game.name), translator(lang)
    bots = make_bots(game, "random", random.Random(seed))
    for _ in range(PLAY_ON):
        if game.saveable:
            draw_decision(game, ui, t, presses=False)
        before = game.public_view()
        move = next_move(game, bots)
        if move is None:
            return
        game.act(*move)
        ui.announcements(before, game.public_view(), t)
