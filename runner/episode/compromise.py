"""Applying compromises to the effective preference table ③ (docs/runner.md#the-protocol-as-implemented,
Compromises).

The tracker holds ③ — a deep copy of the task's `user_preferences` — and changes it when a user's
compromise marker is applied. A path is first normalised: a segment that starts with a canonical
field name followed by "_" and more text becomes that name ("must_visit_list" → "must_visit"),
then adjacent repeated segments collapse to one. It is set inside the user's `preference`
object (or the slot itself when the slot has none): every segment but the last must name an
existing object key, the last is overwritten or created — so a misspelt leaf adds a key, and a
one-segment path always lands at the top of the preference. A path that cannot be set is retried
with "global_constraints." and then "city_specific_preferences." in front (each only when the
path does not already start with it). Each user may compromise at most twice.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from runner.episode.settings import MAX_COMPROMISES_PER_USER

GLOBAL = "global_constraints"
CITIES = "city_specific_preferences"
CANONICAL: tuple[str, ...] = tuple(
    sorted(
        (
            GLOBAL,
            CITIES,
            "hotel_preference",
            "category_pref",
            "must_visit",
            "reject_visit",
            "must_eat",
            "prefer_eat",
            "avoid_eat",
            "reject_eat",
            "max_poi_per_day",
            "max_active_hours",
            "avg_budget",
        ),
        key=lambda name: (-len(name), name),
    )
)
"""Field names a suffixed segment is cut back to, longest first."""


def canonical_segment(segment: str) -> str:
    """`segment`, or the canonical name it extends with "_" and more text."""
    for name in CANONICAL:
        if segment.startswith(name + "_") and len(segment) > len(name) + 1:
            return name
    return segment


def normalise_path(path: str) -> list[str]:
    """The segments of a dotted path, canonical names restored and adjacent duplicates collapsed."""
    segments: list[str] = []
    for segment in (canonical_segment(part) for part in path.split(".")):
        if not segments or segments[-1] != segment:
            segments.append(segment)
    return segments


def dotted_set(root: dict[str, Any], segments: list[str], value: Any) -> bool:
    """Set `value` at `segments` under `root`; False when an intermediate key is missing."""
    node: Any = root
    for segment in segments[:-1]:
        if not isinstance(node, dict) or segment not in node:
            return False
        node = node[segment]
    if not isinstance(node, dict):
        return False
    node[segments[-1]] = value
    return True


def candidate_paths(segments: list[str]) -> list[list[str]]:
    """The path as written, then with the global and the city prefix (where not already there)."""
    candidates = [segments]
    for prefix in (GLOBAL, CITIES):
        if segments[0] != prefix:
            candidates.append([prefix, *segments])
    return candidates


@dataclass
class CompromiseTracker:
    """The effective table ③, each user's count of applied compromises, and the log."""

    effective: dict[str, Any]
    counts: dict[str, int] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def start(cls, user_preferences: dict[str, Any]) -> CompromiseTracker:
        """A tracker over a deep copy of the task's preferences, nobody having compromised."""
        return cls(copy.deepcopy(user_preferences))

    def left(self, user: str) -> int:
        """How many compromises `user` may still make."""
        return MAX_COMPROMISES_PER_USER - self.counts.get(user, 0)

    def apply(self, user: str, path: str, value: Any, round_: int) -> bool:
        """Apply one compromise; False (and no log entry) for an unknown user or one at the cap,
        False with a log entry when no candidate path can be set."""
        slot = self.effective.get(user)
        if not isinstance(slot, dict) or self.left(user) <= 0:
            return False
        root = slot["preference"] if isinstance(slot.get("preference"), dict) else slot
        segments = normalise_path(path)
        resolved = segments
        applied = False
        for candidate in candidate_paths(segments):
            if dotted_set(root, candidate, copy.deepcopy(value)):
                resolved, applied = candidate, True
                break
        self.log.append(
            {
                "round": round_,
                "user": user,
                "field_path": ".".join(resolved),
                "new_value": copy.deepcopy(value),
                "applied": applied,
            }
        )
        if applied:
            self.counts[user] = self.counts.get(user, 0) + 1
        return applied
