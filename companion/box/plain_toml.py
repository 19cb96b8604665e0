"""The plain TOML a pinout is written in, read without ``tomllib``.

Importing ``tomllib`` (its regular expressions, ``datetime``, ``string``) costs a
start about 15 M instructions, a twentieth of it, to read a file of
``[section]`` headers and ``key = value`` lines. ``loads`` reads that plain
subset: bare keys, one-level tables, decimal and hexadecimal integers, decimal
floats, strings without escapes, one-line arrays of those, comments. Anything
else in the file (dotted keys, inline tables, escapes, exponents, underscores
in numbers, a repeated key...) gives None, and the caller reads the file with
``tomllib``, as TOML says and with its error messages: an owner's edit is read
the same whichever reader took it (``tests/test_plain_toml.py`` compares both).
"""

from __future__ import annotations

from typing import Any

#: characters of a bare key (TOML's A-Za-z0-9_-)
BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
DIGITS = frozenset("0123456789")
HEX = frozenset("0123456789abcdefABCDEF")
#: the control characters TOML refuses in a comment or a string (all but the tab), deleted
CONTROLS = dict.fromkeys([*range(0x09), *range(0x0A, 0x20), 0x7F])


class NotPlain(Exception):
    """The text is not in the plain subset: ``tomllib`` reads it."""


def loads(text: str) -> dict[str, Any] | None:
    """``text`` as ``tomllib.loads`` reads it, or None where it is not plain."""
    data: dict[str, Any] = {}
    table = data
    try:
        for line in text.split("\n"):
            line = line.removesuffix("\r").strip(" \t")
            if not line or line.startswith("#"):
                _comment(line)
            elif line.startswith("["):
                name, sep, rest = line[1:].partition("]")
                _comment(rest.strip(" \t"))
                table = _new(data, _key(name.strip(" \t")) if sep else "", {})
            else:
                key, sep, rest = line.partition("=")
                if not sep:
                    raise NotPlain
                value, rest = _value(rest.strip(" \t"))
                _comment(rest.strip(" \t"))
                _new(table, _key(key.strip(" \t")), value)
    except NotPlain:
        return None
    return data


def _comment(text: str) -> None:
    """Nothing, or a comment without control characters (TOML refuses them)."""
    if text and (text[0] != "#" or _controlled(text)):
        raise NotPlain


def _controlled(text: str) -> bool:
    """Whether ``text`` holds a control character other than a tab."""
    return len(text.translate(CONTROLS)) != len(text)


def _key(key: str) -> str:
    if not key or not BARE.issuperset(key):
        raise NotPlain
    return key


def _new(table: dict[str, Any], key: str, value: Any) -> Any:
    if not key or key in table:  # a repeated key or table: tomllib says why
        raise NotPlain
    table[key] = value
    return value


def _value(text: str) -> tuple[Any, str]:
    """The value at the start of ``text``, and the text after it."""
    if text.startswith("["):
        return _array(text[1:])
    if text.startswith('"'):
        body, sep, rest = text[1:].partition('"')
        if not sep or "\\" in body or _controlled(body):
            raise NotPlain
        return body, rest
    end = 0
    while end < len(text) and text[end] not in " \t,]#":
        end += 1
    return _number(text[:end]), text[end:]


def _array(text: str) -> tuple[list[Any], str]:
    items: list[Any] = []
    rest = text.lstrip(" \t")
    while not rest.startswith("]"):
        item, rest = _value(rest)
        items.append(item)
        rest = rest.lstrip(" \t")
        if rest.startswith(","):
            rest = rest[1:].lstrip(" \t")
        elif not rest.startswith("]"):
            raise NotPlain
    return items, rest[1:]


def _number(word: str) -> int | float:
    sign, digits = ("-", word[1:]) if word.startswith("-") else ("", word)
    whole, point, fraction = digits.partition(".")
    if not whole or not DIGITS.issuperset(whole):
        hexadecimal = whole.startswith("0x") and len(whole) > 2 and HEX.issuperset(whole[2:])
        if sign or point or not hexadecimal:
            raise NotPlain
        return int(whole, 16)
    if len(whole) > 1 and whole.startswith("0"):  # a leading zero: TOML refuses it
        raise NotPlain
    if point:
        if not fraction or not DIGITS.issuperset(fraction):
            raise NotPlain
        return float(word)
    return int(word)
