"""The pinout's plain TOML reader reads what tomllib reads, or leaves the file to it."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from companion.box import plain_toml

ROOT = Path(__file__).resolve().parent.parent
FILES = [ROOT / "hardware" / "pinout.toml", ROOT / "companion" / "data" / "pinout.toml"]


def tomllib_reads(text: str) -> dict[str, object] | None:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_pinouts_are_read_without_tomllib_as_tomllib_reads_them(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert plain_toml.loads(text) == tomllib.loads(text)


PLAIN = [
    "",
    "# only a comment\n\n",
    'a = 1\n[t]\nb = -2\nc = 0x3C\nd = 1.25\ne = "x # y"\nf = [1, 2,]\ng = []\n',
    "[ t ]  # spaced\nk=[ [1], [2, 3] ]#c\r\n",
    "a = -0\nb = -0.0\nc = 0\n",
    'a = "tab\there, é"\n',
]
NOT_PLAIN = [  # tomllib's to read (valid or not): the plain reader must not take them
    "a.b = 1\n",
    "a = { b = 1 }\n",
    "a = true\n",
    "a = 1_000\n",
    "a = +1\n",
    "a = 1e3\n",
    "a = 'literal'\n",
    'a = "esc\\n"\n',
    'a = """multi"""\n',
    "a = [1,\n 2]\n",
    "[[t]]\n",
    "[a.b]\n",
    "a = 1\na = 2\n",
    "[t]\n[t]\n",
    "a = 1\n[a]\n",
    "a = 01\n",
    "a = 0X1\n",
    "a = -0x1\n",
    "a = 0x\n",
    "a = 1.\n",
    "a = .5\n",
    "a = \n",
    "a = 1 2\n",
    "a\n",
    "[t\n",
    "[]\n",
    "= 1\n",
    "a = [,]\n",
    "a = [1 2]\n",
    "a = 1 # bell\x07\n",
    'a = "bell\x07"\n',
    "\ufeffa = 1\n",
    '"q" = 1\n',
    "a = 1979-05-27\n",
]


@pytest.mark.parametrize("text", PLAIN)
def test_plain_text_is_read_as_tomllib_reads_it(text: str) -> None:
    assert plain_toml.loads(text) is not None
    assert plain_toml.loads(text) == tomllib.loads(text)


@pytest.mark.parametrize("text", NOT_PLAIN)
def test_anything_else_is_left_to_tomllib(text: str) -> None:
    assert plain_toml.loads(text) is None


def test_an_edited_pinout_is_never_read_otherwise_than_by_tomllib() -> None:
    """Random edits of the pinout (a character dropped, doubled or put in): whatever the
    plain reader takes, tomllib takes too, and reads the same."""
    text = FILES[0].read_text(encoding="utf-8")
    rng = random.Random(7)
    alphabet = "\n\t #=[],.\"'-_x0123456789abtrue{}\\\r\x07"
    taken = 0
    for _ in range(3000):
        at = rng.randrange(len(text))
        match rng.randrange(3):
            case 0:
                edited = text[:at] + text[at + 1 :]
            case 1:
                edited = text[:at] + text[at] + text[at:]
            case _:
                edited = text[:at] + rng.choice(alphabet) + text[at:]
        plain = plain_toml.loads(edited)
        if plain is not None:
            taken += 1
            assert plain == tomllib_reads(edited), repr(edited[max(0, at - 30) : at + 30])
    assert taken > 500  # most edits of a comment or a number stay plain
