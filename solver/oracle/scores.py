"""The scored users of a preference table and the official category of every place.

The oracle's objective is the official group utility (`verifier/official/utility*.py`), so a
place is scored with the category the official POI resolver gives its exact name in the
world's POI file (`PoiDb.category`), never with a category of our own. Per-user rules come
from `solver.greedy_prefs.UserPrefs` (one place for the solver's reading of a table); the
intensity and budget thresholds reproduce the official float comparisons exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.greedy_prefs import UserPrefs, user_prefs
from solver.greedy_score import world_poi_db
from solver.oracle.ceiling import is_compromisable
from verifier.model.task import Task
from verifier.official.poi_db import PoiDb
from verifier.world_facts import WorldFacts


@dataclass(frozen=True)
class ScoredUser:
    """One user the official GU scores: name, table, and the largest daily attraction count,
    active minutes and trip spend in fen that cost no penalty (None: no such cap); `waivable`
    when the objective may waive up to two of the user's fields (a compromisable user under
    the ceiling objective, `solver.oracle.ceiling`)."""

    name: str
    prefs: UserPrefs
    max_pois: int | None
    max_minutes: int | None
    max_spend_fen: int | None
    waivable: bool = False

    def intensity_penalty(self, attractions: int, active: int) -> int:
        """What a day of `attractions` attractions and `active` active minutes (travel within
        cities and attraction visits) costs the user: −2 for each intensity cap it breaks
        (docs/official.md#scoring), returned as a positive charge."""
        return 2 * (_over(attractions, self.max_pois) + _over(active, self.max_minutes))


def scored_users(task: Task, table: dict[str, Any], *, waivers: bool = False) -> tuple[ScoredUser, ...]:
    """The task's users that official GU scores (an entry with `preference` or
    `global_constraints`), in `user_names` order; with `waivers`, the compromisable ones are
    `waivable`."""
    users: list[ScoredUser] = []
    for name in task.user_names:
        entry = table.get(name) if isinstance(table, dict) else None
        if not isinstance(entry, dict) or ("preference" not in entry and "global_constraints" not in entry):
            continue
        raw = entry.get("preference", entry)
        prefs = user_prefs(raw)
        intensity = _section(raw, "global_constraints", "intensity")
        budget = _section(raw, "global_constraints").get("avg_budget")
        users.append(
            ScoredUser(
                name,
                prefs,
                _cap(intensity.get("max_poi_per_day"), 1),
                _cap(intensity.get("max_active_hours"), 60),
                _spend_cap(budget),
                waivers and is_compromisable(entry),
            )
        )
    return tuple(users)


def _section(value: Any, *keys: str) -> dict[str, Any]:
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value if isinstance(value, dict) else {}


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _cap(value: Any, unit: int) -> int | None:
    """The largest whole `x` (count, or minutes when `unit` is 60) with `x / unit > cap` false,
    for a positive cap; None when the cap is missing or not positive (official: no check)."""
    cap = _number(value)
    if cap is None or cap <= 0:
        return None
    guess = int(cap * unit)
    while guess / unit > cap:
        guess -= 1
    while (guess + 1) / unit <= cap:
        guess += 1
    return guess


def _spend_cap(value: Any) -> int | None:
    """The largest spend in fen that is not over `avg_budget` (None: no budget check).

    Plans the oracle writes carry prices of whole fen, so a total of `f` fen is judged over
    budget exactly when `f / 100 > avg_budget`."""
    budget = _number(value)
    if budget is None or budget == 0:
        return None
    guess = int(budget * 100)
    while guess / 100 > budget:
        guess -= 1
    while (guess + 1) / 100 <= budget:
        guess += 1
    return guess


def official_categories(world: WorldFacts, cities: tuple[str, ...]) -> PoiDb:
    """The official POI index of the world's places of these cities."""
    return world_poi_db(world, cities)


def _over(amount: int, cap: int | None) -> int:
    """1 when `amount` breaks `cap` (None: no cap)."""
    return int(cap is not None and amount > cap)
