"""The solver: plans for a task in a world — the greedy planner, and the CP-SAT oracle with a
proven bound on group utility.

`greedy_plan(task, world)` → a strict-valid plan; `solve_task(task, world, settings)` →
`OracleResult` (plan, objective, bound, status). The names below are imported on first use (the
oracle loads OR-Tools); docs/api.md lists them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import verifier.faces

if TYPE_CHECKING:
    from solver.errors import TaskInputError
    from solver.greedy import GreedyError, greedy_plan
    from solver.oracle.certify import Certificate, certify_record
    from solver.oracle.result import OracleResult, Status
    from solver.oracle.solve import OracleInputError, OracleSettings, solve_task
    from solver.oracle.splitting import SplittingRecordsError, SplittingValue, splitting_value

_HOMES = {
    "Certificate": "solver.oracle.certify",
    "GreedyError": "solver.greedy",
    "OracleInputError": "solver.oracle.solve",
    "OracleResult": "solver.oracle.result",
    "OracleSettings": "solver.oracle.solve",
    "SplittingRecordsError": "solver.oracle.splitting",
    "SplittingValue": "solver.oracle.splitting",
    "Status": "solver.oracle.result",
    "TaskInputError": "solver.errors",
    "certify_record": "solver.oracle.certify",
    "greedy_plan": "solver.greedy",
    "solve_task": "solver.oracle.solve",
    "splitting_value": "solver.oracle.splitting",
}
"""Each public name and the module it lives in."""

__all__ = [
    "Certificate",
    "GreedyError",
    "OracleInputError",
    "OracleResult",
    "OracleSettings",
    "SplittingRecordsError",
    "SplittingValue",
    "Status",
    "TaskInputError",
    "certify_record",
    "greedy_plan",
    "solve_task",
    "splitting_value",
]


__getattr__ = verifier.faces.lazy_names(__name__, _HOMES)
