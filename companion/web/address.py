"""``--web HOST:PORT``: checked once at start, and where the server listens, read when needed.

HOST is an address (bound as given) or a network interface (bound to the
address it has). An interface with no address yet is not a mistake: at boot
the hotspot comes up after the box, so the server waits for the address
instead of failing. Only text that is not HOST:PORT, or a name that is
neither an address nor an interface of this machine, is refused.
"""

from __future__ import annotations

import fcntl
import ipaddress
import socket
import struct
from dataclasses import dataclass

from companion.errors import SettingsError

SIOCGIFADDR = 0x8915


def interface_address(name: str) -> str | None:
    """The IPv4 address of interface ``name`` (Linux), or None if it has none (yet)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            packed = fcntl.ioctl(s.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
        except OSError:
            return None
    return socket.inet_ntoa(packed[20:24])


def is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _is_interface(name: str) -> bool:
    try:
        socket.if_nametoindex(name)
    except OSError:
        return False
    return True


@dataclass(frozen=True)
class WebAddress:
    """Where ``--web`` asked the server to listen: an address, or an interface's name."""

    host: str
    port: int
    interface: bool

    @classmethod
    def parse(cls, spec: str) -> WebAddress:
        """``spec`` checked; SettingsError (one line for the command line) when it is wrong."""
        host, sep, port_text = spec.rpartition(":")
        host = host.removeprefix("[").removesuffix("]")
        if not sep or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise SettingsError(
                f"--web takes HOST:PORT (an address or an interface, then a port), not {spec!r}"
            )
        if is_address(host):
            return cls(host, int(port_text), interface=False)
        if not _is_interface(host):
            raise SettingsError(
                f"--web: {host!r} is neither an address nor a network interface here"
            )
        return cls(host, int(port_text), interface=True)

    def current(self) -> tuple[str, str] | None:
        """(address to bind, address for the QR codes), or None while the interface has none.

        For 0.0.0.0 the QR codes carry the first interface that is up and not loopback.
        """
        if self.interface:
            found = interface_address(self.host)
            return None if found is None else (found, found)
        if not ipaddress.ip_address(self.host).is_unspecified:
            return self.host, self.host
        for _, name in socket.if_nameindex():
            found = interface_address(name)
            if found is not None and not ipaddress.ip_address(found).is_loopback:
                return self.host, found
        return self.host, "127.0.0.1"
