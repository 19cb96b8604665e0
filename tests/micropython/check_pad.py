"""The pad's logic and the wire protocol, checked under MicroPython itself.

Run as ``micropython check_pad.py`` with firmware/ and companion/box/ on
MICROPYPATH. Time is the pad's milliseconds, passed in by hand: nothing
sleeps. Prints one line per failed check and ``N passed, N failed``; exits 1
if any failed.
"""

import sys

import handset
import protocol

passed = 0
failed = 0


def check(name, ok):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAILED:", name)


class Line:
    """The box's end of the wire: what the pad wrote, decoded."""

    def __init__(self):
        self.splitter = protocol.Splitter()
        self.frames = []

    def write(self, data):
        for frame in self.splitter.feed(data):
            self.frames.append(protocol.decode(frame))

    def take(self):
        frames, self.frames = self.frames, []
        return frames


def box_frame(kind, seq, seat, body):
    return protocol.encode(kind, seq, seat, bytes(body))


def new_pad(seat=2):
    line, lit = Line(), []
    pad = handset.Pad(seat, line.write, lit.append)
    return pad, line, lit


def protocol_checks():
    check("crc16 check value", protocol.crc16(b"123456789") == 0x29B1)
    for data in (b"", b"\x00", b"\x00\x00", bytes(range(256)), b"\x01" * 300):
        encoded = protocol.cobs_encode(data)
        check("cobs has no zero", 0 not in encoded)
        check("cobs round trip", protocol.cobs_decode(encoded) == data)
    body = bytes([9, 1, 0, 0, 0, 11])
    wire = protocol.encode(protocol.VOTE, 7, 3, body)
    check("frame round trip", protocol.decode(wire[:-1]) == (protocol.VOTE, 7, 3, body))
    for garbage in (b"\x09\x01", bytes(80), b"\x03\x01\x02\x02\x09\x01\x05\x05"):
        try:
            protocol.decode(garbage)
            check("garbage refused", False)
        except protocol.FrameError:
            check("garbage refused", True)
    splitter = protocol.Splitter()
    good = protocol.encode(protocol.HELLO, 1, 2, b"\x01" + protocol.session_bytes(0))
    check("resync", splitter.feed(bytes(range(1, 200)) + b"\x00" + good) == [None, good[:-1]])


WHO_11 = [0, 0, 0, 11]  # a box's WHO, session 11


def pad_checks():
    pad, line, lit = new_pad()
    hello = line.take()
    check("hello at power-up", [f[0] for f in hello] == [protocol.HELLO] and hello[0][2] == 2)
    check("the hello says the protocol", hello[0][3][0] == protocol.VERSION)
    pad.tick(1000, False, False)
    check("a hello is not resent (the box asks WHO)", line.take() == [])
    pad.received(box_frame(protocol.WHO, 0, protocol.ANY_SEAT, WHO_11), 1000)
    hello = line.take()
    check("who: hello naming it", [f[3] for f in hello] == [bytes([protocol.VERSION, 0, 0, 0, 11])])

    pad.received(box_frame(protocol.ASK, 5, 2, [9]), 1000)
    check("the ask is acked", [f[0] for f in line.take()] == [protocol.ACK])
    check("the ask lights the pad", lit[-1] is True)
    pad.received(box_frame(protocol.ASK, 6, 3, [9]), 1000)
    check("a frame for another seat is not answered", line.take() == [])

    pad.tick(1010, False, True)
    pad.tick(1020, False, True)
    check("no vote before the debounce", line.take() == [])
    pad.tick(1045, False, True)
    votes = line.take()
    named = bytes([9, 1, 0, 0, 0, 11])
    check("one vote naming the session", [(f[0], f[3]) for f in votes] == [(protocol.VOTE, named)])
    pad.tick(1100, True, True)
    check("one vote a ballot", line.take() == [])
    pad.tick(1250, False, False)
    check("the vote resent until acked", [f[0] for f in line.take()] == [protocol.VOTE])
    pad.received(box_frame(protocol.ACK, 7, 2, [votes[0][1]]), 1260)
    pad.tick(2000, False, False)
    check("acked vote: quiet", line.take() == [])

    pad.received(b"\x07\x09\x00" + bytes(range(1, 90)) + b"\x00", 2000)
    check("garbage in is ignored", line.take() == [] and pad.ballot == 9)
    pad.received(box_frame(protocol.DONE, 8, 2, [9]), 2000)
    check("done: lights off", lit[-1] is False and pad.ballot is None)


