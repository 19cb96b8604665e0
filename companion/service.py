"""The kiosk under systemd: ``Type=notify`` readiness, the watchdog, and a clean stop.

sd_notify is a datagram to ``$NOTIFY_SOCKET``; it needs no library (and ``socket`` is
loaded only when systemd gave one, after the first frame). The watchdog is fed from the
table loop itself, so a loop that hangs stops feeding it and systemd restarts the box.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterable

log = logging.getLogger("companion.service")


def notify(message: str) -> bool:
    """Send ``message`` to systemd; False when not run by systemd."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    import socket

    if address.startswith("@"):
        address = "\0" + address[1:]  # the abstract namespace
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.connect(address)
        sock.sendall(message.encode())
    return True


def watchdog_interval() -> float | None:
    """Half the watchdog timeout systemd asked for, or None without a watchdog."""
    usec = os.environ.get("WATCHDOG_USEC")
    if not usec:
        return None
    pid = os.environ.get("WATCHDOG_PID")
    if pid and int(pid) != os.getpid():
        return None
    return int(usec) / 2_000_000


class Service:
    """Runs ``step`` every ``period`` seconds until SIGTERM, telling systemd how it goes."""

    def __init__(
        self,
        step: Callable[[], None],
        period: float = 0.01,
        idle: Iterable[Callable[[], None]] = (),
    ) -> None:
        self.step = step
        self.period = period
        self.stopping = False
        #: small tasks run one a turn once the first frame is up (``companion.warmup``)
        self.idle = iter(idle)

    def _stop(self, signum: int, frame: object) -> None:
        self.stopping = True

    def _warm(self) -> None:
        """One idle task: a warm-up that fails only costs the speed it would have bought."""
        try:
            task = next(self.idle, None)
            if task is not None:
                task()
        except Exception:
            log.exception("warming up failed; the box plays on without it")
            self.idle = iter(())

    def run(self) -> None:
        import signal  # loaded once the first frame is up, as socket is

        signal.signal(signal.SIGTERM, self._stop)
        self.step()  # the first frame is on the screen before we say ready
        notify("READY=1\nSTATUS=at the table")
        interval = watchdog_interval()
        fed = time.monotonic()
        while not self.stopping:
            self.step()
            self._warm()
            now = time.monotonic()
            if interval is not None and now - fed >= interval:
                notify("WATCHDOG=1")
                fed = now
            time.sleep(self.period)
        notify("STOPPING=1")
