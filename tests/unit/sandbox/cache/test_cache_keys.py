"""Cache keys match the official format (docs/tools.md#cache) and are invariant under key order."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from sandbox.cache.keys import args_of_key, cache_key, key_of, params_json, query_text

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
ARGS = st.dictionaries(st.text(min_size=1, max_size=10), VALUES, max_size=6)


def test_example_from_the_spec() -> None:
    assert key_of({"keywords": "火锅", "city": "北京市"}) == '[["city","北京市"],["keywords","火锅"]]'


def test_params_json_uses_default_separators_and_keeps_non_ascii() -> None:
    assert params_json({"keywords": "火锅", "city": "北京市"}) == '{"city": "北京市", "keywords": "火锅"}'


def test_integers_and_floats_differ_as_python_repr() -> None:
    assert key_of({"radius_km": 10}) == '[["radius_km",10]]'
    assert key_of({"radius_km": 10.0}) == '[["radius_km",10.0]]'
    assert cache_key('{"radius_km": 1e1}') == '[["radius_km",10.0]]'


def test_explicit_null_and_default_differ_from_omission() -> None:
    assert key_of({"city": "北京市", "region": None}) == '[["city","北京市"],["region",null]]'
    assert key_of({"city": "北京市", "page": 1}) != key_of({"city": "北京市"})


def test_nested_object_keys_are_sorted_and_compact() -> None:
    assert (
        key_of({"b": {"y": 1, "x": [True, None]}, "a": "甲"}) == '[["a","甲"],["b",{"x":[true,null],"y":1}]]'
    )


def test_non_object_params_key_as_themselves() -> None:
    assert cache_key("[1, 2]") == "[1, 2]"
    assert cache_key("not json") == "not json"
    assert cache_key('"北京"') == '"北京"'


def test_no_trimming_or_case_folding() -> None:
    assert key_of({"city": " 北京市"}) != key_of({"city": "北京市"})
    assert key_of({"q": "ABC"}) != key_of({"q": "abc"})


def test_query_text_is_sorted_key_value_pairs_with_python_str() -> None:
    assert query_text({"keywords": "火锅", "city": "北京市", "page": None, "x": True}) == (
        "city: 北京市 | keywords: 火锅 | page: None | x: True"
    )


@given(ARGS, st.randoms(use_true_random=False))
def test_key_is_invariant_under_key_order(args: dict[str, Any], rnd: Any) -> None:
    items = list(args.items())
    rnd.shuffle(items)
    assert key_of(dict(items)) == key_of(args)


@given(ARGS)
def test_key_encodes_the_sorted_pairs(args: dict[str, Any]) -> None:
    key = key_of(args)
    assert json.loads(key) == [[name, args[name]] for name in sorted(args)]
    assert args_of_key(key) == args


@given(ARGS)
def test_key_of_params_json_round_trip(args: dict[str, Any]) -> None:
    assert cache_key(params_json(args)) == key_of(args)
    assert cache_key(key_of(args)) == key_of(args)


def test_args_of_key_rejects_other_shapes() -> None:
    assert args_of_key("plain") is None
    assert args_of_key('{"a": 1}') is None
    assert args_of_key('[["a"]]') is None
    assert args_of_key("[[1, 2]]") is None