def unacked_vote_checks():
    """A vote the box never acknowledged (it did not count it) is sent until its ballot ends."""
    pad, line, _lit = new_pad()
    pad.received(box_frame(protocol.WHO, 0, protocol.ANY_SEAT, WHO_11), 0)
    pad.received(box_frame(protocol.ASK, 1, 2, [4]), 0)
    for now in (10, 50):
        pad.tick(now, True, False)
    line.take()
    pad.tick(600, False, False)
    check("unacked: sent again", [f[0] for f in line.take()] == [protocol.VOTE])
    pad.received(box_frame(protocol.DONE, 2, 2, [4]), 650)
    line.take()
    pad.tick(2000, False, False)
    check("its ballot closed: not sent again", line.take() == [] and pad.unacked is None)
    pad.received(box_frame(protocol.ASK, 3, 2, [5]), 2000)
    for now in (2010, 2050):
        pad.tick(now, False, True)
    pad.received(box_frame(protocol.ASK, 4, 2, [6]), 2100)
    line.take()
    pad.tick(3000, False, False)
    check("a new ballot asked: the old vote is not sent", line.take() == [] and pad.ballot == 6)


def blink(button):
    pad, _line, lit = new_pad()
    pad.received(box_frame(protocol.ASK, 1, 2, [3]), 0)
    del lit[:]
    for now in (0, 40, 100, 400):
        pad.tick(now, button == 0, button == 1)
    return lit


def box_restart_checks():
    pad, line, lit = new_pad()
    pad.received(box_frame(protocol.WHO, 0, protocol.ANY_SEAT, [0, 0, 0, 11]), 0)
    frames = line.take()
    check("who is answered with hello", protocol.HELLO in [f[0] for f in frames])
    pad.received(box_frame(protocol.ASK, 1, 2, [1]), 10)
    for now in (20, 60):
        pad.tick(now, True, False)
    line.take()
    check("voted in ballot 1", pad.voted == 0 and pad.unacked[2] == 1)
    # The box restarts before acknowledging, and numbers its ballots from 1 again.
    pad.received(box_frame(protocol.WHO, 0, protocol.ANY_SEAT, [0, 0, 0, 12]), 100)
    frames = line.take()
    check("the new box gets a hello", [f[0] for f in frames] == [protocol.HELLO])
    check("the old ballot is forgotten", pad.ballot is None and lit[-1] is False)
    pad.tick(400, False, False)
    check("the old vote is not sent again", line.take() == [])
    pad.received(box_frame(protocol.ASK, 1, 2, [1]), 400)
    for now in (410, 450):
        pad.tick(now, False, True)
    votes = [f for f in line.take() if f[0] == protocol.VOTE]
    check("a vote in the new box's ballot 1", [f[3] for f in votes] == [bytes([1, 1, 0, 0, 0, 12])])
    pad.received(box_frame(protocol.WHO, 0, protocol.ANY_SEAT, [0, 0, 0, 12]), 500)
    check("the same box asking again changes nothing", pad.ballot == 1)


protocol_checks()
pad_checks()
unacked_vote_checks()
check("the same blink for A and B", blink(0) == blink(1) and blink(0))
box_restart_checks()
print("micropython" if sys.implementation.name == "micropython" else sys.implementation.name)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
