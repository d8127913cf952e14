"""Warm starts between models: a solved model's values hinted to another by variable name.

The primal models with one team and with several, and the relaxed model, are built by the same
code, so the skeleton, team, visit, arc and time variables they share carry the same names;
hinting by name passes a whole-group solution on as a starting point (CP-SAT repairs a hint
that does not fit).
"""

from __future__ import annotations

from dataclasses import dataclass

from ortools.sat.python import cp_model


@dataclass(frozen=True)
class Solved:
    """A model and the solver that found a solution of it."""

    model: cp_model.CpModel
    solver: cp_model.CpSolver


def hint_by_name(target: cp_model.CpModel, source: Solved) -> int:
    """Hint every named variable of `target` with the value of the same-named variable of the
    solved `source`; returns how many were hinted."""
    values = {
        variable.name: value
        for variable, value in zip(
            source.model.proto.variables, source.solver.response_proto.solution, strict=False
        )
        if variable.name
    }
    hinted = 0
    for index, variable in enumerate(target.proto.variables):
        value = values.get(variable.name)
        if value is None:
            continue
        target.add_hint(target.get_int_var_from_proto_index(index), value)
        hinted += 1
    return hinted
