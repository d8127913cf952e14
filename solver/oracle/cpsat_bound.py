"""What CP-SAT has proven about an objective: one place reads `best_objective_bound`.

A solve stopped by its time limit before its search began (still presolving) reports UNKNOWN
with a bound of 0 that bounds nothing: measured on task_004556's integer master at 1
deterministic second, bound 0 for an optimum of 85 (at 2 seconds: OPTIMAL, 85). Such a bound
must never be taken for a proof.
"""

from __future__ import annotations

import math

from ortools.sat.python import cp_model


def proven_bound(solver: cp_model.CpSolver, status: cp_model.CpSolverStatus) -> float | None:
    """CP-SAT's proven bound on the objective after `solver` returned `status`: None when it
    proved none — infeasible, invalid, stopped before its search loaded any variable, or an
    infinite bound."""
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.UNKNOWN):
        return None
    response = solver.response_proto
    if status == cp_model.UNKNOWN and response.num_booleans == 0 and response.num_integers == 0:
        return None
    bound = solver.best_objective_bound
    return bound if math.isfinite(bound) else None
