"""The agent's preference table ② under the strict profile: every field has its documented type.

Why: official preference completeness gives substring credit when a list field is written as
one string ("飞机,高铁,火车" collects every reference item it contains), and crashes on some
non-object nested values (docs/official.md#where-the-official-code-crashes). Here the table must be an object
of users, each either
`{preference: {...}}` or the flat `{global_constraints, city_specific_preferences}`; list
fields are lists of strings, scalar fields numbers (not booleans, not strings), nested parts
objects. Unknown keys are ignored, a missing field or a null value means "not stated".
Violations have check "input" and `loc` rooted at `$inferred`.
"""

from __future__ import annotations

from typing import Any

from verifier.model.verdict import Violation

Schema = dict[str, Any]
LIST = "list"
NUMBER = "number"

GLOBAL: Schema = {
    "avg_budget": NUMBER,
    "transport": {"must": LIST, "prefer": LIST, "avoid": LIST, "reject": LIST},
    "intensity": {"max_poi_per_day": NUMBER, "max_active_hours": NUMBER},
    "hotel_preference": {"prefer": LIST, "avoid": LIST},
}
CITY: Schema = {
    "attractions": {
        "must_visit": LIST,
        "reject_visit": LIST,
        "category_pref": {"positive": LIST, "negative": LIST},
    },
    "food": {"must_eat": LIST, "prefer_eat": LIST, "avoid_eat": LIST, "reject_eat": LIST},
}
CITIES = "cities"
PREFERENCE: Schema = {"global_constraints": GLOBAL, "city_specific_preferences": CITIES}


def strict_table_violations(inferred: object) -> list[Violation]:
    """Type violations of the agent's preference table (see the module docstring)."""
    out: list[Violation] = []
    if not isinstance(inferred, dict):
        return [_bad("input.not_object", "$inferred", "the preference table", "an object", inferred)]
    for user, entry in inferred.items():
        path = _join("$inferred", str(user))
        if not isinstance(entry, dict):
            out.append(_bad("input.not_object", path, f"user {user!r}", "an object", entry))
        elif "preference" in entry:
            _walk(entry["preference"], PREFERENCE, _join(path, "preference"), out)
        else:
            _walk(entry, PREFERENCE, path, out)
    return out


def _walk(value: Any, schema: Schema | str, path: str, out: list[Violation]) -> None:
    if value is None:
        return
    if schema == LIST:
        _list(value, path, out)
    elif schema == NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float):
            out.append(_bad("input.number_type", path, _field(path), "a number", value))
    elif not isinstance(value, dict):
        out.append(_bad("input.not_object", path, _field(path), "an object", value))
    elif isinstance(schema, dict):
        for key, sub in schema.items():
            if key in value:
                _walk(value[key], sub, _join(path, key), out)
    else:
        for city, prefs in value.items():
            _walk(prefs, CITY, _join(path, str(city)), out)


def _list(value: Any, path: str, out: list[Violation]) -> None:
    if not isinstance(value, list):
        out.append(_bad("input.list_type", path, _field(path), "a list of strings", value))
        return
    for i, element in enumerate(value):
        if not isinstance(element, str):
            out.append(_bad("input.string_type", f"{path}[{i}]", f"{_field(path)}[{i}]", "a string", element))


def _bad(code: str, loc: str, field: str, expected: str, value: object) -> Violation:
    message = f"{field} must be {expected}, got {type(value).__name__} {value!r}"[:300]
    return Violation(code=code, check="input", loc=loc, message=message)


def _join(path: str, key: str) -> str:
    """Append a key: `.key` when it is an identifier, else `["key"]`."""
    return f"{path}.{key}" if key.isidentifier() else f"{path}[{key!r}]"


def _field(path: str) -> str:
    return path.removeprefix("$inferred.")
