"""Certify an oracle record's bound from its multipliers, without trusting the search.

A record's `extra["decomposition"]["multipliers"]` are the multipliers π of the decomposed
bound (`colgen.py`). For any π with π ≥ 0 on the ≤ rows, the Lagrangian function
(`master.lagrangian`) bounds the GU of every modelled plan. `certify_record` recomputes it
in exact rational arithmetic from π alone: the master's rows and skeleton variables are rebuilt
from the task and the world, and each block's best reduced cost is bounded by a solver
independent of the labelling search that priced — CP-SAT on the block's own model
(`pricing.BlockPricer`, its proven objective bound) — with every coefficient rounded up. The
record is certified when its `bound` is at least the recomputed value; otherwise the check
fails and says by how much
(docs/oracle.md#the-decomposed-bound-column-generation-over-day-blocks, Certified bounds).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from solver.oracle.blocks import trip_facts
from solver.oracle.catalog import CityCatalog
from solver.oracle.colgen import Group, block_ceilings, key_from_json, team_ceiling, teams_of
from solver.oracle.master import BUDGET_UNIT, lagrangian, skeleton
from solver.oracle.pricing import BlockPricer, RowKey
from solver.oracle.scores import ScoredUser, official_categories, scored_users
from solver.oracle.solve import city_catalogs, frame_facts
from verifier.model.task import Task
from verifier.world_facts import WorldFacts

CERTIFY_SECONDS = 10.0
"""Deterministic seconds CP-SAT may spend on one block and team."""


@dataclass(frozen=True)
class Certificate:
    """The outcome for one record: the bound it states, the value recomputed from its
    multipliers (None when nothing could be recomputed), and why it is not certified."""

    task_id: str
    stored: int | None
    recomputed: int | None
    problem: str | None = None

    @property
    def certified(self) -> bool:
        return self.problem is None

    def to_json(self) -> dict[str, Any]:
        return {
            "task_id": self.task_id,
            "certified": self.certified,
            "bound": self.stored,
            "recomputed": self.recomputed,
            "problem": self.problem,
        }


def certify_record(
    task: Task, world: WorldFacts, record: dict[str, Any], *, seconds: float = CERTIFY_SECONDS
) -> Certificate:
    """Recompute the bound of `record` (an oracle record of `task` in `world`, as JSON) from its
    multipliers and compare (see module)."""
    task_id = str(record.get("task_id", task.task_id))
    stored = record.get("bound")
    stored = stored if isinstance(stored, int) and not isinstance(stored, bool) else None
    extra = record.get("extra")
    run = extra.get("decomposition") if isinstance(extra, dict) else None
    problem = _unusable(record, run, stored)
    if problem is not None:
        return Certificate(task_id, stored, None, problem)
    assert isinstance(run, dict)
    duals = _multipliers(run["multipliers"])
    if isinstance(duals, str):
        return Certificate(task_id, stored, None, duals)
    splits = bool(record.get("splits", True))
    users = scored_users(task, task.preference_table())
    days, start, home, keys = frame_facts(task, world)
    cities = city_catalogs(task, world, keys, users, official_categories(world, keys))
    facts = trip_facts(days, start, home, cities)
    master = skeleton(facts, cities, users, splits=splits and len(users) > 1)
    if any(value < 0 and master.rows.sense.get(key) == "<=" for key, value in duals.items()):
        return Certificate(task_id, stored, None, "a multiplier of a ≤ row is negative")
    ceilings = _ceilings(facts.blocks, cities, users, duals, splits=splits, seconds=seconds)
    value = lagrangian(master, duals, block_ceilings(ceilings))
    if value is None:
        return Certificate(task_id, stored, None, "the task has no trip skeleton (no leg or hotel fits)")
    recomputed = math.floor(value)
    assert stored is not None
    if stored < recomputed:
        closing = run.get("closing")
        if isinstance(closing, dict) and closing.get("bound") == stored:
            problem = (
                f"stored bound {stored} rests on closing the gap (extra.decomposition.closing), which "
                f"certify does not recompute; the multipliers prove {recomputed}"
            )
            return Certificate(task_id, stored, recomputed, problem)
        return Certificate(
            task_id, stored, recomputed, f"stored bound {stored} is below the recomputed {recomputed}"
        )
    return Certificate(task_id, stored, recomputed)


def _unusable(record: dict[str, Any], run: object, stored: int | None) -> str | None:
    """Why a record cannot be certified at all (None: it can be tried)."""
    if stored is None:
        return "the record has no bound"
    if record.get("table", "original") != "original":
        return f"the record was solved against table {record.get('table')!r}; certify reads the task's own"
    if record.get("objective_kind", "gu") not in ("gu", "ceiling", "frontier"):
        return f"objective {record.get('objective_kind')!r} has no decomposed bound"
    if not isinstance(run, dict) or not isinstance(run.get("multipliers"), list):
        return "the record carries no multipliers (extra.decomposition.multipliers)"
    return None


def _multipliers(rows: list[Any]) -> dict[RowKey, Fraction] | str:
    """The multipliers by row key, or what is wrong with them."""
    out: dict[RowKey, Fraction] = {}
    for k, row in enumerate(rows):
        if not (
            isinstance(row, list) and len(row) == 2 and isinstance(row[0], list) and isinstance(row[1], str)
        ):
            return f'multipliers[{k}] is not [row key, "n/d"]'
        try:
            out[key_from_json(row[0])] = Fraction(row[1])
        except (ValueError, ZeroDivisionError):
            return f"multipliers[{k}] has no rational value: {row[1]!r}"
    return out


def _ceilings(
    blocks: dict[tuple[int, str], Any],
    cities: dict[str, CityCatalog],
    users: tuple[ScoredUser, ...],
    duals: dict[RowKey, Fraction],
    *,
    splits: bool,
    seconds: float,
) -> dict[Group, Fraction]:
    """Per (block, team), CP-SAT's proven bound on the best reduced cost (teams smaller than
    the group: the bound from single users, `colgen.team_ceiling`, or CP-SAT's where lower)."""

    def dual(key: RowKey) -> Fraction:
        return duals.get(key, Fraction(0))

    everyone = tuple(range(len(users)))
    splits = splits and len(users) > 1
    scale = tuple(BUDGET_UNIT for _ in users)
    out: dict[Group, Fraction] = {}
    for block, spec in blocks.items():
        pricer = BlockPricer(spec, cities[spec.city], users, scale, loose_allowed=len(cities) > 1)
        out[(block, everyone)] = pricer.price(everyone, dual, seconds=seconds).ceiling
        if not splits:
            continue
        singles = {u: pricer.price((u,), dual, seconds=seconds).ceiling for u in everyone}
        teams_dual = dual(("teams", *block))
        for team in teams_of(len(users), True):
            if team == everyone:
                continue
            if len(team) == 1:
                out[(block, team)] = singles[team[0]]
                continue
            estimate = team_ceiling(team, singles, teams_dual)
            if estimate > 0:
                estimate = min(estimate, pricer.price(team, dual, seconds=seconds).ceiling)
            out[(block, team)] = estimate
    return out
