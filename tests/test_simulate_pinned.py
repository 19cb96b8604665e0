"""``companion simulate`` pinned to the digit: fixed seeds, every game, two table sizes.

The engines may be made faster or tidier, never different: the same seed must
give the same games, move for move. Each case pins what ``simulate`` reports
(outcome rates and mean measures) and, for every game it plays, the outcome,
the winners, the number of moves, and digests of the moves, of every view the
bots read, and of the final saved record (all as JSON text, so a tuple and a
list are the same).

A rule change that is meant to change play changes these on purpose: print the
new table with ``python -m tests.test_simulate_pinned`` and paste it below,
naming the change in the commit. Glasnost's coup check of issue 10 ("At the
table: fewer presses...") is one such change: only the Glasnost rows may move
with it. Kolkhoz's count of tricks won per seat (format 2) changed its views
and records, not its play: its moves, outcomes and winners stayed as pinned.
Politburo's default plan vote became "count" (the secretary enters the thumbs
up, where "each" asked every member): the same games with fewer moves, their
outcomes, winners and reported numbers as pinned before. Kolkhoz's default deal
became "cards" (the setup screen's first): its rows are the box dealing, passed
explicitly (``OPTIONS``), as pinned before. Glasnost's one coup question for both
leaders (issue 21) asks one ballot where two were asked, and its answers name the
leader: fewer moves and new digests, the outcomes, winners and reported numbers as
pinned before.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from companion.bots import make_bots
from companion.games import new_game
from companion.simulate import simulate

#: (game, players, games, seed): cheap enough to run in a few seconds in all.
CASES = [
    ("gulag", 5, 12, 1),
    ("gulag", 8, 12, 2),
    ("politburo", 5, 4, 3),
    ("politburo", 8, 3, 4),
    ("glasnost", 4, 4, 5),
    ("glasnost", 8, 3, 6),
    ("kolkhoz", 4, 6, 7),
]
#: options a case was pinned with that are no longer the game's defaults
OPTIONS: dict[str, dict[str, Any]] = {"kolkhoz": {"deal": "box"}}


def _text(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True).encode()


def traces(name: str, players: int, games: int, seed: int) -> list[dict[str, Any]]:
    """Each game ``simulate`` plays for these arguments, summed up (the same seeds, the same
    bots, the same loop as ``companion.bots.play_out``)."""
    master = random.Random(seed)
    out = []
    for _ in range(games):
        game_seed = master.getrandbits(64)
        game = new_game(name, players=players, seed=game_seed, **OPTIONS.get(name, {}))
        bots = make_bots(game, "smart", random.Random(game_seed + 1))
        moves = hashlib.sha256()
        views = hashlib.sha256()
        count = 0
        while (d := game.decision) is not None:
            seat = d.seats[0]
            view = game.view(seat)
            views.update(_text(view))
            choice = bots[seat].choose(view, d)
            moves.update(_text([seat, choice]))
            game.act(seat, choice)
            count += 1
        result = game.result
        assert result is not None
        out.append(
            {
                "outcome": result.outcome,
                "winners": sorted(result.winners),
                "moves": count,
                "moves_sha": moves.hexdigest()[:16],
                "views_sha": views.hexdigest()[:16],
                "record_sha": hashlib.sha256(_text(game.to_record())).hexdigest()[:16],
                "public_sha": hashlib.sha256(_text(game.public_view())).hexdigest()[:16],
            }
        )
    return out


def stats(name: str, players: int, games: int, seed: int) -> dict[str, Any]:
    """What ``simulate`` reports, but for the speed (which no seed fixes)."""
    report = simulate(name, players, games, seed, **OPTIONS.get(name, {}))
    report.pop("seconds")
    report.pop("games_per_second")
    return report


def current() -> dict[str, Any]:
    return {
        f"{name} {players}": {
            "stats": stats(name, players, games, seed),
            "games": traces(name, players, games, seed),
        }
        for name, players, games, seed in CASES
    }


PINNED: dict[str, Any] = {
    "gulag 5": {
        "stats": {
            "game": "gulag",
            "players": 5,
            "games": 12,
            "seed": 1,
            "bots": "smart",
            "outcomes": {"red": 0.6666666666666666, "black": 0.3333333333333333, "draw": 0.0},
            "measures": {"canal": 4.166666666666667},
        },
        "games": [
            {
                "outcome": "black",
                "winners": [0, 1, 2, 4],
                "moves": 35,
                "moves_sha": "3eb6e58fde3cdd04",
                "views_sha": "b0bc7b9a5a55e6f8",
                "record_sha": "7411ea4f605a88be",
                "public_sha": "af7ef409978ebb63",
            },
            {
                "outcome": "red",
                "winners": [1, 2],
                "moves": 35,
                "moves_sha": "9c5e324e21c3b01c",
                "views_sha": "2a5478dc9af860cd",
                "record_sha": "9ff688f45e66fcae",
                "public_sha": "c40fd23bd4c7cb25",
            },
            {
                "outcome": "black",
                "winners": [3, 4],
                "moves": 35,
                "moves_sha": "bceeeef33a55949a",
                "views_sha": "d054700459f35c6f",
                "record_sha": "d6fca06949c0f737",
                "public_sha": "b995a9016d9a92e6",
            },
            {
                "outcome": "black",
                "winners": [2, 3],
                "moves": 35,
                "moves_sha": "5e4f0426aa220b36",
                "views_sha": "552abad2153b7545",
                "record_sha": "df96748d924edb87",
                "public_sha": "3e391dfa8ede88b2",
            },
            {
                "outcome": "red",
                "winners": [1, 2],
                "moves": 35,
                "moves_sha": "cb3c06b93b4f7646",
                "views_sha": "1b6a8a4eee13ca20",
                "record_sha": "348540a7202250b5",
                "public_sha": "38be8cdad46cee65",
            },
            {
                "outcome": "black",
                "winners": [0, 1, 2, 4],
                "moves": 35,
                "moves_sha": "289eb14180d859a8",
                "views_sha": "db2800bb3f1a3213",
                "record_sha": "93f507ae0507b5c0",
                "public_sha": "32aefb1989891eff",
            },
            {
                "outcome": "red",
                "winners": [0, 1, 3],
                "moves": 35,
                "moves_sha": "604bd8df9865ed4a",
                "views_sha": "440e9dbe3ba92b04",
                "record_sha": "01389cf6833a1f81",
                "public_sha": "0743f14a738782b1",
            },
            {
                "outcome": "red",
                "winners": [2, 3],
                "moves": 35,
                "moves_sha": "0b40ccd6a1721e01",
                "views_sha": "58f7a3dc61cb29ed",
                "record_sha": "058b236a1cd5460c",
                "public_sha": "b35275f094a41ec8",
            },
            {
                "outcome": "red",
                "winners": [0, 3],
                "moves": 35,
                "moves_sha": "973920565ebae3fd",
                "views_sha": "8604e536c04cc42b",
                "record_sha": "62845c01a27cfed3",
                "public_sha": "3661e015f5a91c9a",
            },
            {
                "outcome": "red",
                "winners": [1, 4],
                "moves": 35,
                "moves_sha": "826eea235597bd14",
                "views_sha": "325f8d53291ac8ad",
                "record_sha": "80446e329ed181b9",
                "public_sha": "60fc8afd9e2146d5",
            },
            {
                "outcome": "red",
                "winners": [3, 4],
                "moves": 35,
                "moves_sha": "28f1a3ac42853306",
                "views_sha": "fd74cba321c7991d",
                "record_sha": "27604cf0e77c65fc",
                "public_sha": "6f2581e9e4f5bebb",
            },
            {
                "outcome": "red",
                "winners": [0, 3],
                "moves": 35,
                "moves_sha": "b815a2c0b1400722",
                "views_sha": "865fbc7451dcc1b3",
                "record_sha": "ae6a63a450115f7d",
                "public_sha": "6c912d5566c8e43d",
            },
        ],
    },
    "gulag 8": {
        "stats": {
            "game": "gulag",
            "players": 8,
            "games": 12,
            "seed": 2,
            "bots": "smart",
            "outcomes": {"red": 0.5, "black": 0.16666666666666666, "draw": 0.3333333333333333},
            "measures": {"canal": 8.5},
        },
        "games": [
            {
                "outcome": "draw",
                "winners": [],
                "moves": 56,
                "moves_sha": "2cf0fe9274ca7f0a",
                "views_sha": "62c759a35390dc6c",
                "record_sha": "7078185ca63a94d7",
                "public_sha": "735c75ddeade9195",
            },
            {
                "outcome": "black",
                "winners": [0, 1, 2, 5],
                "moves": 56,
                "moves_sha": "fdb39c34deef1d08",
                "views_sha": "45e56bbdbfcf99b6",
                "record_sha": "f8d466fc3961812f",
                "public_sha": "1db95594d60e6316",
            },
            {
                "outcome": "draw",
                "winners": [],
                "moves": 56,
                "moves_sha": "c78794925b2b9103",
                "views_sha": "a5c0f1b42220af7a",
                "record_sha": "f2d7e8f42a27c313",
                "public_sha": "e3ddfeff45217848",
            },
            {
                "outcome": "black",
                "winners": [0, 2, 4, 7],
                "moves": 56,
                "moves_sha": "e6ecc906a99282da",
                "views_sha": "df67ecd19091a5ef",
                "record_sha": "95dddfb000ec6f51",
                "public_sha": "3a48e4bec2d7950d",
            },
            {
                "outcome": "red",
                "winners": [1, 4, 6, 7],
                "moves": 56,
                "moves_sha": "0bfce73fa2c59ac4",
                "views_sha": "b1f14cb6e2247746",
                "record_sha": "b15822da7a3d3ef6",
                "public_sha": "9f8665a4beb07e8e",
            },
            {
                "outcome": "red",
                "winners": [1, 3, 4, 7],
                "moves": 56,
                "moves_sha": "83c8a809ccda68db",
                "views_sha": "fb3b70dc2a8801b2",
                "record_sha": "bb4b1d0b84242639",
                "public_sha": "0e4fb4e6329bb05a",
            },
            {
                "outcome": "red",
                "winners": [2, 4, 6, 7],
                "moves": 56,
                "moves_sha": "9dbd75a1cc30fcf6",
                "views_sha": "abc4d01147d5437a",
                "record_sha": "b092b06d2fd04907",
                "public_sha": "206cf774ac06565a",
            },
            {
                "outcome": "draw",
                "winners": [],
                "moves": 56,
                "moves_sha": "bd0fdfe5098676ab",
                "views_sha": "27cefebee70f5e36",
                "record_sha": "57f79c01e4a775f2",
                "public_sha": "26256cb0e9edfc80",
            },
            {
                "outcome": "draw",
                "winners": [],
                "moves": 56,
                "moves_sha": "7a9e80479b528a93",
                "views_sha": "e41426e4063bac02",
                "record_sha": "f83afc2d8af3be2f",
                "public_sha": "0c88600c352b3a3c",
            },
            {
                "outcome": "red",
                "winners": [1, 2, 6, 7],
                "moves": 56,
                "moves_sha": "c4d3dc50572ab1fe",
                "views_sha": "dda3bea7d09f83ba",
                "record_sha": "e33563aa78f8633e",
                "public_sha": "ee5982df82498ced",
            },
            {
                "outcome": "red",
                "winners": [2, 5, 6, 7],
                "moves": 56,
                "moves_sha": "1cf2a993cfda7564",
                "views_sha": "cca85da4dfaa26dc",
                "record_sha": "bc71ebcd7d3ae9c4",
                "public_sha": "c3036e68951f693d",
            },
            {
                "outcome": "red",
                "winners": [0, 1, 6, 7],
                "moves": 56,
                "moves_sha": "3c90c556cfad1e16",
                "views_sha": "db02fc50dea6dc0a",
                "record_sha": "ef41f0312d3ca2fb",
                "public_sha": "a6bc390f07a97e19",
            },
        ],
    },
    "politburo 5": {
        "stats": {
            "game": "politburo",
            "players": 5,
            "games": 4,
            "seed": 3,
            "bots": "smart",
            "outcomes": {"winner": 0.25, "winners": 0.75, "no winner": 0.0},
            "measures": {
                "Beria won": 0.0,
                "Bulganin won": 0.0,
                "Kaganovich won": 0.3333333333333333,
                "Khrushchev won": 0.6666666666666666,
                "Kirov won": 1.0,
                "Kuybyshev won": 0.3333333333333333,
                "Malenkov won": 0.5,
                "Molotov won": 0.5,
                "Zhdanov won": 0.3333333333333333,
                "conditions fulfilled": 3.5,
                "lost influence": 4.0,
            },
        },
        "games": [
            {
                "outcome": "winner",
                "winners": [1],
                "moves": 115,
                "moves_sha": "d46f23b1a79976e9",
                "views_sha": "a913a68388a4a814",
                "record_sha": "8dfdefc9027158f9",
                "public_sha": "9740b0ee065641bc",
            },
            {
                "outcome": "winners",
                "winners": [0, 2],
                "moves": 109,
                "moves_sha": "63ef0b2eb862ce31",
                "views_sha": "9e4dd0aa6dbce2c7",
                "record_sha": "84fd5c755e0a3a70",
                "public_sha": "cf0e3013c82986ae",
            },
            {
                "outcome": "winners",
                "winners": [0, 1, 3],
                "moves": 96,
                "moves_sha": "8a5fe6ae485ae53f",
                "views_sha": "03b826dfafc1f379",
                "record_sha": "1dfe4c103384828a",
                "public_sha": "d26a8344b2e3e69d",
            },
            {
                "outcome": "winners",
                "winners": [2, 4],
                "moves": 102,
                "moves_sha": "7ddc181d959a7545",
                "views_sha": "3b522b1223fa7c4e",
                "record_sha": "394ab27a8727cb55",
                "public_sha": "6cb8c462b69d3c1b",
            },
        ],
    },
    "politburo 8": {
        "stats": {
            "game": "politburo",
            "players": 8,
            "games": 3,
            "seed": 4,
            "bots": "smart",
            "outcomes": {"winner": 0.0, "winners": 1.0, "no winner": 0.0},
            "measures": {
                "Beria won": 0.0,
                "Bulganin won": 1.0,
                "Kaganovich won": 0.3333333333333333,
                "Khrushchev won": 0.5,
                "Kirov won": 0.0,
                "Kuybyshev won": 0.3333333333333333,
                "Malenkov won": 0.3333333333333333,
                "Molotov won": 1.0,
                "Voroshilov won": 0.3333333333333333,
                "Zhdanov won": 0.5,
                "conditions fulfilled": 4.666666666666667,
                "lost influence": 3.3333333333333335,
            },
        },
        "games": [
            {
                "outcome": "winners",
                "winners": [0, 1, 4, 5],
                "moves": 151,
                "moves_sha": "5f923fb5d848318c",
                "views_sha": "70bec3014f175a72",
                "record_sha": "0c3653661ae43888",
                "public_sha": "ddd91d4d2b222e6c",
            },
            {
                "outcome": "winners",
                "winners": [1, 4, 7],
                "moves": 148,
                "moves_sha": "a84a00374da5297d",
                "views_sha": "90dcf87720e6950c",
                "record_sha": "a769a37014d5d6c0",
                "public_sha": "6254ae73dbf1db19",
            },
            {
                "outcome": "winners",
                "winners": [2, 3, 5],
                "moves": 146,
                "moves_sha": "ea460edc1729c9cf",
                "views_sha": "491fc7d04f02aad7",
                "record_sha": "b7a6fa0959c53b83",
                "public_sha": "e92a9d2036c500ac",
            },
        ],
    },
    "glasnost 4": {
        "stats": {
            "game": "glasnost",
            "players": 4,
            "games": 4,
            "seed": 5,
            "bots": "smart",
            "outcomes": {"instant": 0.75, "nationalist instant": 0.0, "end game": 0.25},
            "measures": {
                "Nationalists won": 0.0,
                "Reformists won": 0.75,
                "Repressionists won": 0.25,
                "crises with a policy": 6.75,
                "instant": 0.75,
                "turns": 17.0,
            },
        },
        "games": [
            {
                "outcome": "instant",
                "winners": [2],
                "moves": 79,
                "moves_sha": "c1f5fd520f02ed35",
                "views_sha": "4c3aafb304af93f0",
                "record_sha": "e54e5ca0239267fc",
                "public_sha": "28a4b478a4f0274f",
            },
            {
                "outcome": "end game",
                "winners": [0, 1],
                "moves": 139,
                "moves_sha": "4b735c1f3e7c4542",
                "views_sha": "35e11d497880afc7",
                "record_sha": "abe6786f3f23cac1",
                "public_sha": "57e54bd3011123d1",
            },
            {
                "outcome": "instant",
                "winners": [2],
                "moves": 78,
                "moves_sha": "7915ec6b9afc4a0f",
                "views_sha": "17aa227df494d292",
                "record_sha": "0cef15f964a13c65",
                "public_sha": "2ddf986ef17226d9",
            },
            {
                "outcome": "instant",
                "winners": [0],
                "moves": 81,
                "moves_sha": "0b49b531c9ed89ae",
                "views_sha": "6dcd91399a7b060f",
                "record_sha": "979506fc7443da11",
                "public_sha": "280bf9fae00c7adc",
            },
        ],
    },
    "glasnost 8": {
        "stats": {
            "game": "glasnost",
            "players": 8,
            "games": 3,
            "seed": 6,
            "bots": "smart",
            "outcomes": {
                "instant": 0.3333333333333333,
                "nationalist instant": 0.0,
                "end game": 0.6666666666666666,
            },
            "measures": {
                "Nationalists won": 0.3333333333333333,
                "Reformists won": 0.6666666666666666,
                "Repressionists won": 0.0,
                "crises with a policy": 8.666666666666666,
                "instant": 0.3333333333333333,
                "turns": 20.666666666666668,
            },
        },
        "games": [
            {
                "outcome": "end game",
                "winners": [4, 7],
                "moves": 220,
                "moves_sha": "1ad1dcf0f1090cdc",
                "views_sha": "d2f53fc9dd987622",
                "record_sha": "c5bea34d842c8cbc",
                "public_sha": "3a97dd86fde3339e",
            },
            {
                "outcome": "instant",
                "winners": [1, 5, 6],
                "moves": 115,
                "moves_sha": "03b6574495ed1d0e",
                "views_sha": "5d244d9387a522ac",
                "record_sha": "e792d759dc5f41a3",
                "public_sha": "5b520ee4f341d661",
            },
            {
                "outcome": "end game",
                "winners": [1, 5],
                "moves": 220,
                "moves_sha": "a4171bff18ee887a",
                "views_sha": "fe4ac41252941afe",
                "record_sha": "06a06e5ee982f1b3",
                "public_sha": "5930bdb71d2c46cb",
            },
        ],
    },
    "kolkhoz 4": {
        "stats": {
            "game": "kolkhoz",
            "players": 4,
            "games": 6,
            "seed": 7,
            "bots": "smart",
            "outcomes": {"single": 1.0, "shared": 0.0},
            "measures": {
                "cards sent north": 14.833333333333334,
                "jobs completed": 9.166666666666666,
                "seat 1 score": 28.333333333333332,
                "seat 1 won": 0.3333333333333333,
                "seat 2 score": 28.5,
                "seat 2 won": 0.6666666666666666,
                "seat 3 score": 29.5,
                "seat 3 won": 0.0,
                "seat 4 score": 24.0,
                "seat 4 won": 0.0,
            },
        },
        "games": [
            {
                "outcome": "single",
                "winners": [0],
                "moves": 93,
                "moves_sha": "89cc5b9199226e2f",
                "views_sha": "9ea2c6e020c9ea8c",
                "record_sha": "e2b4dcee725a3797",
                "public_sha": "9345cd256d7eea9b",
            },
            {
                "outcome": "single",
                "winners": [0],
                "moves": 85,
                "moves_sha": "95d1a92004b2345b",
                "views_sha": "29593d253876baf4",
                "record_sha": "65b008b74ba78b1a",
                "public_sha": "0de5fb846adba2ac",
            },
            {
                "outcome": "single",
                "winners": [1],
                "moves": 96,
                "moves_sha": "6ad2a68c2f925108",
                "views_sha": "4ba01b205c334e89",
                "record_sha": "35094b49d7d55d81",
                "public_sha": "d865f439216ed98d",
            },
            {
                "outcome": "single",
                "winners": [1],
                "moves": 94,
                "moves_sha": "7b5923b25a20ea55",
                "views_sha": "30525c1fb10e2254",
                "record_sha": "4a76962214de13b2",
                "public_sha": "bfb740865d5dd07f",
            },
            {
                "outcome": "single",
                "winners": [1],
                "moves": 86,
                "moves_sha": "4e61d451cb14190c",
                "views_sha": "14c8650239236690",
                "record_sha": "64537dc98099507c",
                "public_sha": "3132d99c92c10373",
            },
            {
                "outcome": "single",
                "winners": [1],
                "moves": 97,
                "moves_sha": "cc642c5e83765117",
                "views_sha": "9c26a8ebeec8f2c8",
                "record_sha": "cc31317e0117a0bb",
                "public_sha": "db2bc7da5d08c211",
            },
        ],
    },
}


@pytest.mark.parametrize(("name", "players", "games", "seed"), CASES)
def test_simulate_reports_the_pinned_numbers(name, players, games, seed):
    assert stats(name, players, games, seed) == PINNED[f"{name} {players}"]["stats"]


@pytest.mark.parametrize(("name", "players", "games", "seed"), CASES)
def test_every_simulated_game_is_the_pinned_game(name, players, games, seed):
    assert traces(name, players, games, seed) == PINNED[f"{name} {players}"]["games"]


if __name__ == "__main__":
    import pprint

    print("PINNED: dict[str, Any] = ", end="")
    pprint.pprint(current(), width=96, sort_dicts=False)
