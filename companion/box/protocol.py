"""The handset wire protocol: COBS-framed, CRC-checked, numbered, acknowledged.

This one file runs on both ends: in the box under CPython and on the handset
under MicroPython (copied next to ``firmware/handset.py``), so it keeps to
what both understand: no annotations beyond comments, no dataclasses.

A frame on the wire is ``COBS(payload + CRC16) + 0x00``, where the payload is
``type, seq, seat, length, body...``. A CRC alone lets one random frame in
65,536 through, so a frame must also have a known type, a length that matches
its body, and a body of the size its type allows.
"""

# The protocol's version, the first byte of every HELLO; the box refuses a pad of another.
# 2: a VOTE names the session it was cast in, and a HELLO is no longer acknowledged.
VERSION = 2

# handset -> box: I am seat N (body: protocol version, then the session it last heard in a
# WHO, 0 for none). Not acknowledged: the box asks WHO again while it has not heard the pad.
HELLO = 0x01
ASK = 0x02  # box -> handset: a secret vote is open (body: ballot number)
# handset -> box: the vote (body: ballot number, button 0 = A, 1 = B, the session of the WHO
# the pad last answered). The box counts a vote only in its own session and open ballot, and
# acknowledges only a vote it counted (or a resend of it): an acknowledged vote always counts,
# and a VOTE captured in another session (before the box restarted) never does.
VOTE = 0x03
ACK = 0x04  # either way: frame received (body: the seq it acknowledges)
DONE = 0x05  # box -> handset: the ballot is closed, lights off (body: ballot number)
# box -> any handset: say HELLO (body: the box's session, a nonce new at every start).
# Sent to seat ANY_SEAT when a port opens, whenever a pad has been quiet, and to a HELLO
# that names another session: its HELLO both binds the port to a seat and shows the pad is
# alive. A pad that sees a new session forgets the ballot of the box that went away.
WHO = 0x06
ANY_SEAT = 0xFF
SESSION = 4  # bytes of a session nonce

# Every frame of a type has one size, so the line's traffic never depends on a vote's button.
BODY_SIZES = {HELLO: 1 + SESSION, ASK: 1, VOTE: 2 + SESSION, ACK: 1, DONE: 1, WHO: SESSION}
HEADER = 4
MAX_FRAME = 64


def session_bytes(session):
    """A session nonce (0 to 2**32 - 1) as it travels."""
    return bytes([(session >> shift) & 0xFF for shift in (24, 16, 8, 0)])


def session_of(body):
    """The session nonce in the first ``SESSION`` bytes of ``body``."""
    value = 0
    for byte in body[:SESSION]:
        value = (value << 8) | byte
    return value


class FrameError(ValueError):
    """A frame that cannot be trusted; the message says why."""


def crc16(data):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


def cobs_encode(data):
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out += block
                block = bytearray()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data):
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        if code == 0:
            raise FrameError("a zero byte inside a frame")
        end = i + code
        if end > len(data):
            raise FrameError("a COBS block runs past the end of the frame")
        out += data[i + 1 : end]
        i = end
        if code < 255 and i < len(data):
            out.append(0)
    return bytes(out)


def encode(kind, seq, seat, body):
    """The bytes to send for one frame, delimiter included."""
    if kind not in BODY_SIZES or len(body) != BODY_SIZES[kind]:
        raise FrameError(f"no frame of type {kind} with a body of {len(body)} bytes")
    payload = bytes([kind, seq & 0xFF, seat & 0xFF, len(body)]) + bytes(body)
    crc = crc16(payload)
    return cobs_encode(payload + bytes([crc >> 8, crc & 0xFF])) + b"\x00"


def decode(frame):
    """(kind, seq, seat, body) from one frame without its delimiter, or FrameError."""
    if len(frame) > MAX_FRAME:
        raise FrameError(f"frame too long ({len(frame)} bytes)")
    raw = cobs_decode(frame)
    if len(raw) < HEADER + 2:
        raise FrameError(f"frame too short ({len(raw)} bytes)")
    payload, check = raw[:-2], (raw[-2] << 8) | raw[-1]
    if crc16(payload) != check:
        raise FrameError("CRC mismatch")
    kind, seq, seat, length = payload[0], payload[1], payload[2], payload[3]
    body = payload[HEADER:]
    if kind not in BODY_SIZES:
        raise FrameError(f"unknown frame type {kind}")
    if length != len(body) or length != BODY_SIZES[kind]:
        raise FrameError(f"length {length} does not fit a frame of type {kind}")
    return kind, seq, seat, bytes(body)


class Splitter:
    """Cuts a byte stream into frames at the zero delimiters.

    An overlong run (garbage, or a frame whose delimiter was lost) comes out
    as ``None`` so the caller can count it, and the stream resynchronises at
    the next zero byte.
    """

    def __init__(self):
        self.buffer = bytearray()
        self.overflowed = False

    def feed(self, data):
        frames = []
        for byte in data:
            if byte == 0:
                if self.overflowed:
                    frames.append(None)
                elif self.buffer:
                    frames.append(bytes(self.buffer))
                self.buffer = bytearray()
                self.overflowed = False
            elif len(self.buffer) < MAX_FRAME + 2:
                self.buffer.append(byte)
            else:
                self.overflowed = True
        return frames
