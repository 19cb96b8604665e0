"""The Glasnost board as data: the twelve crises, their two policies, and the seats around them.

Ruling S1: the printed board and crisis cards are not in the rules text, so
the project ships its own board description, validated on load. The bundled
board lives twice, on purpose: as the Python constant ``BOARD`` below, which
the game uses when no board is given (``companion.games`` does no I/O, so it
cannot read a file), and as ``companion/data/glasnost_board.json``, the
package-data file a table edits or copies to describe its printed board
(``companion.games.glasnost.command.load_board`` reads it; a test checks both agree). A
table's own file has the same schema and is passed to the game as the
``board`` option, already read into a dict.

Schema (JSON)::

    {"name": str, "names": {lang: str, ...},                          # names: optional
     "crises": [{"id": int, "name": str, "names": {lang: str, ...},
                 "yes": {"policy": "reform", "domain": D},
                 "no": {"policy": "repress", "domain": D}}, ...],     # 12
     "seats": [{"id": int, "crises": [crisis id, ...]}, ...],        # 20
     "connected": [[seat id, seat id], [seat id, seat id]]}

with D one of economy, military, security, and lang a language code ("fr").
A name is written once, in any language, as the printed board has it; ``names``
may give it in the table's languages: ``"name": "Hungary 1956", "names": {"fr":
"Hongrie 1956"}``. The screens, the TV and the phones use the name in the
table's language where ``names`` gives one, else the catalog's translation of
the bundled board's names, else the name as written. The rules keep the names
as data and never choose among them. Rule 5.1: every crisis has three
seats; an ordinary seat touches two crises; the four seats of the two
connected pairs touch one crisis each, and a token placed on one also goes
on the other. ``crises`` lists the crisis cards in the order of the crisis
spaces they occupy when the table does not shuffle them (rule 3.2 shuffles).

The bundled seat graph is a ring: a seat between each pair of neighbouring
crisis spaces (seats 1-12), four chord seats each joining the two neighbours
of one crisis space (13-16), and two connected pairs that join opposite
crisis spaces across the middle (17-18, 19-20), so that every crisis space
has exactly three seats.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from companion.errors import BoardError

DOMAINS = ("economy", "military", "security")
REFORM, REPRESS = "reform", "repress"
YES, NO = "yes", "no"
#: rule 4: a Yes vote resolves a crisis with Reform, a No vote with Repression
DIRECTION = {YES: REFORM, NO: REPRESS}

CRISES = 12
SEATS_PER_CRISIS = 3
CONNECTED_PAIRS = 2
LANGUAGE_CODE = re.compile("[a-z]{2,3}")  # ISO 639: "fr", "de"


def _crisis(cid: int, name: str, reform: str, repress: str) -> dict[str, Any]:
    return {
        "id": cid,
        "name": name,
        "yes": {"policy": REFORM, "domain": reform},
        "no": {"policy": REPRESS, "domain": repress},
    }


def _ring_seats() -> list[dict[str, Any]]:
    seats = [{"id": k + 1, "crises": [k + 1, (k + 1) % CRISES + 1]} for k in range(CRISES)]
    for n, skipped in enumerate((1, 4, 7, 10)):  # a chord over each connected crisis space
        before = (skipped - 2) % CRISES + 1
        after = skipped % CRISES + 1
        seats.append({"id": 13 + n, "crises": [before, after]})
    for n, crisis in enumerate((1, 7, 4, 10)):
        seats.append({"id": 17 + n, "crises": [crisis]})
    return seats


#: The bundled board: each domain is reformed by four crises and repressed by four.
BOARD: dict[str, Any] = {
    "name": "Companion board 1",
    "crises": [
        _crisis(1, "Hungary 1956", "security", "military"),
        _crisis(2, "The Berlin Wall", "security", "military"),
        _crisis(3, "Chernobyl", "security", "economy"),
        _crisis(4, "The Prague Spring", "economy", "military"),
        _crisis(5, "Sputnik", "military", "economy"),
        _crisis(6, "Solidarność", "economy", "military"),
        _crisis(7, "Afghanistan", "military", "security"),
        _crisis(8, "The price reform", "economy", "security"),
        _crisis(9, "The Cuban missile crisis", "military", "economy"),
        _crisis(10, "The Baltic Way", "security", "economy"),
        _crisis(11, "Nagorno-Karabakh", "military", "security"),
        _crisis(12, "The anti-alcohol campaign", "economy", "security"),
    ],
    "seats": _ring_seats(),
    "connected": [[17, 18], [19, 20]],
}


#: a name in other languages, language code -> name, sorted by code
Names = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Crisis:
    id: int
    name: str
    yes: str  # the domain a Yes vote reforms
    no: str  # the domain a No vote represses
    names: Names = ()

    def policy(self, vote: str) -> tuple[str, str]:
        """(domain, direction) that ``vote`` ("yes" or "no") sets."""
        return (self.yes, REFORM) if vote == YES else (self.no, REPRESS)


@dataclass(frozen=True)
class Board:
    """A validated board, indexed from 0: crises and seats in the order the data lists them."""

    name: str
    crises: tuple[Crisis, ...]
    #: seat index -> crisis indexes it touches
    seat_crises: tuple[tuple[int, ...], ...]
    #: seat index -> the seat index it is connected to, or None
    partner: tuple[int | None, ...]
    #: seat ids as the data numbers them, for messages and drawings
    seat_ids: tuple[int, ...]
    names: Names = ()

    # The seat tables below are worked out once a board: the legal seats are searched on
    # every turn, and a board never changes.
    @functools.cached_property
    def crisis_seats(self) -> tuple[tuple[int, ...], ...]:
        """Crisis index -> its three seat indexes."""
        return tuple(
            tuple(p for p, cs in enumerate(self.seat_crises) if c in cs)
            for c in range(len(self.crises))
        )

    @functools.cached_property
    def covers(self) -> tuple[tuple[int, ...], ...]:
        """Seat index -> the seats a token placed there covers: itself and its partner, sorted."""
        return tuple(
            (p,) if q is None else tuple(sorted((p, q))) for p, q in enumerate(self.partner)
        )

    @functools.cached_property
    def covered_crises(self) -> tuple[tuple[int, ...], ...]:
        """Seat index -> the crises a token placed there sits at, sorted."""
        return tuple(
            tuple(sorted({c for q in seats for c in self.seat_crises[q]})) for seats in self.covers
        )

    @functools.cached_property
    def covered_crisis_sets(self) -> tuple[frozenset[int], ...]:
        return tuple(frozenset(crises) for crises in self.covered_crises)

    @functools.cached_property
    def placeable(self) -> tuple[int, ...]:
        """The seats a token may be placed on: all but the upper seat of each connected pair."""
        return tuple(p for p, q in enumerate(self.partner) if q is None or q > p)

    @property
    def connected(self) -> tuple[tuple[int, int], ...]:
        return tuple((p, q) for p, q in enumerate(self.partner) if q is not None and p < q)


def _fail(message: str) -> BoardError:
    return BoardError(f"Glasnost board: {message}")


def _int_id(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(f"{what} must be an integer id, not {value!r}")
    return value


def _policy(crisis: dict[str, Any], vote: str, label: str) -> str:
    entry = crisis.get(vote)
    if not isinstance(entry, dict):
        raise _fail(f"crisis {label} needs a {vote!r} policy like {{'policy': ..., 'domain': ...}}")
    if entry.get("policy") != DIRECTION[vote]:
        raise _fail(
            f"crisis {label}: a {vote.capitalize()} vote must {DIRECTION[vote]} "
            f"(rule 4), not {entry.get('policy')!r}"
        )
    domain = entry.get("domain")
    if domain not in DOMAINS:
        raise _fail(f"crisis {label}: domain {domain!r} is not one of {', '.join(DOMAINS)}")
    return domain


def _new_id(entry: Any, n: int, what: str, seen: dict[int, int]) -> int:
    """The id of the ``n``-th ``what`` (a crisis, a seat): an object whose id is new."""
    if not isinstance(entry, dict):
        raise _fail(f"{what} number {n + 1} must be an object")
    eid = _int_id(entry.get("id"), f"{what} number {n + 1}'s id")
    if eid in seen:
        raise _fail(f"{what} id {eid} is used twice")
    return eid


def _names(entry: dict[str, Any], what: str) -> Names:
    """The optional ``names`` of a crisis or of the board: language code -> name."""
    raw = entry.get("names", {})
    example = '{"fr": "Hongrie 1956"}'
    if not isinstance(raw, dict):
        raise _fail(f"{what}: 'names' must be an object like {example}, not {type(raw).__name__}")
    for lang, name in raw.items():
        if not LANGUAGE_CODE.fullmatch(lang):
            raise _fail(f"{what}: {lang[:20]!r} in 'names' is not a language code like 'fr'")
        if not isinstance(name, str) or not name.strip():
            raise _fail(f"{what}: the {lang!r} name must be a text, not {str(name)[:20]!r}")
    return tuple(sorted(raw.items()))


def _crises(raw_crises: list[Any]) -> tuple[list[Crisis], dict[int, int]]:
    """The crisis cards in order, and crisis id -> index."""
    if len(raw_crises) != CRISES:
        raise _fail(f"there must be {CRISES} crises, not {len(raw_crises)}")
    crises: list[Crisis] = []
    crisis_index: dict[int, int] = {}
    for n, c in enumerate(raw_crises):
        cid = _new_id(c, n, "crisis", crisis_index)
        name = c.get("name")
        if not isinstance(name, str) or not name.strip():
            raise _fail(f"crisis {cid} needs a name")
        label = f"{cid} ({name})"
        crisis_index[cid] = n
        yes, no = _policy(c, YES, label), _policy(c, NO, label)
        crises.append(Crisis(cid, name, yes, no, _names(c, f"crisis {label}")))
    return crises, crisis_index


def _seat(
    p: Any, n: int, crisis_index: dict[int, int], seen: dict[int, int]
) -> tuple[int, tuple[int, ...]]:
    """One seat's id and the indexes of the crises it touches."""
    pid = _new_id(p, n, "seat", seen)
    touched = p.get("crises")
    if not isinstance(touched, list) or not touched:
        raise _fail(f"seat {pid} must list the crises it touches")
    indexes = []
    for cid in touched:
        if _int_id(cid, f"seat {pid}'s crisis") not in crisis_index:
            raise _fail(f"seat {pid} touches crisis {cid}, which is not on the board")
        indexes.append(crisis_index[cid])
    if len(set(indexes)) != len(indexes):
        raise _fail(f"seat {pid} lists the same crisis twice")
    return pid, tuple(indexes)


