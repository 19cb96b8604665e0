"""JSON data a view may hand out without copying it: lists and dicts that refuse to change.

Views are the only way out of a game, and a caller may do what it likes with
what it gets; so a view is fresh data, never the state's own lists. Copying
everything on every move makes a game cost O(moves^2), though, and most of a
view is closed (finished turns, rounds, years) and never changes again. Such a
part is frozen once, when it closes, and then shared by every later view.

``FrozenList`` and ``FrozenDict`` are a ``list`` and a ``dict`` (``==`` with
plain ones, ``json.dumps`` and ``isinstance`` all work as before) whose
mutating methods raise ``TypeError``; ``copy`` and ``pickle`` give frozen
copies.
"""

from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["FrozenDict", "FrozenList", "freeze"]


def _refuse(self: Any, *args: Any, **kwargs: Any) -> NoReturn:
    raise TypeError(f"a {type(self).__name__} cannot be changed: copy it first")


class FrozenList(list[Any]):
    """A list that cannot be changed (its items are frozen too when made by ``freeze``)."""

    __slots__ = ()

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenList, (list(self),))

    def __copy__(self) -> FrozenList:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenList:
        return self


class FrozenDict(dict[str, Any]):
    """A dict that cannot be changed (its values are frozen too when made by ``freeze``)."""

    __slots__ = ()

    __setitem__ = __delitem__ = __ior__ = _refuse
    update = pop = popitem = clear = setdefault = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))

    def __copy__(self) -> FrozenDict:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict:
        return self


def freeze(value: Any) -> Any:
    """JSON data (lists, tuples, dicts, scalars) as frozen lists and dicts, all the way down."""
    kind = type(value)  # exact types first: this runs on every closed entry
    # Most lists and dicts hold only atoms: a look at the items, then one copy, without the
    # comprehension's own frame.
    if kind is dict:
        for v in value.values():
            if type(v) not in _KEPT:
                return FrozenDict(
                    {k: v if type(v) in _KEPT else freeze(v) for k, v in value.items()}
                )
        return FrozenDict(value)
    if kind is list or kind is tuple:
        for v in value:
            if type(v) not in _KEPT:
                return FrozenList([v if type(v) in _KEPT else freeze(v) for v in value])
        return FrozenList(value)
    if kind in _KEPT:
        return value
    if isinstance(value, dict):
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return FrozenList([freeze(v) for v in value])
    return value


_ATOMS = frozenset({str, int, float, bool, type(None)})
#: what ``freeze`` keeps as it is: atoms, and what is frozen already
_KEPT = _ATOMS | {FrozenList, FrozenDict}
