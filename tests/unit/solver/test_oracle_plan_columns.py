"""A whole-group plan read as the column generation's first columns (`plan_columns.py`).

The greedy plan of each hand-made task must read as one column per stay, chained gate to gate,
and the integer master over those columns alone must find a pattern worth at least the plan's
official GU (the master's classes only relax the plan); a plan the facts cannot hold is refused
with the day and the reason.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest

from solver.greedy import greedy_plan
from solver.oracle.clock import Clock
from solver.oracle.colgen import ColumnGeneration
from solver.oracle.integer_master import pool_master
from solver.oracle.plan_columns import PlanColumnsError, plan_columns
from solver.oracle.pricing import Column
from solver.oracle.scores import official_categories
from tests.unit.solver.test_oracle_decomposition import EXPECTED, _generation
from tests.unit.solver.test_oracle_exhaustive import HAND_MADE, WORLD
from verifier.official.plan_view import build_view
from verifier.official.utility import evaluate_group_utility
from verifier.strict.profile import strict_violations


def _seeds(task_id: str) -> tuple[ColumnGeneration, dict[str, Any], list[Column]]:
    generation, _ = _generation(task_id, True)
    task = HAND_MADE[task_id]
    plan = greedy_plan(task, WORLD, effective=task.preference_table())
    everyone = tuple(range(len(generation.users)))
    columns = plan_columns(generation.facts, generation.cities, generation.users, plan, everyone)
    return generation, plan, columns


@pytest.mark.parametrize("task_id", sorted(EXPECTED))
def test_a_greedy_plan_reads_as_one_column_per_stay_chained_by_its_gates(task_id: str) -> None:
    generation, plan, columns = _seeds(task_id)
    stays = [
        (day["day"], segment["city"])
        for day in plan["days"]
        for segment in day["city_segments"]
        if segment.get("type") != "intercity_transport"
    ]
    assert len(columns) == len(stays)
    everyone = tuple(range(len(generation.users)))
    assert all(column.team == everyone for column in columns)
    for before, after in itertools.pairwise(columns):
        end, start = before.destination, after.origin
        assert end is not None and start is not None
        if end[0] == "hotel":
            assert start == end
        else:
            assert start[0] == "leg" and end[0] == "leg"


@pytest.mark.parametrize("task_id", sorted(EXPECTED))
def test_the_seeds_alone_make_a_pattern_worth_the_plan_at_least(task_id: str) -> None:
    generation, plan, columns = _seeds(task_id)
    task = HAND_MADE[task_id]
    assert strict_violations(task, plan, WORLD) == []
    db = official_categories(WORLD, generation.facts.cities)
    gu = evaluate_group_utility(build_view(plan, task.user_names), task.preference_table(), db)
    pattern = pool_master(generation.master_skeleton, columns, Clock(30), seconds=30, seed=0)[0]
    assert pattern is not None
    assert pattern.value >= int(gu["total_score"])
    assert pattern.value <= EXPECTED[task_id][0]


def test_a_plan_in_a_city_the_task_lacks_is_refused_with_its_day() -> None:
    generation, plan, _ = _seeds("agree")
    wrong = copy.deepcopy(plan)
    segment = next(s for s in wrong["days"][0]["city_segments"] if s.get("type") != "intercity_transport")
    segment["city"] = "Atlantis"
    everyone = tuple(range(len(generation.users)))
    with pytest.raises(PlanColumnsError) as caught:
        plan_columns(generation.facts, generation.cities, generation.users, wrong, everyone)
    index = wrong["days"][0]["city_segments"].index(segment)
    assert caught.value.field == f"days[0].city_segments[{index}].city"
    assert caught.value.problem == "'Atlantis' is not a task city"


def test_a_plan_sleeping_in_an_unknown_hotel_is_refused_with_its_night() -> None:
    generation, plan, _ = _seeds("agree")
    wrong = copy.deepcopy(plan)
    hotel = next(
        act
        for segment in wrong["days"][0]["city_segments"]
        for act in segment.get("activities", [])
        if act.get("type") == "hotel"
    )
    hotel["location"] = "Nowhere Inn"
    everyone = tuple(range(len(generation.users)))
    with pytest.raises(PlanColumnsError) as caught:
        plan_columns(generation.facts, generation.cities, generation.users, wrong, everyone)
    assert caught.value.field.startswith("days[0].city_segments[")
    assert caught.value.field.endswith("].location")
    assert caught.value.problem.startswith("hotel 'Nowhere Inn' (night 1) is in no hotel class of ")
