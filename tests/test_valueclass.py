"""A value class behaves as the dataclass it replaces: construction, defaults, equality,
hash, frozen fields, ``match`` by position and by name, and the repr."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from companion.box.inputs import Press
from companion.box.pinout import load_pinout
from companion.table import modes
from companion.valueclass import FrozenInstanceError, valueclass


@valueclass(frozen=True, unshown=("hidden",))
class Frozen:
    seat: int
    names: tuple[str, ...] = ()
    hidden: str = "secret"


@dataclasses.dataclass(frozen=True)
class FrozenDC:
    seat: int
    names: tuple[str, ...] = ()
    hidden: str = dataclasses.field(default="secret", repr=False)


@valueclass
class Mutable:
    at: int = 0
    said: str | None = None


@dataclasses.dataclass
class MutableDC:
    at: int = 0
    said: str | None = None


def shown(value: object) -> str:
    return repr(value).replace("DC(", "(")


def test_a_value_class_is_made_and_shown_as_its_dataclass():
    for made, twin in (
        (Frozen(1, ("a",)), FrozenDC(1, ("a",))),
        (Mutable(said="x"), MutableDC(said="x")),
    ):
        assert shown(made) == shown(twin)
    assert Frozen(2).names == () and Frozen(2).hidden == "secret"
    assert Frozen(seat=3, hidden="h") == Frozen(3, (), "h")
    assert Frozen.__match_args__ == FrozenDC.__match_args__ == ("seat", "names", "hidden")
    assert "secret" not in repr(Frozen(1))


def test_equality_is_by_class_and_fields_and_only_frozen_values_hash():
    assert Frozen(1) == Frozen(1) and Frozen(1) != Frozen(2)
    assert Frozen(1) != FrozenDC(1) and Mutable() != MutableDC()  # another class: never equal
    assert Mutable(1) == Mutable(1) and Mutable(1) != Mutable(1, "x")
    assert hash(Frozen(1, ("a",))) == hash(Frozen(1, ("a",)))
    assert len({Frozen(1), Frozen(1), Frozen(2)}) == 2
    with pytest.raises(TypeError):
        hash(Mutable())


def test_a_frozen_value_refuses_a_change_and_a_mutable_one_takes_it():
    value = Frozen(1)
    with pytest.raises(FrozenInstanceError):
        value.seat = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del value.seat  # type: ignore[misc]
    assert value.seat == 1
    changing = Mutable()
    changing.at = 3
    assert changing == Mutable(3)


def test_wrong_arguments_are_refused_as_a_dataclass_refuses_them():
    for call in (
        lambda: Frozen(),  # type: ignore[call-arg]
        lambda: Frozen(1, (), "h", 4),  # type: ignore[call-arg]
        lambda: Frozen(1, seat=1),  # type: ignore[misc]
        lambda: Frozen(1, nobody=1),  # type: ignore[call-arg]
    ):
        with pytest.raises(TypeError):
            call()


def test_match_reads_fields_by_position_and_by_name():
    match modes.Cursor(2, ("a", "b"), 1):
        case modes.Cursor(seat, options=options, at=at):
            assert (seat, options, at) == (2, ("a", "b"), 1)
        case _:
            pytest.fail("no match")
    match modes.Notice((), modes.Over()):
        case modes.Notice(pages, modes.Over(page)):
            assert (pages, page) == ((), 0)
        case _:
            pytest.fail("no match")


def test_the_modes_keep_their_dataclass_fields_and_frozenness():
    """Each mode has the fields, defaults and frozenness it had as a dataclass."""
    frozen = {"Handoff", "Choose", "Confirm", "Announce", "Handsets", "Phones", "Remote"}
    frozen |= {"Notice", "Abandon", "Admit"}
    classes = [
        c for _, c in inspect.getmembers(modes, inspect.isclass) if c.__module__ == modes.__name__
    ]
    assert len(classes) >= 15
    for cls in classes:
        assert cls.__match_args__ == tuple(inspect.get_annotations(cls)), cls
        assert (cls.__hash__ is not None) == (cls.__name__ in frozen), cls
    assert repr(modes.Abandon(modes.Over())) == "Abandon()"  # what it goes back to stays unsaid
    assert repr(modes.Admit(1, 3, modes.Over())) == "Admit(request=1, seat=3)"
    assert repr(modes.Peek(1)) == "Peek(seat=1, looked=False, asked=False)"
    assert modes.Notice((), modes.Over()).turned() == modes.Over()


def test_the_box_records_read_as_before():
    pinout = load_pinout()
    assert pinout.oled.address == 0x3C and pinout.led_part.forward_voltage == (1.8, 2.2)
    assert Press(1.0, "ok", "press") == Press(1.0, "ok", "press")
    with pytest.raises(TypeError):  # a frozen record holding a dict hashes as a dataclass's
        hash(pinout)


@valueclass(frozen=True, eq=False)
class Once:
    value: int


def test_without_eq_a_value_is_equal_to_itself_only_and_hashes_by_identity():
    one = Once(1)
    assert one == one and one != Once(1)
    assert len({one, Once(1)}) == 2
    assert repr(one) == "Once(value=1)"


def test_settings_give_the_journal_what_asdict_gave_it():
    from companion.table.setup import Settings

    settings = Settings("glasnost", 8, "fr", {"board": {"regions": [1, 2]}})
    assert settings.to_json() == dataclasses.asdict(MutableSettings(**settings.to_json()))
    kept = settings.to_json()
    kept["options"]["board"]["regions"].append(3)  # nothing of it shared with the settings
    assert settings.options == {"board": {"regions": [1, 2]}}
    assert Settings.from_json(kept) == Settings("glasnost", 8, "fr", kept["options"])
    assert Settings.from_json({"game": "gulag", "colour": "red"}) is None


@dataclasses.dataclass
class MutableSettings:
    game: str
    players: int
    lang: str
    options: dict[str, object] | None


def test_a_default_a_value_class_cannot_keep_as_a_dataclass_would_is_refused():
    for default in ([], {}, dataclasses.field(default_factory=list)):
        with pytest.raises(ValueError):
            valueclass(type("Shared", (), {"__annotations__": {"rows": "list"}, "rows": default}))
