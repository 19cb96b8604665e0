"""Private websocket messages padded to fixed size buckets, so that their size tells nothing.

A phone's message after a vote may say "Work" or "Strike"; the Wi-Fi shows
anyone the size of an encrypted frame. Each private message is padded with
spaces (JSON allows whitespace after a value) to the next bucket: 2 KiB,
then powers of two. Two messages that differ only in a secret word land in
the same bucket, so their frames are the same number of bytes; a message
that grows past a bucket does so for reasons every seat can see (a longer
history or hand), not for a choice. Websockets are sent uncompressed, since
compression would make sizes depend on the words again.
"""

from __future__ import annotations

#: bytes: above every phone message of a whole game (at most 1,391 bytes measured, Glasnost
#: in French, its sentences whole): at 1 KiB a card's word ("red"/"black") could tip one
#: seat's message into the next bucket
MIN_BUCKET = 2048


def bucket(size: int) -> int:
    """The bucket a message of ``size`` bytes is sent in."""
    found = MIN_BUCKET
    while found < size:
        found *= 2
    return found


def padded(text: str) -> str:
    """``text`` followed by spaces up to its bucket, counted in UTF-8 bytes as sent."""
    size = len(text.encode("utf-8"))
    return text + " " * (bucket(size) - size)
