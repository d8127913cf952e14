"""Lenient plan parsing: every malformed part is an input violation and is dropped alone."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fixtures.strict_helpers import A1, edited, put
from tests.fixtures.strict_world import load_plan
from verifier.model.plan import Activity, CityBlock, IntercityTransport
from verifier.model.plan_parse import parse_plan


def summary(raw: object) -> list[tuple[str, str]]:
    return [(v.code, v.loc) for v in parse_plan(raw).violations]


def test_valid_plan_parses_without_violations() -> None:
    parsed = parse_plan(load_plan("plan_a"))
    assert parsed.violations == []
    assert [len(day.city_segments) for day in parsed.plan.days] == [2, 3, 2]
    assert parsed.paths.days == ("$.days[0]", "$.days[1]", "$.days[2]")
    assert parsed.paths.activities[1][2][3] == "$.days[1].city_segments[2].activities[3]"


def test_top_level_shapes() -> None:
    assert summary([]) == [("input.not_object", "$")]
    assert summary({}) == [("input.missing", "$.days")]
    assert summary({"days": {}}) == [("input.list_type", "$.days")]
    assert summary({"days": []}) == [("input.too_short", "$.days")]
    assert summary({"days": ["x"]}) == [("input.not_object", "$.days[0]"), ("input.no_days", "$.days")]
    assert parse_plan({"days": []}).plan.days == []


def test_one_bad_activity_is_dropped_alone() -> None:
    raw = edited("plan_a", put(f"{A1}[2].start_time", "24:00"))
    parsed = parse_plan(raw)
    assert summary(raw) == [("input.string_pattern_mismatch", f"{A1}[2].start_time")]
    block = parsed.plan.days[0].city_segments[1]
    assert isinstance(block, CityBlock)
    assert len(block.activities) == 7
    assert parsed.paths.activities[0][1][2] == f"{A1}[3]"


def test_field_errors_name_field_and_path() -> None:
    raw = edited(
        "plan_a",
        put(f"{A1}[1].participants", "User1"),
        put(f"{A1}[5].avg_cost", "60元"),
        put(f"{A1}[3].type", "museum"),
        put(f"{A1}[4]", ["not", "an", "object"]),
        put("$.days[1].date", "2025/09/03"),
        put("$.days[2].day", "3"),
        put("$.days[0].city_segments[0].end_time", 1330),
    )
    assert summary(raw) == [
        ("input.string_type", "$.days[0].city_segments[0].end_time"),
        ("input.list_type", f"{A1}[1].participants"),
        ("input.literal_error", f"{A1}[3].type"),
        ("input.not_object", f"{A1}[4]"),
        ("input.float_type", f"{A1}[5].avg_cost"),
        ("input.date_format", "$.days[1].date"),
        ("input.int_type", "$.days[2].day"),
    ]
    messages = [v.message for v in parse_plan(raw).violations]
    assert messages[1].startswith("field 'participants'")
    assert parse_plan(raw).paths.days == ("$.days[0]",)


def test_type_specific_required_fields() -> None:
    raw = edited("plan_a", put(f"{A1}[0].from", ""), put(f"{A1}[1].location", ""))
    assert summary(raw) == [("input.missing", f"{A1}[0].from"), ("input.missing", f"{A1}[1].location")]


def test_block_and_segment_shapes() -> None:
    raw = edited(
        "plan_a",
        put("$.days[0].city_segments[1].activities", []),
        put("$.days[1].city_segments[0]", {"city": 5, "activities": "x"}),
        put("$.days[2].city_segments", None),
    )
    assert summary(raw) == [
        ("input.too_short", "$.days[0].city_segments[1].activities"),
        ("input.string_type", "$.days[1].city_segments[0].city"),
        ("input.list_type", "$.days[1].city_segments[0].activities"),
        ("input.missing", "$.days[2].city_segments"),
    ]


def test_block_with_every_activity_bad_is_dropped_without_extra_violation() -> None:
    raw = edited("plan_a", put("$.days[1].city_segments[0].activities[0].end_time", "8:30"))
    parsed = parse_plan(raw)
    assert summary(raw) == [
        ("input.string_pattern_mismatch", "$.days[1].city_segments[0].activities[0].end_time")
    ]
    assert len(parsed.plan.days[1].city_segments) == 2
    assert isinstance(parsed.plan.days[1].city_segments[0], IntercityTransport)


def test_date_must_be_a_calendar_date_string() -> None:
    for value, code in [
        (1725235200, "input.date_format"),
        ("2025-02-30", "input.date_from_datetime_parsing"),
    ]:
        raw = edited("plan_a", put("$.days[0].date", value))
        assert summary(raw) == [(code, "$.days[0].date")]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=25,
)
KEYS = ["days", "day", "date", "city_segments", "city", "activities", "type", "start_time", "end_time"]
PLANLIKE = st.recursive(
    st.sampled_from(["intercity_transport", "hotel", "09:00", "2025-09-02", "海口市", 1, None, 3.5]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(JSON, PLANLIKE))
def test_parse_never_raises_and_is_deterministic(raw: Any) -> None:
    first, second = parse_plan(raw), parse_plan(json.loads(json.dumps(raw)))
    assert first.violations == second.violations
    assert first.plan == second.plan
    assert all(
        v.check == "input" and v.code.startswith("input.") and v.loc.startswith("$") for v in first.violations
    )
    if not isinstance(raw, dict):
        assert [v.code for v in first.violations] == ["input.not_object"]


def test_kept_activity_is_typed() -> None:
    block = parse_plan(load_plan("plan_b")).plan.days[1].city_segments[0]
    assert isinstance(block, CityBlock)
    assert isinstance(block.activities[0], Activity)
    assert block.activities[0].participants == ["User1"]
