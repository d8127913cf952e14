"""Greedy constructive plan: a plan valid under the `strict` profile, built for the group's preferences.

`greedy_plan(task, world)` distributes the trip's nights over the task's cities in order
(balanced, earlier cities take the extra night; other splits are tried when one fails), then
searches the intercity legs in order (`solver.greedy_route`) and plans each city segment
greedily (`solver.greedy_day`). The whole group does everything together (`["All"]`), so no
split penalty arises; costs are the world's per-person prices in CNY. It is the oracle's warm
start and lower bound, and the constructive proof that a task has a strict-valid plan
(docs/solver.md#greedy-constructive-plan). Works through `WorldFacts` only.
"""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

from solver.errors import TaskInputError
from solver.greedy_city import CityFacts, Style
from solver.greedy_day import Act
from solver.greedy_prefs import group_prefs
from solver.greedy_route import MORNING, Block, Cursor, Leg, Router
from solver.greedy_score import plan_utility, world_poi_db
from verifier.model.plan import ALL, hhmm
from verifier.model.task import Task
from verifier.world_facts import WorldFacts

STYLES = (
    Style(),
    Style(cheap_legs=True),
    Style(cheap_legs=True, cheap_hotels=True, breakfast=False),
)
"""Variants tried in order while the best plan so far leaves someone over budget; the plan with
the highest official GU wins (ties: the earlier variant)."""


class GreedyError(TaskInputError):
    """The planner cannot plan this task: `field` names the task field (or "world"), `problem` why."""


def greedy_plan(task: Task, world: WorldFacts, *, effective: dict[str, Any] | None = None) -> dict[str, Any]:
    """A strict-valid GroupTravelBench plan for `task` in `world`, scored greedily against
    `effective` (default: the task's own preference table). Raises `GreedyError`."""
    days = task.trip_days()
    if days is None or days < 1:
        raise GreedyError("metadata.date", f"unreadable trip length {task.metadata.date!r}")
    start = task.departure_date()
    if start is None:
        raise GreedyError("time", f"not a date: {task.time!r}")
    home = _city(world, task.metadata.departure_city, "metadata.departure_city")
    cities = tuple(_city(world, name, "metadata.cities") for name in task.metadata.cities)
    if not cities:
        raise GreedyError("metadata.cities", "no city to visit")
    prefs = group_prefs(task, effective)
    facts = {city: CityFacts(world, city, prefs) for city in cities}
    table = task.preference_table() if effective is None else effective
    db = world_poi_db(world, cities)
    best: tuple[float, dict[str, Any]] | None = None
    for style in STYLES:
        for nights in allocations(days - 1, len(cities)):
            route = Router(world, home, cities, start, nights, prefs, facts, style).run()
            if route is not None:
                break
        else:
            raise GreedyError("world", f"no strict-valid route for {task.task_id} from {home} via {cities}")
        plan = plan_json(route, start, days)
        utility, over_budget = plan_utility(task, plan, table, db)
        if best is None or utility > best[0]:
            best = (utility, plan)
        if not over_budget:
            break
    assert best is not None
    return best[1]


def _city(world: WorldFacts, name: str, field: str) -> str:
    key = world.city(name)
    if key is None:
        raise GreedyError(field, f"the world knows no city {name!r}")
    return key


def allocations(nights: int, cities: int) -> list[tuple[int, ...]]:
    """Every split of the nights over the cities in order, most balanced first (fewest cities
    without a night, then smallest spread), earlier cities taking the extra nights."""
    splits = [split for split in itertools.product(range(nights + 1), repeat=cities) if sum(split) == nights]
    return sorted(splits, key=lambda s: (sum(n == 0 for n in s), max(s) - min(s), [-n for n in s]))


def plan_json(route: Cursor, start: dt.date, days: int) -> dict[str, Any]:
    """The route as GroupTravelBench plan JSON (`days → city_segments`)."""
    mornings = dict(route.mornings)
    out: list[dict[str, Any]] = []
    for index in range(days):
        segments: list[dict[str, Any]] = []
        for day, event in route.events:
            if day != index:
                continue
            if isinstance(event, Leg):
                segments.append(_leg_json(event))
            else:
                checkout = mornings.get(index + 1, MORNING)
                segments.append(_block_json(event, checkout))
        date = (start + dt.timedelta(days=index)).isoformat()
        out.append({"day": index + 1, "date": date, "city_segments": segments})
    return {"days": out}


def cny(fen: int) -> float | int:
    """Fen as the CNY number a plan writes: an int for whole yuan, else a float."""
    return fen // 100 if fen % 100 == 0 else fen / 100


def _leg_json(leg: Leg) -> dict[str, Any]:
    option = leg.option
    return {
        "type": "intercity_transport",
        "from_city": option.from_city,
        "to_city": option.to_city,
        "transport_mode": option.mode,
        "start_time": hhmm(leg.depart),
        "end_time": hhmm(leg.arrive),
        "avg_cost": cny(option.fare_fen),
    }


def _block_json(block: Block, checkout: int) -> dict[str, Any]:
    return {"city": block.city, "activities": [_act_json(act, checkout) for act in block.acts]}


def _act_json(act: Act, checkout: int) -> dict[str, Any]:
    end = checkout if act.kind == "hotel" else act.end
    out: dict[str, Any] = {"type": act.kind}
    if act.kind == "intracity_transport":
        out |= {"transport_mode": act.mode, "from": act.origin, "to": act.destination}
    else:
        out["location"] = act.location
    out |= {"start_time": hhmm(act.start), "end_time": hhmm(end), "participants": [ALL]}
    if act.kind != "rest":
        out["avg_cost"] = cny(act.cost_fen)
    return out
