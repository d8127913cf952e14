"""The fixture world is a WorldFacts and both hand-built plans are valid under strict."""

from __future__ import annotations

import pytest

from tests.fixtures.strict_helpers import run
from tests.fixtures.strict_world import WORLD, load_plan
from verifier.world_facts import WorldFacts


def test_fixture_world_satisfies_world_facts() -> None:
    assert isinstance(WORLD, WorldFacts)


@pytest.mark.parametrize("name", ["plan_a", "plan_b"])
def test_fixture_plan_is_valid(name: str) -> None:
    assert run(load_plan(name), name) == []


def test_run_is_deterministic() -> None:
    plan = load_plan("plan_b")
    plan["days"][1]["city_segments"][0]["activities"][0]["start_time"] = "7:00"
    first = run(plan, "plan_b")
    assert first == run(plan, "plan_b")
    assert [v.model_dump_json() for v in first] == [v.model_dump_json() for v in run(plan, "plan_b")]
