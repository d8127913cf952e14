"""Task variants: unsolvable from the start, turning unsolvable mid-dialogue, and intent shifts.

A variant is the task's JSON with a new `task_id` and one wish changed or scheduled to change:

- `unsolvable_variant` (`<id>~<kind>`): the certificate's wish is in the user's table from the
  start; `metadata.unsolvable` holds the certificate (`runner.tasks.certificates`). The opening
  messages are unchanged: the user states the wish when asked or volunteers it.
- `transition_variant` (`<id>~<kind>@<event>`): the table starts as the task's own; the episode
  sets the wish at event `at_event` (`runner.episode.shifts`), so a feasible task becomes
  unsolvable mid-dialogue; `metadata.intent_shift` holds the change and the certificate.
- `shift_variant` (`<id>~shift@<event>`): a feasible change of mind at event `at_event` — the first
  user's must-visit list of the first city gets its first place replaced by (or, when empty,
  becomes) the best-rated attraction of that city that opens on some trip day and that no user
  lists — held in `metadata.intent_shift`.

Events count every speaking event of the episode (docs/runner.md): rounds are too coarse for
this, as a small group's whole interview fits in round 0.
"""

from __future__ import annotations

import copy
from typing import Any

from runner.episode.shifts import with_wish
from runner.tasks.certificates import FINDERS, Certificate, must_visit_list, trip_dates
from sandbox.world.world import World
from verifier.model.task import Task

DEFAULT_AT_EVENT = 3


def raw_task(task: Task) -> dict[str, Any]:
    """The task as JSON, preferences exactly as loaded."""
    raw = task.model_dump(mode="json")
    raw["user_preferences"] = copy.deepcopy(task.preference_table())
    return raw


def unsolvable_variant(task: Task, certificate: Certificate) -> dict[str, Any]:
    """The task with the certificate's wish in the user's table from the start."""
    raw = raw_task(task)
    raw["task_id"] = f"{task.task_id}~{certificate.kind}"
    slot = raw["user_preferences"][certificate.user]
    with_wish(slot.setdefault("preference", {}), certificate.field_path, certificate.value)
    raw["metadata"]["unsolvable"] = certificate.as_dict()
    return raw


def transition_variant(task: Task, certificate: Certificate, at_event: int) -> dict[str, Any]:
    """The task whose user adopts the certificate's wish at event `at_event`."""
    raw = raw_task(task)
    raw["task_id"] = f"{task.task_id}~{certificate.kind}@{at_event}"
    raw["metadata"]["intent_shift"] = {
        "user": certificate.user,
        "field_path": certificate.field_path,
        "value": certificate.value,
        "at_event": at_event,
        "unsolvable": certificate.as_dict(),
    }
    return raw


def shift_variant(task: Task, world: World, at_event: int) -> dict[str, Any] | None:
    """The task whose first user changes a must-visit at event `at_event` (None when no place fits)."""
    dates = trip_dates(task)
    if dates is None or not task.metadata.cities or not task.user_names:
        return None
    city, user = task.metadata.cities[0], task.user_names[0]
    listed = _listed_places(task.preference_table())
    for poi in sorted(world.pois(city, "attraction"), key=lambda p: -p.rating):
        if poi.name in listed or not any(world.opening_windows(city, poi.name, d) != () for d in dates):
            continue
        current = must_visit_list(task.preference_table()[user], city)
        value = [poi.name, *current[1:]]
        raw = raw_task(task)
        raw["task_id"] = f"{task.task_id}~shift@{at_event}"
        path = f"city_specific_preferences.{city}.attractions.must_visit"
        raw["metadata"]["intent_shift"] = {
            "user": user,
            "field_path": path,
            "value": value,
            "at_event": at_event,
        }
        return raw
    return None


def _listed_places(table: dict[str, Any]) -> set[str]:
    found: set[str] = set()
    for slot in table.values():
        preference = slot.get("preference", slot) if isinstance(slot, dict) else {}
        cities = preference.get("city_specific_preferences", {}) if isinstance(preference, dict) else {}
        for city in cities.values() if isinstance(cities, dict) else ():
            attractions = city.get("attractions", {}) if isinstance(city, dict) else {}
            for key in ("must_visit", "reject_visit"):
                items = attractions.get(key) if isinstance(attractions, dict) else None
                found |= (
                    {item for item in items if isinstance(item, str)} if isinstance(items, list) else set()
                )
    return found


def derive(
    tasks: list[Task], world: World, *, kinds: list[str], at_event: int, shifts: bool
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Every variant of `tasks`, task by task: with `shifts` one feasible intent shift each, else for
    each certificate kind in `kinds` found (`FINDERS` order) the variant from the start, then its
    transition at `at_event`; and the count of variants by kind (`none` counts the tasks without one)."""
    variants: list[dict[str, Any]] = []
    names = ["shift"] if shifts else [kind for kind in FINDERS if kind in kinds]
    counts = dict.fromkeys([*names, "none"], 0)
    for task in tasks:
        found: list[dict[str, Any]] = []
        if shifts:
            shift = shift_variant(task, world, at_event)
            found = [] if shift is None else [shift]
            counts["shift"] += len(found)
        else:
            for kind in (k for k in FINDERS if k in kinds):
                certificate = FINDERS[kind](task, world)
                if certificate is not None:
                    found += [
                        unsolvable_variant(task, certificate),
                        transition_variant(task, certificate, at_event),
                    ]
                    counts[kind] += 1
        counts["none"] += not found
        variants += found
    return variants, counts
