"""Does the world make task budgets bind? Cheapest and lavish trip cost per traveller vs budget.

The cost counted is what the official budget check counts (docs/official.md#scoring, budget): every intercity
leg, every hotel night and every meal, per person. The route is the task's: departure city →
destinations in order → departure city; nights split as evenly as possible, earlier cities
taking the extra; each leg on its day, each hotel night on its date (holiday prices included).
Cheapest = the cheapest option of each leg, the cheapest hotel each night and two meals a day
at the city's 25th-percentile restaurant price. Lavish = the dearest option of each leg, the
dearest hotel and three meals a day at the 90th percentile.
"""

from __future__ import annotations

import datetime as dt
import statistics
from dataclasses import dataclass
from typing import Any

from sandbox.world.errors import WorldError
from sandbox.world.world import World

_NUMERALS = {
    "一": 1,
    "两": 2,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
    "十": 10,
}


@dataclass(frozen=True, slots=True)
class TaskCost:
    """Per-person cost (fen) of the cheapest and a lavish trip, and the users' budgets (fen)."""

    task_id: str
    cheapest_fen: int
    lavish_fen: int
    budgets_fen: tuple[int, ...]


def trip_days(task: dict[str, Any]) -> int:
    """Days of a task from `metadata.date` ("五天四夜" → 5)."""
    text = str(task["metadata"].get("date", ""))
    if not text or text[0] not in _NUMERALS:
        raise WorldError("metadata.date", f"cannot read a day count from {text!r}")
    return _NUMERALS[text[0]]


def itinerary(task: dict[str, Any]) -> tuple[list[tuple[str, str, int]], list[str]]:
    """Legs (from, to, day index) and the city of each night."""
    dests = list(task["metadata"]["cities"])
    days = trip_days(task)
    nights = days - 1
    share = [nights // len(dests) + (1 if i < nights % len(dests) else 0) for i in range(len(dests))]
    stops = [task["metadata"]["departure_city"], *dests, task["metadata"]["departure_city"]]
    legs, night_cities, day = [], [], 0
    for i in range(len(stops) - 1):
        legs.append((stops[i], stops[i + 1], min(day, days - 1)))
        if i < len(dests):
            night_cities += [dests[i]] * share[i]
            day += share[i]
    return legs, night_cities


def _pct(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def task_cost(world: World, task: dict[str, Any]) -> TaskCost:
    """Cheapest and lavish per-person cost of one task in the world."""
    start = dt.date.fromisoformat(task["time"])
    legs, nights = itinerary(task)
    cheap = lavish = 0
    for a, b, day in legs:
        fares = [o.fare_fen for o in world.intercity_options(a, b, start + dt.timedelta(days=day))]
        if not fares:
            raise WorldError(f"{task['task_id']}:{a}->{b}", "no intercity option on the leg's day")
        cheap, lavish = cheap + min(fares), lavish + max(fares)
    for night, city in enumerate(nights):
        date = start + dt.timedelta(days=night)
        prices = [world.price_fen_on(city, p.name, date) or 0 for p in world.pois(city, "hotel")]
        cheap, lavish = cheap + min(prices), lavish + max(prices)
    days = trip_days(task)
    day_cities = [*nights, task["metadata"]["cities"][-1]][:days]
    for city in day_cities:
        meals = [p.price_fen for p in world.pois(city, "restaurant")]
        cheap, lavish = cheap + 2 * _pct(meals, 0.25), lavish + 3 * _pct(meals, 0.9)
    budgets = tuple(
        round(float(u["preference"]["global_constraints"].get("avg_budget") or 0) * 100)
        for u in task["user_preferences"].values()
    )
    return TaskCost(task["task_id"], cheap, lavish, budgets)


def report(world: World, tasks: list[dict[str, Any]]) -> str:
    """A Markdown summary of cost vs budget over travellers with a budget."""
    costs = [task_cost(world, t) for t in tasks]
    pairs = [(c, b) for c in costs for b in c.budgets_fen if b > 0]
    fits = sum(c.cheapest_fen <= b for c, b in pairs)
    binds = sum(c.lavish_fen > b for c, b in pairs)
    cheap_ratio = [c.cheapest_fen / b for c, b in pairs]
    lavish_ratio = [c.lavish_fen / b for c, b in pairs]

    def q(xs: list[float]) -> str:
        if len(xs) < 2:
            return " / ".join(f"{x:.2f}" for x in xs * 5) or "-"
        qs = statistics.quantiles(xs, n=20, method="inclusive")
        return f"{min(xs):.2f} / {qs[1]:.2f} / {statistics.median(xs):.2f} / {qs[17]:.2f} / {max(xs):.2f}"

    def share(count: int, n: int) -> str:
        return f"{count} / {n} ({count / n:.1%})" if n else "0 / 0 (-)"

    n = len(pairs)
    return "\n".join(
        [
            f"tasks: {len(costs)}, travellers with a budget: {n}",
            "",
            "| measure | value |",
            "|---|---|",
            f"| cheapest trip ≤ budget | {share(fits, n)} |",
            f"| lavish trip > budget | {share(binds, n)} |",
            f"| cheapest / budget (min / p10 / median / p90 / max) | {q(cheap_ratio)} |",
            f"| lavish / budget (min / p10 / median / p90 / max) | {q(lavish_ratio)} |",
        ]
    )
