"""The agent's preference table ② read from its own text (docs/runner.md#the-protocol-as-implemented, Table
②).

The JSON of a reply (first fenced block, else first brace-matched object — the same reading as
plan detection) replaces the table when it "looks like a preference table": a non-empty object
whose every value is an object holding `global_constraints` or `city_specific_preferences`.
Replacement is whole, never a merge; anything else leaves the table as it was.
"""

from __future__ import annotations

from typing import Any

from verifier.official.extraction import first_json

TABLE_KEYS = ("global_constraints", "city_specific_preferences")


def looks_like_table(value: Any) -> bool:
    """Whether a JSON value has the shape of a preference table keyed by user."""
    if not isinstance(value, dict) or not value:
        return False
    return all(isinstance(slot, dict) and any(key in slot for key in TABLE_KEYS) for slot in value.values())


def extract_table(text: str) -> dict[str, Any] | None:
    """The preference table a text carries, or None."""
    value = first_json(text)
    return value if looks_like_table(value) else None


def updated_table(current: dict[str, Any], text: str) -> dict[str, Any]:
    """The table after reading `text`: the one it carries, else `current` unchanged."""
    found = extract_table(text)
    return current if found is None else found
