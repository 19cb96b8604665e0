"""Companion: the table box for Gulag, Politburo, Glasnost and Kolkhoz."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType

__version__ = "0.1.0"

#: Modules loaded on first use rather than when imported, as they are imported before the
#: first frame for what the box never does: Pillow's TIFF and EXIF tag tables, for pictures
#: read from files (a third of Pillow's import; the box draws its own), and luma's font
#: file format (``cbor2``), for the character displays of luma's other devices.
LAZY = frozenset({"PIL.ExifTags", "PIL.TiffTags", "cbor2"})


class LazyTables:
    """A finder for ``LAZY``: their specs as found, loaded by ``importlib.util.LazyLoader``
    (the module runs its body when a name is first read from it)."""

    @staticmethod
    def find_spec(
        name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name not in LAZY:
            return None
        from importlib.util import LazyLoader

        spec = PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = LazyLoader(spec.loader)
        return spec


if LazyTables not in sys.meta_path:
    sys.meta_path.insert(0, LazyTables)  # type: ignore[arg-type]
