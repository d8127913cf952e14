"""Deterministic large-neighbourhood search over days: re-solve a window of days, keep the rest.

A trip model's variables carry the day they belong to in their names (`skeleton.py`,
`model.py`). Starting from a complete solution, each step frees every variable of a window of
consecutive days, fixes the variables of all other days to their current values, and re-solves
for a bounded deterministic time (one CP-SAT worker unless asked otherwise), starting from the
current solution. The search's own limit is in deterministic seconds too (`clock.Clock`). A
better solution is kept (after `settle`, when given: a repair that only raises the objective,
such as setting the ceiling's waivers to their best for the plan).
Windows of one and two days are tried in order, repeatedly, until a pass brings nothing or the
time is spent. With one worker, deterministic limits make the whole search reproducible for a
seed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ortools.sat.python import cp_model

from solver.oracle.clock import Clock

DAY_NAME = re.compile(r"^(?:d|B|N|H|hub|need|T\d+d|x\d+d|dep\d+d|P\d+d|over(?:poi|min)\d+d)(\d+)")
"""The day in a variable's name (block, skeleton, hotel, meal and intensity variables)."""


LOAD_SECONDS_PER_ELEMENT = 20e-6
"""What one window re-solve costs beyond CP-SAT's deterministic time, per variable and
constraint of the model: loading the model into the solver, which its deterministic clock leaves
out (measured 5–25 µs on task_004329's 44,000-element model: 2.2 CPU s for 1.25 deterministic
s a window). Charged so that the search's limit tracks CPU time and stays deterministic."""


def day_of(name: str) -> int | None:
    """The day a variable belongs to, None for trip-wide ones (must_visit items, budgets)."""
    found = DAY_NAME.match(name)
    return int(found.group(1)) if found else None


def improve(
    model: cp_model.CpModel,
    solution: Sequence[int],
    days: int,
    *,
    clock: Clock,
    step: float,
    seed: int,
    workers: int = 1,
    settle: Callable[[Sequence[int]], list[int]] | None = None,
    account: Clock | None = None,
) -> tuple[list[int], float]:
    """The best solution found from `solution` (its objective too) until `clock` is spent, each
    window solve limited to `step` deterministic seconds and charged to `clock` (and to
    `account`, the task's clock, when given); every solution passes through `settle` first
    when given."""
    proto = model.proto
    by_day = [day_of(variable.name) for variable in proto.variables]
    repair = settle or list
    current = repair(solution)
    value = _objective(model, current)
    windows = [(d, d) for d in range(1, days + 1)] + [(d, d + 1) for d in range(1, days)]
    clocks = [clock] if account is None else [clock, account]
    improved = True
    while improved and not clock.spent():
        improved = False
        for first, last in windows:
            if clock.spent():
                break
            found, spent = _window(
                model,
                current,
                by_day,
                (first, last),
                step=min(step, clock.left()),
                seed=seed,
                workers=workers,
            )
            for charged in clocks:
                charged.add(spent)
            found = None if found is None else repair(found)
            if found is not None and _objective(model, found) > value:
                current, value, improved = found, _objective(model, found), True
    return current, value


def _window(
    model: cp_model.CpModel,
    current: list[int],
    by_day: list[int | None],
    window: tuple[int, int],
    *,
    step: float,
    seed: int,
    workers: int,
) -> tuple[list[int] | None, float]:
    """The best solution of one window's re-solve (None: none found) and its deterministic
    seconds."""
    first, last = window
    local = model.clone()
    local.clear_hints()  # type: ignore[no-untyped-call]
    for index, day in enumerate(by_day):
        variable = local.get_int_var_from_proto_index(index)
        if day is not None and not first <= day <= last:
            local.add(variable == current[index])
        local.add_hint(variable, current[index])
    solver = cp_model.CpSolver()
    parameters = solver.parameters
    parameters.num_workers = workers
    parameters.random_seed = seed
    parameters.max_deterministic_time = step
    parameters.cp_model_presolve = False
    status = solver.solve(local)
    size = len(local.proto.variables) + len(local.proto.constraints)
    spent = solver.response_proto.deterministic_time + LOAD_SECONDS_PER_ELEMENT * size
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, spent
    return list(solver.response_proto.solution), spent


def _objective(model: cp_model.CpModel, solution: Sequence[int]) -> float:
    """The objective of `model` at a full assignment."""
    objective = model.proto.objective
    total = objective.offset
    for ref, coefficient in zip(objective.vars, objective.coeffs, strict=True):
        total += coefficient * (solution[ref] if ref >= 0 else 1 - solution[-ref - 1])
    return (objective.scaling_factor or 1) * total


class Assignment:
    """A full solution read like a solver: `value` and `boolean_value` of model variables."""

    def __init__(self, solution: Sequence[int]) -> None:
        self.solution = solution

    def value(self, variable: cp_model.IntVar) -> int:
        return int(self.solution[variable.index])

    def boolean_value(self, literal: cp_model.IntVar) -> bool:
        index = literal.index
        return bool(self.solution[index]) if index >= 0 else not self.solution[-index - 1]
