"""Certificates that a hard wish cannot be met by any plan valid under `strict`, from world facts.

Each finder looks at a task in a world and returns a `Certificate` — the wish that no strict-valid
plan can satisfy, the facts that prove it, and the words a refusal must name — or None when the
world offers no such wish for the task. The proofs use only what `strict` enforces
(docs/checks.md): every plan leaves the departure city on day 1 and returns on the last day by a
timetabled departure (check 1), sleeps every night in a hotel of a task city (check 2), visits a
place only inside its opening windows (check 5, a window of the day before that runs past
midnight included) and declares every priced item at no less than `lowest_cost_fen` (check 8).

- `budget_certificate`: a per-person budget below the least any strict-valid plan spends — the
  cheapest day-1 departure to a task city + the cheapest last-day departure back + for each night
  the cheapest hotel night of any task city on that date (legs between cities and meals are left
  out, so the sum is a lower bound). The official budget score counts exactly these items.
- `closed_certificate`: a must-visit attraction of a task city with no opening window on any
  day of the trip.
- `no_service_certificate`: a required intercity mode with no departure from the departure city
  to any task city on day 1, so the first leg of every plan is another mode.

The oracle (`solver.oracle.solve.solve_task`) is no witness here: it optimises the preferences as
scores, so it answers such a table with a plan that loses the wish's points, never INFEASIBLE.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass
from typing import Any

from sandbox.world.world import World
from verifier.model.task import Task
from verifier.strict.costs import lowest_cost_fen

MODES = ("飞机", "高铁", "火车")
"""Modes a wish may require; self-drive (自驾) runs every day."""


@dataclass(frozen=True)
class Certificate:
    """A wish no strict-valid plan meets: whose, where in the preference (`field_path`, dotted from
    the preference root), the value that makes it so, the facts, and the words naming the reason."""

    kind: str
    user: str
    field_path: str
    value: Any
    facts: tuple[str, ...]
    cues: tuple[str, ...]

    def as_dict(self) -> dict[str, Any]:
        """The certificate as a task variant carries it (`metadata.unsolvable`)."""
        found = asdict(self)
        found["facts"], found["cues"] = list(self.facts), list(self.cues)
        return found


def trip_dates(task: Task) -> list[dt.date] | None:
    """The trip's dates (departure date, `metadata.date` days), or None when either is unreadable."""
    start, days = task.departure_date(), task.trip_days()
    if start is None or not days:
        return None
    return [start + dt.timedelta(days=k) for k in range(days)]


def spend_lower_bound(task: Task, world: World) -> tuple[int, list[str]] | None:
    """The least a traveller spends in any strict-valid plan (fen) and its facts, or None when the
    trip's dates are unreadable or a leg or a night has no option at all."""
    dates, origin = trip_dates(task), task.metadata.departure_city
    if dates is None or not task.metadata.cities:
        return None
    out = _cheapest_leg(world, origin, task.metadata.cities, dates[0], outbound=True)
    back = _cheapest_leg(world, origin, task.metadata.cities, dates[-1], outbound=False)
    if out is None or back is None:
        return None
    total, facts = out[0] + back[0], [out[1], back[1]]
    for night in dates[:-1]:
        hotel = _cheapest_night(world, task.metadata.cities, night)
        if hotel is None:
            return None
        total += hotel[0]
        facts.append(hotel[1])
    return total, facts


def budget_facts(bound: tuple[int, list[str]], budget: float) -> tuple[str, ...]:
    """The facts proving a budget below the bound."""
    total, facts = bound
    return (*facts, f"每人至少花费 {total / 100:.2f} 元（不含城市间中转与餐饮），高于预算 {budget:g} 元")


def budget_certificate(task: Task, world: World) -> Certificate | None:
    """A budget (whole hundreds of yuan, at most half the bound) below every strict-valid plan's spend."""
    bound = spend_lower_bound(task, world)
    if bound is None or not task.user_names:
        return None
    budget = bound[0] // 200 // 100 * 100
    if budget < 100:
        return None
    path = "global_constraints.avg_budget"
    return Certificate("budget", task.user_names[0], path, budget, budget_facts(bound, budget), ("预算",))


def closed_certificate(task: Task, world: World) -> Certificate | None:
    """A must-visit attraction closed on every day of the trip (best rated first, then stored order)."""
    dates = trip_dates(task)
    if dates is None or not task.user_names:
        return None
    for city in task.metadata.cities:
        pois = sorted(world.pois(city, "attraction"), key=lambda p: -p.rating)
        for poi in pois:
            if closed_throughout(world, city, poi.name, dates):
                facts = closed_facts(city, poi.name, dates)
                user = task.user_names[0]
                current = must_visit_list(task.preference_table().get(user), city)
                path = f"city_specific_preferences.{city}.attractions.must_visit"
                return Certificate("closed", user, path, [*current, poi.name], facts, (poi.name,))
    return None


def no_service_certificate(task: Task, world: World) -> Certificate | None:
    """A required mode (`MODES` order) without a day-1 departure from home to any task city."""
    dates, origin = trip_dates(task), task.metadata.departure_city
    if dates is None or not task.metadata.cities or not task.user_names:
        return None
    for mode in MODES:
        if not any(
            option.mode == mode
            for city in task.metadata.cities
            for option in world.intercity_options(origin, city, dates[0])
        ):
            cities = "、".join(task.metadata.cities)
            facts = (
                f"{dates[0].isoformat()} 没有从{origin}到{cities}的{mode}班次，第一天的出发段无法乘坐{mode}",
            )
            path = "global_constraints.transport.must"
            return Certificate("no_service", task.user_names[0], path, [mode], facts, (mode,))
    return None


