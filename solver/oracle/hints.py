"""Warm starts between models: a solved model's values hinted to another by variable name.

The primal models with one team and with several, and the relaxed model, are built by the same
code, so the skeleton, team, visit, arc and time variables they share carry the same names;
hinting by name passes a whole-group solution on as a starting point (CP-SAT repairs a hint
that does not fit). A plan (the greedy one) is read back into the variables of a model of the
same city order (`hint_from_plan`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from solver.oracle.clock import Clock
from solver.oracle.model import TripModel, activity_node
from verifier.model.plan import minutes


@dataclass(frozen=True)
class Solved:
    """A model and a full solution of it."""

    model: cp_model.CpModel
    solution: list[int]


def hint_by_name(target: cp_model.CpModel, source: Solved) -> int:
    """Hint every named variable of `target` with the value of the same-named variable of the
    solved `source`; returns how many were hinted."""
    values = {
        variable.name: value
        for variable, value in zip(source.model.proto.variables, source.solution, strict=True)
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


def hint_from_plan(trip: TripModel, plan: dict[str, Any]) -> bool:
    """Hint `trip` with a whole-group plan of the same city order (the greedy warm start): its
    transition days and legs, hotels, and every team-0 route with its stops and times. Returns
    False (hinting nothing) when the plan's city order is not the model's."""
    frame, skeleton, model = trip.frame, trip.skeleton, trip.model
    labels = {trip.place_sets[key].city.label: stage for stage, key in enumerate(frame.stops[1:-1], start=1)}
    hints: dict[int, int] = {}
    transition = 0
    for day_index, day in enumerate(plan["days"], start=1):
        for segment in day["city_segments"]:
            if segment.get("type") == "intercity_transport":
                for leg, literal, depart in skeleton.legs.get((transition, day_index), []):
                    start = minutes(segment["start_time"])
                    if leg.option.mode == segment["transport_mode"] and leg.depart <= start <= leg.latest:
                        hints[literal.index] = 1
                        hints[depart.index] = start
                        break
                hints[skeleton.on_day[(transition, day_index)].index] = 1
                transition += 1
                continue
            stage = labels.get(segment.get("city", ""))
            if stage is None:
                return False
            _block_hints(trip, day_index, stage, segment["activities"], hints)
    for index, value in hints.items():
        model.add_hint(model.get_int_var_from_proto_index(index), value)
    return True


def _block_hints(
    trip: TripModel, day: int, stage: int, activities: list[dict[str, Any]], hints: dict[int, int]
) -> None:
    """Team 0 follows the block's attractions and meals; the night's hotel is the one named."""
    block = trip.blocks.get((day, stage))
    if block is None:
        return
    for u in range(trip.users):
        hints[block.teams.member[0][u].index] = 1
    route = block.routes[0]
    sequence: list[int] = []
    for activity in activities:
        kind = activity.get("type")
        if kind == "hotel":
            for place, literal in trip.skeleton.hotels.get((day, stage), []):
                if activity.get("location") in place.members:
                    hints[literal.index] = 1
            continue
        if kind not in ("attraction", "food"):
            continue
        start = minutes(activity["start_time"])
        node = activity_node(block.nodes, activity["location"], kind, start)
        if node is None:
            continue
        sequence.append(node)
        hints[route.visit[node].index] = 1
        hints[route.start[node].index] = start
    path = [0, *(i + 1 for i in sequence), 0]
    for tail, head in itertools.pairwise(path):
        arc = route.arcs.get((tail, head))
        if arc is not None:
            hints[arc.index] = 1
    if not sequence:
        hints[route.empty.index] = 1


def completion(model: cp_model.CpModel, seconds: float, seed: int, clock: Clock) -> list[int] | None:
    """A full solution that extends the model's hint (solved with the hinted variables fixed,
    one worker, deterministic limit, charged to `clock`), or None when the hint has no
    completion."""
    if not model.proto.solution_hint.vars:
        return None
    solver = cp_model.CpSolver()
    solver.parameters.fix_variables_to_their_hinted_value = True
    solver.parameters.max_deterministic_time = seconds
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    status = solver.solve(model)
    clock.charge(solver)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    return list(solver.response_proto.solution)
