"""What CP-SAT has proven (`solver/oracle/cpsat_bound.py`): a solve stopped before its search
began proves nothing, whatever bound it reports; and what the integer master finds when its
time is short."""

from __future__ import annotations

from ortools.sat.python import cp_model

from solver.oracle.clock import Clock
from solver.oracle.cpsat_bound import proven_bound
from solver.oracle.integer_master import pool_master
from tests.unit.solver.test_oracle_decomposition import _generation

OPTIMUM = 1395


def _knapsack() -> cp_model.CpModel:
    """200 items, weights 1–7, values 1–5, capacity 300, offset +1000 (optimum 1395)."""
    model = cp_model.CpModel()
    items = [model.new_bool_var(f"x{i}") for i in range(200)]
    model.add(sum((i % 7 + 1) * x for i, x in enumerate(items)) <= 300)
    model.maximize(sum((i % 5 + 1) * x for i, x in enumerate(items)) + 1000)
    return model


def _solve(model: cp_model.CpModel, seconds: float) -> tuple[cp_model.CpSolver, cp_model.CpSolverStatus]:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_deterministic_time = seconds
    return solver, solver.solve(model)


def test_a_solve_stopped_before_its_search_proves_no_bound() -> None:
    solver, status = _solve(_knapsack(), 0.0)
    assert status == cp_model.UNKNOWN
    assert solver.best_objective_bound == 0 < OPTIMUM  # what CP-SAT reports: no bound at all
    assert proven_bound(solver, status) is None


def test_a_finished_solve_proves_its_optimum() -> None:
    solver, status = _solve(_knapsack(), 10.0)
    assert status == cp_model.OPTIMAL
    assert proven_bound(solver, status) == OPTIMUM


def test_an_infeasible_model_proves_no_bound() -> None:
    model = cp_model.CpModel()
    x = model.new_int_var(0, 3, "x")
    model.add(x >= 5)
    model.maximize(x)
    solver, status = _solve(model, 10.0)
    assert status == cp_model.INFEASIBLE
    assert proven_bound(solver, status) is None


def test_a_pool_master_stopped_at_once_proves_nothing() -> None:
    """The integer master with no time reports no ceiling (before, the 0 CP-SAT reports was
    taken for one: closing the gap would have lowered the bound to the incumbent); with a
    little, its ceiling bounds the best pattern."""
    generation, _ = _generation("three_ways", True)
    skeleton, columns = generation.master_skeleton, generation.columns
    pattern, ceiling = pool_master(skeleton, columns, Clock(10), seconds=0.0, seed=0)
    assert pattern is None and ceiling is None
    best, ceiling = pool_master(skeleton, columns, Clock(10), seconds=5.0, seed=0)
    assert best is not None and ceiling == best.value == 27


def test_a_pool_master_started_from_its_first_columns_is_never_worse_than_them() -> None:
    """With next to no time the whole pool yields nothing, but solved first over a few of its
    columns (here the best pattern's), that solution hints the whole pool completely: the
    pattern is at least theirs."""
    generation, _ = _generation("three_ways", True)
    skeleton, columns = generation.master_skeleton, generation.columns
    best, _ = pool_master(skeleton, columns, Clock(10), seconds=5.0, seed=0)
    assert best is not None and best.value == 27
    plain, _ = pool_master(skeleton, columns, Clock(10), seconds=1e-3, seed=0)
    assert plain is None
    started, _ = pool_master(skeleton, columns, Clock(10), seconds=1e-3, seed=0, first=best.columns)
    assert started is not None and started.value >= best.value
