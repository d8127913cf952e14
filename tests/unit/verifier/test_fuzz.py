"""Fuzz: any JSON value or mutated plan gives a Verdict in both profiles, deterministically."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from runner.sample.plans import sample_task
from tests.fixtures.strict_world import FixtureWorld
from tests.fixtures.zhuhai import zhuhai_plan, zhuhai_poi_db
from verifier.model.verdict import Profile, Verdict
from verifier.referee import verify

TASK = sample_task()
POI = zhuhai_poi_db()
WORLD = FixtureWorld()
BASE = zhuhai_plan("good")
PROFILES: tuple[Profile, ...] = ("official", "strict")

scalars = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=12)
scalars |= st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from(
    ["09:00", "25:00", "All", "User1"]
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a node below the root, in document order."""
    found: list[tuple[Any, ...]] = []
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        found.append((*path, key))
        found.extend(_paths(child, (*path, key)))
    return found


def _mutate(plan: Any, path: tuple[Any, ...], op: str, value: Any) -> Any:
    """Delete, retype (replace with `value`) or duplicate the node at `path`."""
    parent = plan
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if op == "delete":
        del parent[key]
    elif op == "retype":
        parent[key] = value
    elif isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    else:
        parent[f"{key}_copy"] = copy.deepcopy(parent[key])
    return plan


@st.composite
def mutated_plans(draw: st.DrawFn) -> Any:
    plan = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 4))):
        paths = _paths(plan)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        plan = _mutate(
            plan, path, draw(st.sampled_from(["delete", "retype", "duplicate"])), draw(json_values)
        )
    return plan


def _verdicts(plan: Any, effective: Any = None, inferred: Any = None) -> list[Verdict]:
    return [
        verify(TASK, plan, profile=p, poi_db=POI, world=WORLD, effective=effective, inferred=inferred)
        for p in PROFILES
    ]


def _check(plan: Any, **tables: Any) -> None:
    first = _verdicts(plan, **tables)
    again = _verdicts(copy.deepcopy(plan), **tables)
    for one, two in zip(first, again, strict=True):
        assert isinstance(one, Verdict)
        assert one.model_dump_json() == two.model_dump_json()
        assert Verdict.model_validate_json(one.model_dump_json()) == one
        assert one.valid == (not one.violations)


@settings(derandomize=True, max_examples=150, deadline=None)
@given(json_values)
def test_any_json_value_as_plan(plan: Any) -> None:
    _check(plan)


@settings(derandomize=True, max_examples=250, deadline=None)
@given(mutated_plans())
def test_mutated_plans(plan: Any) -> None:
    _check(plan)


@settings(derandomize=True, max_examples=100, deadline=None)
@given(st.dictionaries(st.sampled_from(["User1", "User2", "User9"]), json_values, max_size=3), json_values)
def test_random_preference_tables(effective: dict[str, Any], inferred: Any) -> None:
    _check(BASE, effective=effective, inferred=inferred)
