"""Argument validation in the official order (docs/tools.md#validation-first-failure-wins), with recoverable
Chinese errors.

Order: the arguments must be a JSON object → no unknown parameter → every required
parameter present → each value of its schema type (string = str; integer = int, bool
passes; number = int/float; `anyOf [T, null]` also accepts null) → the schema's own
constraints (enum, minimum, maximum, exclusiveMinimum) → the tool's field checks
(`sandbox.tools.checks`). The first failure is the error; its text names the parameter
and what would be accepted.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sandbox.tools.checks import CityCheck, field_checks
from sandbox.tools.schemas import ToolSpec

_PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "null": (type(None),),
}
_JSON_NAMES: tuple[tuple[type, str], ...] = (
    (bool, "boolean"),
    (int, "integer"),
    (float, "number"),
    (str, "string"),
    (list, "array"),
    (dict, "object"),
    (type(None), "null"),
)


def json_type_name(value: object) -> str:
    """The JSON type name of a Python value."""
    for kind, name in _JSON_NAMES:
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _alternatives(schema: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(schema["anyOf"]) if "anyOf" in schema else [schema]


def _type_error(name: str, value: object, schema: Mapping[str, Any]) -> str | None:
    kinds = [alt["type"] for alt in _alternatives(schema)]
    if any(isinstance(value, _PY_TYPES[kind]) for kind in kinds):
        return None
    expected = " 或 ".join(kinds)
    return f"参数 '{name}' 类型错误：应为 {expected}，实际为 {json_type_name(value)}（{value!r}）"


def _constraint_error(name: str, value: object, schema: Mapping[str, Any]) -> str | None:
    if value is None:
        return None
    for alt in _alternatives(schema):
        if alt.get("type") == "null":
            continue
        enum = alt.get("enum", schema.get("enum"))
        if enum is not None and value not in enum:
            return f"参数 '{name}' 取值无效：{value!r}，允许的取值为: {enum}"
        if not isinstance(value, int | float):
            continue
        low, high = alt.get("minimum", schema.get("minimum")), alt.get("maximum", schema.get("maximum"))
        above = alt.get("exclusiveMinimum", schema.get("exclusiveMinimum"))
        if low is not None and value < low:
            return f"参数 '{name}' 超出范围：{value!r}，必须不小于 {low}" + _range_hint(low, high)
        if high is not None and value > high:
            return f"参数 '{name}' 超出范围：{value!r}，必须不大于 {high}" + _range_hint(low, high)
        if above is not None and value <= above:
            return f"参数 '{name}' 超出范围：{value!r}，必须大于 {above}"
    return None


def _range_hint(low: object, high: object) -> str:
    return f"（允许范围 {low} 到 {high}）" if low is not None and high is not None else ""


def validate(spec: ToolSpec, args: object, known_city: CityCheck | None) -> str | None:
    """The first validation error of a call to `spec`, or None when the arguments are valid."""
    if not isinstance(args, dict):
        return f"参数必须是 JSON 对象（键值对），实际为 {json_type_name(args)}"
    allowed = list(spec.properties)
    trains = spec.name == "travel_search_trains"
    for name in args:
        if name not in spec.properties:
            if trains:
                return f"包含未知参数: '{name}'。有效参数包括: {allowed}"
            return f"未知参数: '{name}'，允许的参数为: {allowed}"
    for name in spec.required:
        if name not in args:
            return f"缺少必须参数: '{name}'" if trains else f"缺少必填参数: '{name}'"
    for name, schema in spec.properties.items():
        if name in args:
            error = _type_error(name, args[name], schema) or _constraint_error(name, args[name], schema)
            if error:
                return error
    return field_checks(spec.name, args, known_city)
