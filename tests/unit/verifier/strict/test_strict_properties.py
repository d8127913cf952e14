"""Invariants of the strict checks on mutations of the valid fixture plans (hypothesis)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.fixtures.strict_helpers import apply, run, steps
from tests.fixtures.strict_world import WORLD, load_plan
from verifier.model.plan_parse import parse_plan

PLANS = ("plan_a", "plan_b")
DOCUMENTED = set(
    re.findall(
        r"`((?:strict|input)\.[a-z_]+)`", (Path(__file__).parents[4] / "docs" / "violations.md").read_text()
    )
)


def activity_paths(name: str, kind: str) -> list[str]:
    parsed = parse_plan(load_plan(name))
    return [
        parsed.paths.activities[i][j][k]
        for i, day in enumerate(parsed.plan.days)
        for j, segment in enumerate(day.city_segments)
        for k, activity in enumerate(getattr(segment, "activities", []))
        if activity.type == kind
    ]


def get(plan: Any, path: str) -> Any:
    target = plan
    for step in steps(path):
        target = target[step]
    return target


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(PLANS), st.data())
def test_removing_any_hotel_breaks_check_2(name: str, data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(activity_paths(name, "hotel")))
    plan = apply(load_plan(name), {"op": "delete", "path": path})
    assert any(v.check == 2 and v.code == "strict.hotel_missing_night" for v in run(plan, name))


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(PLANS), st.data())
def test_removing_any_transfer_breaks_check_6(name: str, data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(activity_paths(name, "intracity_transport")))
    plan = apply(load_plan(name), {"op": "delete", "path": path})
    assert any(v.check == 6 for v in run(plan, name))


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PLANS), st.data(), st.integers(min_value=360, max_value=1439))
def test_moving_an_attraction_outside_its_windows_breaks_check_5(
    name: str, data: st.DataObject, start: int
) -> None:
    path = data.draw(st.sampled_from(activity_paths(name, "attraction")))
    plan = load_plan(name)
    activity = get(plan, path)
    day = parse_plan(plan).plan.days[int(path.split("[")[1].split("]")[0])]
    city = WORLD.city(get(plan, path.split(".activities")[0])["city"]) or ""
    windows = WORLD.opening_windows(city, activity["location"], day.date)
    assume(windows is not None)
    assert windows is not None
    length = _minutes(activity["end_time"]) - _minutes(activity["start_time"])
    end = start + length
    assume(end <= 1439)
    assume(not any(w.open <= start and end <= w.close for w in windows))
    activity["start_time"], activity["end_time"] = _hhmm(start), _hhmm(end)
    codes = {(v.code, v.loc) for v in run(plan, name) if v.check == 5}
    assert codes & {("strict.outside_opening_hours", path), ("strict.closed_on_date", path)}


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3000)
    | st.sampled_from(["", "All", "User1", "09:00", "海口市", "hotel"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["type", "city", "to"]), inner, max_size=2)
    ),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PLANS), st.data(), JSON)
def test_any_edit_gives_documented_codes_deterministically(
    name: str, data: st.DataObject, value: Any
) -> None:
    plan = load_plan(name)
    parsed = parse_plan(plan)
    paths = [p for day in parsed.paths.activities for seg in day for p in seg] + list(parsed.paths.days)
    fields = [
        "start_time",
        "end_time",
        "participants",
        "location",
        "avg_cost",
        "type",
        "from",
        "to",
        "date",
        "day",
    ]
    base = data.draw(st.sampled_from(paths))
    key = data.draw(st.sampled_from(fields))
    target = get(plan, base)
    target[key] = value
    first, second = run(plan, name), run(plan, name)
    assert first == second
    assert {v.code for v in first} <= DOCUMENTED


def _minutes(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:])


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


PLANLIKE = st.recursive(
    st.sampled_from(
        [
            "intercity_transport",
            "hotel",
            "food",
            "attraction",
            "intracity_transport",
            "rest",
            "09:00",
            "23:30",
            "2025-09-02",
            "2999-12-31",
            "1900-01-01",
            "海口市",
            "三亚",
            "长春市",
            "All",
            "User3",
            "打车",
            "飞机",
            "椰林度假酒店",
            "海口东站",
            1,
            1e300,
            -1,
            None,
            0.5,
        ]
    ),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "days",
                    "day",
                    "date",
                    "city_segments",
                    "city",
                    "activities",
                    "type",
                    "start_time",
                    "end_time",
                    "from_city",
                    "to_city",
                    "transport_mode",
                    "location",
                    "from",
                    "to",
                    "participants",
                    "avg_cost",
                ]
            ),
            inner,
            max_size=8,
        )
    ),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(PLANLIKE)
def test_strict_never_raises_on_plan_like_json(raw: Any) -> None:
    first = run(raw, "plan_b")
    assert first == run(raw, "plan_b")
    assert {v.code for v in first} <= DOCUMENTED
