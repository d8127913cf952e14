"""The strict profile: the nine plan-validity checks as they are meant, grounded in `WorldFacts`.

`strict_violations` parses the raw plan leniently (input violations first), places it on the
absolute clock, then runs checks 1–9 in order; each check reports in plan order, so the
result is deterministic. Every rule, its code and an example are in `docs/checks.md`.
"""

from __future__ import annotations

from collections.abc import Callable

from verifier.model.plan_parse import parse_plan
from verifier.model.task import Task
from verifier.model.verdict import Violation
from verifier.strict.connections import connection_violations
from verifier.strict.costs import cost_violations
from verifier.strict.hotels import hotel_violations
from verifier.strict.legs import itinerary_violations
from verifier.strict.meals import meal_violations
from verifier.strict.order import order_violations
from verifier.strict.overlap import overlap_violations
from verifier.strict.participants import participant_violations
from verifier.strict.places import place_violations
from verifier.strict.splits import split_violations
from verifier.strict.table import strict_table_violations
from verifier.strict.times import time_violations
from verifier.strict.transfers import transfer_violations
from verifier.strict.trip import Trip, build_trip
from verifier.strict.whereabouts import whereabouts_violations
from verifier.world_facts import WorldFacts

__all__ = ["CHECKS", "strict_table_violations", "strict_violations"]

CHECKS: tuple[Callable[[Trip], list[Violation]], ...] = (
    itinerary_violations,
    hotel_violations,
    time_violations,
    overlap_violations,
    place_violations,
    meal_violations,
    transfer_violations,
    connection_violations,
    order_violations,
    cost_violations,
    participant_violations,
    whereabouts_violations,
    split_violations,
)
"""The rules in report order (check 1, 2, 3, 4, 5 places, 5 meals, 6 transfers, 6 connections, 7, 8, 9 names,
9 whereabouts, 9 splits)."""


def strict_violations(task: Task, raw_plan: object, world: WorldFacts) -> list[Violation]:
    """Every strict violation of a raw plan (any JSON value) for a task in a world."""
    parsed = parse_plan(raw_plan)
    trip = build_trip(task, parsed, world)
    out = list(parsed.violations)
    for check in CHECKS:
        out += check(trip)
    return out