def closed_throughout(world: World, city: str, name: str, dates: list[dt.date]) -> bool:
    """Whether a known place has no opening window on any of the dates."""
    return world.poi(city, name) is not None and all(
        world.opening_windows(city, name, d) == () for d in dates
    )


def closed_facts(city: str, name: str, dates: list[dt.date]) -> tuple[str, ...]:
    span = f"{dates[0].isoformat()} 至 {dates[-1].isoformat()}"
    return (f"{city}的{name}在 {span} 每天都不开放（开放时间无窗口）",)


def first_leg_modes(task: Task, world: World) -> set[str]:
    """The modes of every day-1 departure from the departure city to a task city."""
    dates = trip_dates(task)
    if dates is None:
        return set()
    origin = task.metadata.departure_city
    return {o.mode for city in task.metadata.cities for o in world.intercity_options(origin, city, dates[0])}


def no_service_facts(task: Task, mode: str) -> tuple[str, ...]:
    day = task.departure_date()
    when = day.isoformat() if day else "出发日"
    cities, origin = "、".join(task.metadata.cities), task.metadata.departure_city
    return (f"{when} 没有从{origin}到{cities}的{mode}班次，第一天的出发段无法乘坐{mode}",)


FINDERS = {"budget": budget_certificate, "closed": closed_certificate, "no_service": no_service_certificate}
"""Every certificate kind and its finder."""


def _cheapest_leg(
    world: World, origin: str, cities: list[str], date: dt.date, *, outbound: bool
) -> tuple[int, str] | None:
    best: tuple[int, str] | None = None
    for city in cities:
        ends = (origin, city) if outbound else (city, origin)
        for option in world.intercity_options(*ends, date):
            fen = lowest_cost_fen(option.fare_fen)
            if best is None or fen < best[0]:
                fact = (
                    f"{date.isoformat()} {ends[0]}→{ends[1]} 最便宜的班次是{option.mode} {option.code}，"
                    f"每人 {fen / 100:.2f} 元"
                )
                best = (fen, fact)
    return best


def _cheapest_night(world: World, cities: list[str], night: dt.date) -> tuple[int, str] | None:
    best: tuple[int, str] | None = None
    for city in cities:
        for hotel in world.pois(city, "hotel"):
            price = world.price_fen_on(city, hotel.name, night)
            if price is None:
                continue
            fen = lowest_cost_fen(price)
            if best is None or fen < best[0]:
                best = (
                    fen,
                    f"{night.isoformat()} 当晚最便宜的酒店是{city}的{hotel.name}，每人 {fen / 100:.2f} 元",
                )
    return best


def must_visit_list(slot: Any, city: str) -> list[str]:
    """A user slot's (or preference's) must-visit list for `city` (empty when absent)."""
    preference = slot.get("preference", slot) if isinstance(slot, dict) else {}
    found = (
        preference.get("city_specific_preferences", {}).get(city, {}).get("attractions", {}).get("must_visit")
    )
    return [item for item in found if isinstance(item, str)] if isinstance(found, list) else []


def declares_unsolvable(task: Task) -> bool:
    """Whether the task is a derived unsolvable variant (`metadata.unsolvable`, or an intent
    shift that carries one: `runner.tasks.variants`). GroupTravelBench's own tasks treat every
    wish as a preference to score, never as a condition for planning, so agents check wishes
    against the world only on these (docs/runner.md, "Unsolvable tasks, certified")."""
    extra = task.metadata.model_extra or {}
    shift = extra.get("intent_shift")
    return "unsolvable" in extra or (isinstance(shift, dict) and "unsolvable" in shift)


def check_table(task: Task, world: World, table: dict[str, Any]) -> Certificate | None:
    """The first wish of a preference table (② or ③ shape) that no strict-valid plan meets:
    a budget below `spend_lower_bound`, a required mode with no day-1 service (`first_leg_modes`;
    a must list none of whose modes runs), a must-visit place closed on every trip day."""
    dates = trip_dates(task)
    if dates is None:
        return None
    bound: tuple[int, list[str]] | None = None
    served: set[str] | None = None
    for user, slot in table.items():
        preference = slot.get("preference", slot) if isinstance(slot, dict) else {}
        rules = preference.get("global_constraints", {}) if isinstance(preference, dict) else {}
        budget = rules.get("avg_budget") if isinstance(rules, dict) else None
        if isinstance(budget, int | float) and not isinstance(budget, bool) and budget > 0:
            bound = bound or spend_lower_bound(task, world)
            if bound is not None and bound[0] > budget * 100:
                facts = budget_facts(bound, budget)
                return Certificate("budget", user, "global_constraints.avg_budget", budget, facts, ("预算",))
        transport = rules.get("transport", {}) if isinstance(rules, dict) else {}
        must = [m for m in transport.get("must", []) if m in MODES] if isinstance(transport, dict) else []
        served = first_leg_modes(task, world) if served is None else served
        if must and not set(must) & served:
            path = "global_constraints.transport.must"
            return Certificate("no_service", user, path, must, no_service_facts(task, must[0]), tuple(must))
        for city in task.metadata.cities:
            for name in must_visit_list(preference, city):
                if closed_throughout(world, city, name, dates):
                    path = f"city_specific_preferences.{city}.attractions.must_visit"
                    facts = closed_facts(city, name, dates)
                    return Certificate(
                        "closed", user, path, must_visit_list(preference, city), facts, (name,)
                    )
    return None


REFUSAL_LEAD = "抱歉，这个行程无法实现，因为："


def refusal_message(certificate: Certificate) -> str:
    """What an agent says instead of a plan: the lead, then the certificate's facts."""
    return REFUSAL_LEAD + "；".join(certificate.facts) + "。"
