"""Intent shifts (TRIP-Bench): a traveller changes one wish mid-dialogue, as the task variant says.

A task carrying `metadata.intent_shift {user, field_path, value, at_event}` (`runner.tasks.variants`)
has that user's effective table ③ changed at the first request to that user made once the episode
has counted `at_event` events — the traveller changes its mind when it next speaks: `field_path`
(dotted from the preference root) is set to `value`, a required transport mode also leaving the
user's other transport lists. The change is not a compromise: no quota, no marker, no
compromise-log entry. The simulator learns it from its slot of ③ (a rule user announces it in that
very reply, `runner.users.rules`); scoring uses the final ③.
The record carries `intent_shifts`: `[{event, user, field_path, old_value, new_value, applied}]`
(`applied` false, `event` null when the episode ended first).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from runner.episode.errors import EpisodeInputError
from verifier.model.task import Task


def value_at(preference: Any, path: str) -> Any:
    """The value at a dotted path of a preference object (a copy), or None."""
    node = preference
    for part in path.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return copy.deepcopy(node)


def set_in(preference: dict[str, Any], path: str, value: Any) -> None:
    """Set a dotted path inside a preference object, creating objects on the way."""
    *parents, leaf = path.split(".")
    node = preference
    for part in parents:
        child = node.get(part)
        if not isinstance(child, dict):
            child = node[part] = {}
        node = child
    node[leaf] = copy.deepcopy(value)


def with_wish(preference: dict[str, Any], path: str, value: Any) -> None:
    """Set a wish; a required transport mode also leaves the user's other transport lists."""
    set_in(preference, path, value)
    if path == "global_constraints.transport.must" and isinstance(value, list):
        transport = preference["global_constraints"]["transport"]
        for key in ("prefer", "avoid", "reject"):
            if isinstance(transport.get(key), list):
                transport[key] = [mode for mode in transport[key] if mode not in value]


@dataclass
class IntentShift:
    """One scheduled change and whether it happened."""

    user: str
    field_path: str
    value: Any
    at_event: int
    event: int | None = None
    old_value: Any = None

    @classmethod
    def of(cls, task: Task) -> IntentShift | None:
        """The task's scheduled shift, or None; `EpisodeInputError` for a malformed one."""
        spec = (task.metadata.model_extra or {}).get("intent_shift")
        if spec is None:
            return None
        if not isinstance(spec, dict):
            raise EpisodeInputError("metadata.intent_shift", "must be an object")
        user, path, at_event = spec.get("user"), spec.get("field_path"), spec.get("at_event")
        if user not in task.user_preferences:
            raise EpisodeInputError("metadata.intent_shift.user", f"{user!r} is not a user of the task")
        if not isinstance(path, str) or not path:
            raise EpisodeInputError("metadata.intent_shift.field_path", "must be a dotted path")
        if not isinstance(at_event, int) or isinstance(at_event, bool) or at_event < 0:
            raise EpisodeInputError("metadata.intent_shift.at_event", "must be a whole number ≥ 0")
        if "value" not in spec:
            raise EpisodeInputError("metadata.intent_shift.value", "missing")
        return cls(user, path, spec["value"], at_event)

    def apply_due(self, events: int, effective: dict[str, Any], speaker: str) -> None:
        """Change ③ when the shifted user is asked to speak once `events` reached `at_event` (once)."""
        if self.event is not None or events < self.at_event or speaker != self.user:
            return
        slot = effective[self.user]
        preference = slot.setdefault("preference", {}) if "preference" in slot else slot
        self.old_value = value_at(preference, self.field_path)
        with_wish(preference, self.field_path, self.value)
        self.event = events

    def as_record(self) -> list[dict[str, Any]]:
        """The record's `intent_shifts`."""
        return [
            {
                "event": self.event,
                "user": self.user,
                "field_path": self.field_path,
                "old_value": self.old_value,
                "new_value": self.value,
                "applied": self.event is not None,
            }
        ]
