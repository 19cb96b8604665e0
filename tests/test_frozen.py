"""Frozen lists and dicts: what views share is JSON data that refuses to change."""

import copy
import json
import pickle

import pytest

from companion.games.frozen import FrozenDict, FrozenList, freeze

DATA = {"a": [1, 2, {"b": [3, None]}], "c": "x", "d": (4, 5), "e": {"f": True}}


def test_frozen_data_is_json_and_equal_to_plain_data():
    frozen = freeze(DATA)
    assert isinstance(frozen, dict) and isinstance(frozen["a"], list)
    assert frozen == json.loads(json.dumps(DATA))
    assert json.dumps(frozen, sort_keys=True) == json.dumps(DATA, sort_keys=True)
    assert freeze(frozen) is frozen


@pytest.mark.parametrize(
    "change",
    [
        lambda v: v.__setitem__("z", 1),
        lambda v: v.update(z=1),
        lambda v: v.pop("c"),
        lambda v: v.popitem(),
        lambda v: v.clear(),
        lambda v: v.setdefault("z", 1),
        lambda v: v.__delitem__("c"),
        lambda v: v.__ior__({"z": 1}),
        lambda v: v["a"].append(1),
        lambda v: v["a"].extend([1]),
        lambda v: v["a"].insert(0, 1),
        lambda v: v["a"].pop(),
        lambda v: v["a"].remove(1),
        lambda v: v["a"].clear(),
        lambda v: v["a"].sort(),
        lambda v: v["a"].reverse(),
        lambda v: v["a"].__setitem__(0, 9),
        lambda v: v["a"].__delitem__(0),
        lambda v: v["a"].__iadd__([1]),
        lambda v: v["a"].__imul__(2),
        lambda v: v["a"][2]["b"].append(1),
        lambda v: v["d"].append(6),
    ],
)
def test_every_way_to_change_frozen_data_is_refused(change):
    frozen = freeze(DATA)
    before = json.dumps(frozen, sort_keys=True)
    with pytest.raises(TypeError, match="cannot be changed"):
        change(frozen)
    assert json.dumps(frozen, sort_keys=True) == before


def test_copies_and_pickles_stay_frozen_and_equal():
    frozen = freeze(DATA)
    assert copy.copy(frozen) is frozen and copy.deepcopy(frozen) is frozen
    again = pickle.loads(pickle.dumps(frozen))
    assert again == frozen and type(again) is FrozenDict and type(again["a"]) is FrozenList


def test_freezing_copies_what_it_is_given():
    """A view frozen from the state must not follow the state's later moves: a list or dict
    of plain values is copied once, as a nested one is."""
    plain = {"seat": 1, "cards": ["6H", "7H"], "plays": [{"seat": 2, "card": "QD"}]}
    frozen = freeze(plain)
    plain["seat"] = 3
    plain["cards"].append("8H")
    plain["plays"][0]["card"] = "KD"
    assert frozen == {"seat": 1, "cards": ["6H", "7H"], "plays": [{"seat": 2, "card": "QD"}]}
    assert type(frozen["cards"]) is FrozenList and type(frozen["plays"][0]) is FrozenDict
    assert type(freeze(("a", 1))) is FrozenList
