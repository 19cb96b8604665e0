"""``@valueclass``: the records of a box's start, with what ``@dataclass`` gives them (an
``__init__`` from the fields, equality, a hash when frozen, ``__match_args__`` and the
repr), made without compiling code.

On Python 3.11 ``@dataclass`` writes each class's methods as source text and compiles it
when the module is imported: about 2 M instructions a class, and the box's first frame
needs dozens of them (README: Performance). Here the methods are shared functions that
read the class's field names, so a class costs what a plain class costs. The fields are
the class's own annotations, in order, a default the value given in the class body; no
inheritance between value classes, no default factories, no ``dataclasses.replace``
(a record that needs those stays a dataclass).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")


class FrozenInstanceError(AttributeError):
    """A field of a frozen value set or deleted (``dataclasses.FrozenInstanceError``'s
    place)."""


def _values(self: Any) -> tuple[Any, ...]:
    return tuple(getattr(self, name) for name in self.__match_args__)


def _eq(self: Any, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash(_values(self))


def _repr(self: Any) -> str:
    shown = ", ".join(
        f"{name}={getattr(self, name)!r}"
        for name in self.__match_args__
        if name not in self._unshown_fields
    )
    return f"{self.__class__.__qualname__}({shown})"


def _frozen(self: Any, name: str, *value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _init_for(cls: type, names: tuple[str, ...], defaults: dict[str, Any]) -> Callable[..., None]:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"{cls.__qualname__}() takes {len(names)} arguments, {len(args)} given")
        given = dict(zip(names, args, strict=False))
        for name, value in kwargs.items():
            if name not in names or name in given:
                raise TypeError(f"{cls.__qualname__}() got an unexpected or repeated {name!r}")
            given[name] = value
        for name in names:
            if name in given:
                value = given[name]
            elif name in defaults:
                value = defaults[name]
            else:
                raise TypeError(f"{cls.__qualname__}() missing argument {name!r}")
            object.__setattr__(self, name, value)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _made(cls: type[T], frozen: bool, eq: bool, unshown: tuple[str, ...]) -> type[T]:
    names = tuple(inspect.get_annotations(cls))
    defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}
    for name, default in defaults.items():  # what a dataclass would share, or make anew
        if isinstance(default, list | dict | set) or hasattr(default, "default_factory"):
            raise ValueError(f"{cls.__qualname__}.{name}: a value class takes no such default")
    methods: dict[str, Any] = {
        "__init__": _init_for(cls, names, defaults),
        "__match_args__": names,
        "_unshown_fields": frozenset(unshown),
        "__repr__": _repr,
    }
    if eq:  # as @dataclass: a mutable value is unhashable; without eq, both are by identity
        methods |= {"__eq__": _eq, "__hash__": _hash if frozen else None}
    if frozen:
        methods["__setattr__"] = methods["__delattr__"] = _frozen
    for name, method in methods.items():
        setattr(cls, name, method)
    return cls


@overload
def valueclass(cls: type[T], /) -> type[T]: ...


@overload
def valueclass(
    *, frozen: bool = False, eq: bool = True, unshown: tuple[str, ...] = ()
) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform()
def valueclass(
    cls: type[T] | None = None,
    /,
    *,
    frozen: bool = False,
    eq: bool = True,
    unshown: tuple[str, ...] = (),
) -> type[T] | Callable[[type[T]], type[T]]:
    """The class with a value's methods; ``frozen``: its fields are set once, and it hashes;
    ``eq``: equal by its fields (else by identity); ``unshown``: fields its repr leaves out."""
    if cls is not None:
        return _made(cls, frozen, eq, unshown)
    return lambda cls: _made(cls, frozen, eq, unshown)
