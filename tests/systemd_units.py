"""Unit files read the way systemd reads them, for what `systemd-analyze verify` cannot show:
the command line a unit and its drop-ins end up with, the environment it runs in, and the
folders its sandbox lets the service write.

systemd reads the unit, then its drop-ins (``NAME.service.d/*.conf``) in the order of their
file names. A list setting (``ExecStart=``, ``Environment=``, ``Conflicts=``...) gains each
value; an empty assignment empties it. A single setting keeps its last value. In a command
line a word that is exactly ``$VAR`` becomes the variable's value split on white space (no
word at all when it is empty or unset); ``${VAR}`` is put into its word as it is.
"""

from __future__ import annotations

import re
import shlex
from collections import defaultdict
from pathlib import Path, PurePosixPath

#: a unit as read: section -> key -> the values it holds, in order
Unit = dict[str, dict[str, list[str]]]

VARIABLE = re.compile(r"\$\{(\w+)\}")


def read(paths: list[Path]) -> Unit:
    """The unit file first, then its drop-ins, each applied over what came before."""
    unit: Unit = defaultdict(lambda: defaultdict(list))
    for path in paths:
        section = ""
        for raw in path.read_text().splitlines():
            line = raw.strip()
            if not line or line[0] in "#;":
                continue
            if line.startswith("["):
                section = line.strip("[]")
                continue
            key, _, value = line.partition("=")
            values = unit[section][key.strip()]
            if value.strip():
                values.append(value.strip())
            else:
                values.clear()
    return unit


def with_drop_ins(unit: Path, folder: Path | None = None) -> Unit:
    """The unit with the drop-ins in ``folder`` (default: its own ``NAME.d``), by file name."""
    folder = folder or unit.with_name(unit.name + ".d")
    drop_ins = sorted(folder.glob("*.conf"), key=lambda p: p.name) if folder.is_dir() else []
    return read([unit, *drop_ins])


def last(unit: Unit, section: str, key: str, default: str = "") -> str:
    values = unit[section][key]
    return values[-1] if values else default


def names(unit: Unit, section: str, key: str) -> set[str]:
    """A space-separated list setting (``Conflicts=``, ``RuntimeDirectory=``...), whole."""
    return {word for value in unit[section][key] for word in value.split()}


def environment(unit: Unit, root: Path) -> dict[str, str]:
    """``Environment=`` then each ``EnvironmentFile=`` (read under ``root``; a leading "-"
    lets it be missing), the later winning, as systemd passes them to the service."""
    env: dict[str, str] = {}
    for value in unit["Service"]["Environment"]:
        for assignment in shlex.split(value):
            key, _, val = assignment.partition("=")
            env[key] = val
    for value in unit["Service"]["EnvironmentFile"]:
        optional = value.startswith("-")
        path = root / value.removeprefix("-").lstrip("/")
        if optional and not path.exists():
            continue
        for raw in path.read_text().splitlines():
            line = raw.strip()
            if line and line[0] not in "#;":
                key, _, val = line.partition("=")
                env[key.strip()] = " ".join(shlex.split(val))
    return env


def command_line(unit: Unit, env: dict[str, str]) -> list[str]:
    """The service's one effective ``ExecStart=``, its variables expanded."""
    starts = unit["Service"]["ExecStart"]
    assert len(starts) == 1, f"a service runs one ExecStart, this one has {starts}"
    words = shlex.split(starts[0].lstrip("@-:+!"))
    out: list[str] = []
    for word in words:
        if re.fullmatch(r"\$\w+", word):
            out += env.get(word[1:], "").split()
        else:
            out.append(VARIABLE.sub(lambda m: env.get(m.group(1), ""), word))
    return out


def writable(unit: Unit) -> list[PurePosixPath]:
    """The folders the service may write under ``ProtectSystem=strict``: its own state,
    runtime, cache and logs folders, a private /tmp, and ``ReadWritePaths=``."""
    service = unit["Service"]
    assert last(unit, "Service", "ProtectSystem") == "strict", "the model assumes strict"
    roots = {
        "StateDirectory": "/var/lib",
        "RuntimeDirectory": "/run",
        "CacheDirectory": "/var/cache",
        "LogsDirectory": "/var/log",
    }
    found = [
        PurePosixPath(base, n) for key, base in roots.items() for n in names(unit, "Service", key)
    ]
    if last(unit, "Service", "PrivateTmp") == "yes":
        found += [PurePosixPath("/tmp"), PurePosixPath("/var/tmp")]
    found += [PurePosixPath(p.lstrip("-")) for v in service["ReadWritePaths"] for p in v.split()]
    return found