def _seats(
    raw_seats: list[Any], crisis_index: dict[int, int]
) -> tuple[dict[int, int], list[tuple[int, ...]]]:
    """Seat id -> index, and seat index -> the crisis indexes it touches."""
    seat_index: dict[int, int] = {}
    seat_crises: list[tuple[int, ...]] = []
    for n, p in enumerate(raw_seats):
        pid, indexes = _seat(p, n, crisis_index, seat_index)
        seat_index[pid] = n
        seat_crises.append(indexes)
    return seat_index, seat_crises


def _partners(raw_pairs: list[Any], seat_index: dict[int, int]) -> list[int | None]:
    """Seat index -> the seat index it is connected to (rule 5.1's two pairs), or None."""
    partner: list[int | None] = [None] * len(seat_index)
    if len(raw_pairs) != CONNECTED_PAIRS:
        raise _fail(f"there must be {CONNECTED_PAIRS} connected pairs, not {len(raw_pairs)}")
    for pair in raw_pairs:
        if not isinstance(pair, list) or len(pair) != 2:
            raise _fail(f"a connected pair is two seat ids, not {pair!r}")
        a, b = (_int_id(x, "a connected seat") for x in pair)
        for x in (a, b):
            if x not in seat_index:
                raise _fail(f"connected seat {x} is not on the board")
        i, j = seat_index[a], seat_index[b]
        if i == j or partner[i] is not None or partner[j] is not None:
            raise _fail(f"seat {a if i == j or partner[i] is not None else b} is connected twice")
        partner[i], partner[j] = j, i
    return partner


