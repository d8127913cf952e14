"""Budget calibration report: exact shares, and no crash with too few budgets for quantiles."""

from __future__ import annotations

import copy
from typing import Any

from sandbox.world.build import build_world
from sandbox.world.calibration import report, task_cost
from tests.fixtures.hangzhou_task import TASK


def _with_budgets(*budgets: int) -> dict[str, Any]:
    task = copy.deepcopy(TASK)
    for user, budget in zip(task["user_preferences"].values(), budgets, strict=True):
        user["preference"]["global_constraints"]["avg_budget"] = budget
    return task


def test_report_counts_each_budgeted_traveller() -> None:
    task = _with_budgets(100_000, 1)
    world = build_world([task], seed=11)
    cost = task_cost(world, task)
    assert cost.budgets_fen == (10_000_000, 100)
    assert 100 < cost.cheapest_fen < cost.lavish_fen < 10_000_000
    lines = report(world, [task]).splitlines()
    assert lines[0] == "tasks: 1, travellers with a budget: 2"
    assert lines[4] == "| cheapest trip ≤ budget | 1 / 2 (50.0%) |"
    assert lines[5] == "| lavish trip > budget | 1 / 2 (50.0%) |"


def test_report_with_one_or_no_budget_does_not_crash() -> None:
    one = _with_budgets(0, 100_000)
    world = build_world([one], seed=11)
    ratio = task_cost(world, one).cheapest_fen / 10_000_000
    assert report(world, [one]).splitlines()[6] == (
        f"| cheapest / budget (min / p10 / median / p90 / max) | {' / '.join([f'{ratio:.2f}'] * 5)} |"
    )
    none = _with_budgets(0, 0)
    lines = report(build_world([none], seed=11), [none]).splitlines()
    assert lines[0] == "tasks: 1, travellers with a budget: 0"
    assert lines[4:8] == [
        "| cheapest trip ≤ budget | 0 / 0 (-) |",
        "| lavish trip > budget | 0 / 0 (-) |",
        "| cheapest / budget (min / p10 / median / p90 / max) | - |",
        "| lavish / budget (min / p10 / median / p90 / max) | - |",
    ]


def test_quantiles_stay_within_min_and_max() -> None:
    task = _with_budgets(100_000, 1)
    lines = report(build_world([task], seed=11), [task]).splitlines()
    for line in lines[6:8]:
        values = [float(x) for x in line.split("|")[2].split("/")]
        assert values == sorted(values) and len(values) == 5
