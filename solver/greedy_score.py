"""The official group utility of a greedy plan, scored against the world's own categories.

The planner compares its variants by the exact official GU (`verifier.official.utility`), with
a POI index built from the world's places of the task's cities — the same entries the world's
official POI export holds (name, category, kind; each alias as an entry of its own).
"""

from __future__ import annotations

from typing import Any

from verifier.model.task import Task
from verifier.official.plan_view import build_view
from verifier.official.poi_db import PoiDb
from verifier.official.utility import evaluate_group_utility
from verifier.world_facts import PoiKind, WorldFacts

POI_TYPES = {PoiKind.ATTRACTION: "attractions", PoiKind.RESTAURANT: "food", PoiKind.HOTEL: "hotels"}


def world_poi_db(world: WorldFacts, cities: tuple[str, ...]) -> PoiDb:
    """The official POI index of these cities of the world (names, categories, kinds)."""
    return PoiDb(
        {
            city: [
                {"name": name, "custom_category": poi.category, "poi_type": POI_TYPES[PoiKind(poi.kind)]}
                for poi in world.pois(city)
                for name in (poi.name, *poi.aliases)
            ]
            for city in cities
        }
    )


def plan_utility(task: Task, plan: dict[str, Any], table: dict[str, Any], db: PoiDb) -> tuple[float, bool]:
    """(official GU total, True when some user is over budget) of a plan."""
    result = evaluate_group_utility(build_view(plan, task.user_names), table, db)
    over = any(
        detail["field"] == "avg_budget" for user in result["per_user"].values() for detail in user["details"]
    )
    return float(result["total_score"]), over