def _check_rule_5_1(
    crises: list[Crisis],
    seat_crises: list[tuple[int, ...]],
    partner: list[int | None],
    ids: list[int],
) -> None:
    """Rule 5.1: seats touch two crises (one if connected), every crisis has three seats."""
    for n, touched in enumerate(seat_crises):
        need = 1 if partner[n] is not None else 2
        kind = "a connected seat" if need == 1 else "an ordinary seat"
        if len(touched) != need:
            raise _fail(
                f"seat {ids[n]} is {kind} and must touch {need} "
                f"{'crisis' if need == 1 else 'crises'} (rule 5.1), not {len(touched)}"
            )
    for a, b in ((i, j) for i, j in enumerate(partner) if j is not None and i < j):
        if seat_crises[a] == seat_crises[b]:
            raise _fail(
                f"connected seats {ids[a]} and {ids[b]} touch the same "
                "crisis: a pair gives one vote at two different crises (rule 5.1)"
            )
    for c, crisis in enumerate(crises):
        around = [ids[p] for p, cs in enumerate(seat_crises) if c in cs]
        if len(around) != SEATS_PER_CRISIS:
            raise _fail(
                f"crisis {crisis.id} ({crisis.name}) has {len(around)} seats "
                f"({', '.join(map(str, around)) or 'none'}); every crisis has exactly "
                f"{SEATS_PER_CRISIS} (rule 5.1)"
            )


def parse_board(data: Any) -> Board:
    """Validate a board description (S1, rule 5.1); the error names what is wrong."""
    if not isinstance(data, dict):
        raise _fail("the description must be a JSON object")
    for key in ("crises", "seats", "connected"):
        if not isinstance(data.get(key), list):
            raise _fail(f"{key!r} must be a list")
    crises, crisis_index = _crises(data["crises"])
    seat_index, seat_crises = _seats(data["seats"], crisis_index)
    partner = _partners(data["connected"], seat_index)
    ids = [p["id"] for p in data["seats"]]
    _check_rule_5_1(crises, seat_crises, partner, ids)
    name = data.get("name", "Glasnost board")
    return Board(
        name=name if isinstance(name, str) else "Glasnost board",
        crises=tuple(crises),
        seat_crises=tuple(seat_crises),
        partner=tuple(partner),
        seat_ids=tuple(ids),
        names=_names(data, "the board"),
    )
