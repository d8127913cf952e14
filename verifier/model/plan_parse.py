"""Lenient plan parsing: raw JSON → typed `Plan` plus input violations, never an exception.

Each part is validated on its own — the day header (`day`, `date`), every segment, every
activity — so one malformed activity is dropped without losing its block. Every dropped part
becomes a `Violation(check="input")` whose code is `input.<pydantic error type>` (stable:
`input.missing`, `input.string_pattern_mismatch`, `input.list_type`, `input.not_object` …) or
one this module adds (`input.date_format`, `input.date_out_of_range`, `input.no_days`), with
`loc` the JSON path of the offending value. `ParsedPlan.paths` maps the kept parts back to their JSON paths,
so later rules report locations in the caller's input even after parts were dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import ValidationError

from verifier.model.plan import Activity, CityBlock, Day, IntercityTransport, Plan, PlanPart, Segment
from verifier.model.verdict import Violation

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_YEARS = (1900, 2999)
_REQUIRED_BY_TYPE: dict[str, tuple[str, ...]] = {
    "attraction": ("location",),
    "food": ("location",),
    "hotel": ("location",),
    "intracity_transport": ("from", "to", "transport_mode"),
}
_NOT_OBJECT = {"model_type", "dict_type", "model_attributes_type"}

Part = TypeVar("Part", bound=PlanPart)


@dataclass(frozen=True)
class PlanPaths:
    """Where the kept parts came from: the raw index of each kept day and the JSON paths of the
    kept `days[i]`, `segments[i][j]` and `activities[i][j][k]` (i, j, k index the typed plan)."""

    day_indices: tuple[int, ...]
    days: tuple[str, ...]
    segments: tuple[tuple[str, ...], ...]
    activities: tuple[tuple[tuple[str, ...], ...], ...]


@dataclass(frozen=True)
class ParsedPlan:
    """The typed plan (malformed parts dropped), the input violations, and where each kept part came from."""

    plan: Plan
    violations: list[Violation]
    paths: PlanPaths


def parse_plan(raw: object) -> ParsedPlan:
    """Parse a raw plan object leniently; see the module docstring."""
    out: list[Violation] = []
    days: list[Day] = []
    day_indices: list[int] = []
    day_paths: list[str] = []
    seg_paths: list[tuple[str, ...]] = []
    act_paths: list[tuple[tuple[str, ...], ...]] = []
    raw_days = _days_list(raw, out)
    for i, raw_day in enumerate(raw_days):
        path = f"$.days[{i}]"
        parsed = _parse_day(raw_day, path, out)
        if parsed is not None:
            day, segments, acts = parsed
            days.append(day)
            day_indices.append(i)
            day_paths.append(path)
            seg_paths.append(segments)
            act_paths.append(acts)
    if raw_days and not days:
        out.append(_violation("input.no_days", "$.days", "no day of the plan could be read"))
    plan = Plan(days=days) if days else Plan.model_construct(days=[])
    return ParsedPlan(
        plan, out, PlanPaths(tuple(day_indices), tuple(day_paths), tuple(seg_paths), tuple(act_paths))
    )


def _days_list(raw: object, out: list[Violation]) -> list[Any]:
    if not isinstance(raw, dict):
        out.append(_violation("input.not_object", "$", f"the plan must be a JSON object, got {_kind(raw)}"))
        return []
    if "days" not in raw:
        out.append(_violation("input.missing", "$.days", "field 'days' is required"))
        return []
    value = raw["days"]
    if not isinstance(value, list):
        out.append(
            _violation("input.list_type", "$.days", f"field 'days' must be a list, got {_kind(value)}")
        )
        return []
    if not value:
        out.append(_violation("input.too_short", "$.days", "field 'days' must not be empty"))
    return value


def _parse_day(
    raw: object, path: str, out: list[Violation]
) -> tuple[Day, tuple[str, ...], tuple[tuple[str, ...], ...]] | None:
    if not isinstance(raw, dict):
        out.append(_violation("input.not_object", path, f"a day must be a JSON object, got {_kind(raw)}"))
        return None
    if not _date_shaped(raw, path, out):
        return None
    header = _validate(Day, {**raw, "city_segments": []}, path, out)
    segments_raw = raw.get("city_segments")
    if not isinstance(segments_raw, list):
        code, problem = (
            ("missing", "is required") if segments_raw is None else ("list_type", "must be a list")
        )
        out.append(_violation(f"input.{code}", f"{path}.city_segments", f"field 'city_segments' {problem}"))
        return None
    segments: list[Segment] = []
    seg_paths: list[str] = []
    act_paths: list[tuple[str, ...]] = []
    for j, raw_seg in enumerate(segments_raw):
        seg_path = f"{path}.city_segments[{j}]"
        parsed = _parse_segment(raw_seg, seg_path, out)
        if parsed is not None:
            segments.append(parsed[0])
            seg_paths.append(seg_path)
            act_paths.append(parsed[1])
    if header is None:
        return None
    day = Day(day=header.day, date=header.date, city_segments=segments)
    return day, tuple(seg_paths), tuple(act_paths)


def _date_shaped(raw: dict[str, Any], path: str, out: list[Violation]) -> bool:
    """Dates must be `YYYY-MM-DD` strings (pydantic alone would also take timestamps) of years
    1900–2999 (so that date arithmetic on them never overflows)."""
    value = raw.get("date")
    if value is None:
        return True
    if not isinstance(value, str) or not _DATE.fullmatch(value):
        message = f"field 'date' must be a YYYY-MM-DD string, got {value!r}"
        out.append(_violation("input.date_format", f"{path}.date", message))
        return False
    if not _YEARS[0] <= int(value[:4]) <= _YEARS[1]:
        message = f"field 'date' must be in the years {_YEARS[0]}-{_YEARS[1]}, got {value!r}"
        out.append(_violation("input.date_out_of_range", f"{path}.date", message))
        return False
    return True


def _parse_segment(raw: object, path: str, out: list[Violation]) -> tuple[Segment, tuple[str, ...]] | None:
    if not isinstance(raw, dict):
        out.append(_violation("input.not_object", path, f"a segment must be a JSON object, got {_kind(raw)}"))
        return None
    if raw.get("type") == "intercity_transport":
        leg = _validate(IntercityTransport, raw, path, out)
        return None if leg is None else (leg, ())
    acts_raw = raw.get("activities")
    if not isinstance(acts_raw, list) or not acts_raw:
        _validate(CityBlock, raw, path, out)
        return None
    activities: list[Activity] = []
    paths: list[str] = []
    for k, raw_act in enumerate(acts_raw):
        act_path = f"{path}.activities[{k}]"
        activity = _parse_activity(raw_act, act_path, out)
        if activity is not None:
            activities.append(activity)
            paths.append(act_path)
    block = _validate(CityBlock, {**raw, "activities": activities}, path, out, skip=("activities",))
    if block is None or not activities:
        return None
    return block, tuple(paths)


def _parse_activity(raw: object, path: str, out: list[Violation]) -> Activity | None:
    if not isinstance(raw, dict):
        out.append(
            _violation("input.not_object", path, f"an activity must be a JSON object, got {_kind(raw)}")
        )
        return None
    activity = _validate(Activity, raw, path, out)
    if activity is None:
        return None
    missing = [key for key in _REQUIRED_BY_TYPE.get(activity.type, ()) if not raw.get(key)]
    for key in missing:
        out.append(
            _violation(
                "input.missing", f"{path}.{key}", f"field '{key}' is required for a {activity.type} activity"
            )
        )
    return None if missing else activity


def _validate(
    model: type[Part],
    data: dict[str, Any],
    path: str,
    out: list[Violation],
    skip: tuple[str, ...] = (),
) -> Part | None:
    """Validate `data` as `model`; record each error (filtered by top-level field) as a violation."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        for item in error.errors(include_url=False):
            field = str(item["loc"][0]) if item["loc"] else ""
            if field in skip:
                continue
            out.append(_from_error(item["type"], item["loc"], item["msg"], path))
        return None


def _from_error(kind: str, loc: tuple[int | str, ...], msg: str, path: str) -> Violation:
    code = "input.not_object" if kind in _NOT_OBJECT else f"input.{kind}"
    full = path + "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)
    field = ".".join(str(part) for part in loc) or "value"
    return _violation(code, full, f"field '{field}': {msg}")


def _violation(code: str, loc: str, message: str) -> Violation:
    return Violation(code=code, check="input", loc=loc, message=message)


def _kind(value: object) -> str:
    """JSON name of a value's type, for messages."""
    names: dict[type, str] = {
        dict: "object",
        list: "array",
        str: "string",
        bool: "boolean",
        type(None): "null",
    }
    return names.get(type(value), "number" if isinstance(value, int | float) else type(value).__name__)
