"""Handset firmware (MicroPython, e.g. a Raspberry Pi Pico on USB; hardware/handsets.md).

Two buttons (A, B) and one LED. The box asks for a secret vote; the LED
lights; the first press is the vote, sent until the box acknowledges it; the
LED then blinks once, the same blink for A and for B, and goes dark. The
box's WHO is answered with a HELLO naming the box's session, and a vote names
it too (the box counts only votes of its own session); a WHO from a new
session (the box restarted) drops the old box's ballot.

The box's frames are binary and carry 0x03 (Ctrl-C) often: with MicroPython's
interrupt character on, the USB CDC driver turns that byte into a
KeyboardInterrupt the moment it arrives, main.py stops and the pad falls to the
REPL. So the very first statement turns it off. The way back to the REPL, for
updates: hold A and B while plugging the pad in; main() then lights the LED and
returns, and the REPL (and mpremote) answer as on a bare board.

Copy this file as main.py, companion/box/protocol.py as protocol.py and a
config.py holding ``SEAT = n`` (1-based, as printed on the pad) to the board
(a pad already flashed: hold A and B while plugging it in first):
    mpremote cp firmware/handset.py :main.py
    mpremote cp companion/box/protocol.py :protocol.py
    mpremote exec "open('config.py','w').write('SEAT = 3')"
"""

try:
    import micropython
except ImportError:  # the box's tests import the pad's logic under CPython
    micropython = None
else:
    micropython.kbd_intr(-1)  # before anything else: a 0x03 from the box is data

try:
    import protocol
except ImportError:  # the box's tests run this file under CPython
    from companion.box import protocol

# GPIO numbers on the Pico, as hardware/pinout.toml's [handset] says (a test holds them
# equal): GP14, GP15 and GP16 are header pins 19, 20 and 21 on a Pico and a Pico W alike.
PINS = {"a": 14, "b": 15, "led": 16}
RESEND_MS = 200
DEBOUNCE_MS = 30
BLINK_MS = 150


class Pad:
    """The handset's logic, free of hardware so that it runs anywhere.

    ``write(bytes)`` sends to the box, ``led(on)`` drives the LED, and the
    caller feeds ``received(bytes)`` with what arrives and calls
    ``tick(now_ms, a_down, b_down)`` often.
    """

    def __init__(self, seat, write, led):
        self.seat = seat
        self.write = write
        self.led = led
        self.splitter = protocol.Splitter()
        self.seq = 0
        self.session = None  # the box's nonce, from its WHO: a new one means the box restarted
        self.ballot = None
        self.voted = None
        self.unacked = None  # (seq, frame, ballot) of a vote the box has not acknowledged yet
        self.sent_at = 0
        self.blink_until = 0
        self.down_since = [None, None]
        self.hello()

    def send(self, kind, body):
        self.seq = (self.seq + 1) & 0xFF
        frame = protocol.encode(kind, self.seq, self.seat, body)
        self.write(frame)
        return frame

    def hello(self):
        """Say who we are, the protocol we speak and the box session we last heard (0: none).

        Not tracked: the box asks WHO again while it has not heard the pad.
        """
        session = protocol.session_bytes(self.session or 0)
        self.send(protocol.HELLO, bytes([protocol.VERSION]) + session)

    def vote(self, button, now):
        """Send the vote, naming the ballot and the box's session; again until acknowledged."""
        body = bytes([self.ballot, button]) + protocol.session_bytes(self.session or 0)
        frame = self.send(protocol.VOTE, body)
        self.unacked = (self.seq, frame, self.ballot)
        self.sent_at = now

    def forget_vote(self, ballot=None):
        """Stop sending a vote the box will never count: its ballot closed (any ballot: None)."""
        if self.unacked is not None and ballot in (None, self.unacked[2]):
            self.unacked = None

    def received(self, data, now=0):
        for frame in self.splitter.feed(data):
            if frame is None:
                continue
            try:
                kind, seq, seat, body = protocol.decode(frame)
            except protocol.FrameError:
                continue  # garbled: the sender will try again
            if kind == protocol.WHO:
                self.asked_who(protocol.session_of(body))
                continue
            if seat != self.seat:
                continue
            if kind == protocol.ACK:
                if self.unacked is not None and body[0] == self.unacked[0]:
                    self.unacked = None
                continue
            self.send(protocol.ACK, bytes([seq]))
            if kind == protocol.ASK and body[0] != self.ballot:
                self.forget_vote()  # a vote of an earlier ballot: the box has moved past it
                self.ballot, self.voted = body[0], None
                self.led(True)
            elif kind == protocol.DONE and body[0] == self.ballot:
                self.forget_vote(self.ballot)
                self.ballot = None
                self.led(False)

    def asked_who(self, session):
        """Answer the box's WHO with a HELLO; a new session drops the old box's ballot."""
        if session != self.session:
            if self.session is not None:
                if self.ballot is not None:
                    self.led(False)
                self.ballot, self.voted = None, None
                self.forget_vote()  # a vote in the old box's ballot: nobody counts it now
            self.session = session
        self.hello()

    def tick(self, now, a_down, b_down):
        if self.unacked is not None and now - self.sent_at >= RESEND_MS:
            self.write(self.unacked[1])
            self.sent_at = now
        if self.blink_until and now >= self.blink_until:
            self.blink_until = 0
            self.led(False)
        for button, down in enumerate((a_down, b_down)):
            if not down:
                self.down_since[button] = None
                continue
            if self.down_since[button] is None:
                self.down_since[button] = now
            held = now - self.down_since[button] >= DEBOUNCE_MS
            if held and self.ballot is not None and self.voted is None:
                self.voted = button
                self.vote(button, now)
                self.led(False)  # the same dark-then-blink for either button
                self.led(True)
                self.blink_until = now + BLINK_MS


def main():  # pragma: no cover - runs on the handset
    import select
    import sys
    import time

    from machine import Pin

    led = Pin(PINS["led"], Pin.OUT)
    a = Pin(PINS["a"], Pin.IN, Pin.PULL_UP)
    b = Pin(PINS["b"], Pin.IN, Pin.PULL_UP)
    if a.value() == 0 and b.value() == 0:  # A and B held at power-up: back to the REPL
        micropython.kbd_intr(3)
        led.value(1)  # lit, and nothing sent: the box sees a silent pad
        return
    import config

    out = sys.stdout.buffer
    pad = Pad(config.SEAT - 1, out.write, lambda on: led.value(1 if on else 0))
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    while True:
        now = time.ticks_ms()
        waiting = poll.poll(5)
        while waiting:  # drain what arrived, a byte at a time (USB CDC has no peek)
            pad.received(sys.stdin.buffer.read(1), now)
            waiting = poll.poll(0)
        pad.tick(now, a.value() == 0, b.value() == 0)


if __name__ == "__main__":  # pragma: no cover
    main()
