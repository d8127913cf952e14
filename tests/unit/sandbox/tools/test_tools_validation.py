"""Validation order and error texts (docs/tools.md#validation-first-failure-wins) through `call_tool` without
world or cache."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.tools import call_tool, list_tools
from tests.fixtures.tools_world import tools_world

WORLD = tools_world()
FLIGHT = {"origin": "北京市", "destination": "杭州市", "date": "2025-05-01"}


def _error(name: str, args: Any, world: Any = WORLD) -> str:
    answer = call_tool(name, args, world, None)
    assert answer.error and answer.provenance == "error"
    message: str = json.loads(answer.text)["error"]
    return message


def test_arguments_must_be_an_object() -> None:
    assert _error("maps_geo", "[]") == "参数必须是 JSON 对象（键值对），实际为 array"
    assert _error("maps_geo", "null") == "参数必须是 JSON 对象（键值对），实际为 null"
    assert _error("maps_geo", "{bad").startswith("参数不是合法的 JSON：")


def test_unknown_parameter_comes_before_missing_ones() -> None:
    assert _error("maps_geo", {"adress": "西湖"}) == "未知参数: 'adress'，允许的参数为: ['address', 'city']"


def test_trains_use_their_own_wording() -> None:
    assert _error("travel_search_trains", {**FLIGHT, "seat": "二等座"}).startswith(
        "包含未知参数: 'seat'。有效参数包括: ['origin', 'destination', 'date'"
    )
    assert (
        _error("travel_search_trains", {"origin": "北京市", "date": "2025-05-01"})
        == "缺少必须参数: 'destination'"
    )


def test_missing_required_comes_before_type_errors() -> None:
    assert _error("maps_weather", {"date": 20250501}) == "缺少必填参数: 'location'"


def test_type_checks() -> None:
    assert _error("maps_weather", {"location": "杭州市", "date": "2025-05-01", "days": "2"}) == (
        "参数 'days' 类型错误：应为 integer，实际为 string（'2'）"
    )
    assert _error("search_poi", {"keywords": "火锅", "city": "杭州市", "radius_km": "3"}).startswith(
        "参数 'radius_km' 类型错误：应为 number 或 null"
    )
    assert _error(
        "plan_route", {"origin": "a", "destination": "b", "mode": None, "city": "杭州市"}
    ).startswith("参数 'mode' 类型错误：应为 string，实际为 null")


def test_bool_passes_integer_and_null_passes_nullable() -> None:
    answer = call_tool(
        "maps_weather", {"location": "杭州市", "date": "2025-05-01", "days": True}, WORLD, None
    )
    assert not answer.error and len(json.loads(answer.text)["forecasts"]) == 2
    answer = call_tool("maps_geo", {"address": "西湖风景区", "city": None}, WORLD, None)
    assert not answer.error


def test_enum_and_range_errors_name_the_allowed_values() -> None:
    assert _error("travel_search_flights", {**FLIGHT, "sort_by": "cheapest"}) == (
        "参数 'sort_by' 取值无效：'cheapest'，允许的取值为: ['depart_time', 'price', 'duration']"
    )
    assert _error("maps_weather", {"location": "杭州市", "date": "2025-05-01", "days": 5}) == (
        "参数 'days' 超出范围：5，必须不大于 4（允许范围 0 到 4）"
    )
    assert _error("search_poi", {"keywords": "火锅", "city": "杭州市", "radius_km": 0}) == (
        "参数 'radius_km' 超出范围：0，必须大于 0"
    )
    assert _error("search_poi", {"keywords": "火锅", "city": "杭州市", "page_size": 21}).startswith(
        "参数 'page_size' 超出范围：21，必须不大于 20"
    )
    assert _error(
        "search_along_route", {"origin": "a", "destination": "b", "keywords": "c", "route_range": 0}
    ) == ("参数 'route_range' 超出范围：0，必须不小于 1（允许范围 1 到 3000）")


def test_blank_and_unknown_cities() -> None:
    assert _error("web_search", {"query": "  "}) == "参数 'query' 不能为空"
    assert _error("maps_weather", {"location": "火星", "date": "2025-05-01"}).startswith(
        "参数 'location' 不是已知城市：'火星'"
    )
    assert not call_tool("maps_weather", {"location": "杭州", "date": "2025-05-01"}, WORLD, None).error


def test_dates_and_times() -> None:
    assert _error("travel_search_flights", {**FLIGHT, "date": "2025/05/01"}) == (
        "参数 'date' 格式错误：'2025/05/01'，应为 YYYY-MM-DD，如 2025-05-01"
    )
    assert _error("travel_search_flights", {**FLIGHT, "date": "2025-02-30"}).startswith(
        "参数 'date' 不是有效日期"
    )
    assert _error("travel_search_flights", {**FLIGHT, "depart_time_start": "24:00"}).startswith(
        "参数 'depart_time_start' 格式错误：'24:00'"
    )
    assert _error(
        "travel_search_flights", {**FLIGHT, "depart_time_start": "12:00", "depart_time_end": "08:00"}
    ) == ("参数 'depart_time_start'（12:00）不能晚于 'depart_time_end'（08:00）")


def test_coordinates_prices_and_transit_city() -> None:
    assert _error(
        "plan_route", {"origin": "120.1", "destination": "西湖风景区", "city": "杭州市"}
    ).startswith("参数 'origin' 坐标格式错误")
    assert _error(
        "plan_route", {"origin": "200.0,30.0", "destination": "西湖风景区", "city": "杭州市"}
    ).startswith("参数 'origin' 坐标超出范围")
    assert _error(
        "search_poi", {"keywords": "火锅", "city": "杭州市", "price_min": 100, "price_max": 50}
    ) == ("参数 'price_min'（100）不能大于 'price_max'（50）")
    assert _error("plan_route", {"origin": "西湖风景区", "destination": "灵隐寺"}) == (
        "transit 模式下参数 'city' 必须传入（如 '北京市'）"
    )
    assert not call_tool(
        "plan_route", {"origin": "西湖风景区", "destination": "灵隐寺", "mode": "walking"}, WORLD, None
    ).error


def test_unknown_tool() -> None:
    assert _error("maps_geocode", {}).startswith("未知工具: 'maps_geocode'，可用工具为: ['maps_geo'")


def test_without_a_world_city_names_are_only_checked_for_blankness() -> None:
    answer = call_tool("maps_weather", {"location": "火星", "date": "2025-05-01"}, None, None)
    assert json.loads(answer.text) == {"error": "No cached data and no LLM simulator configured"}


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(list_tools()),
    st.dictionaries(
        st.sampled_from(
            [
                "origin",
                "destination",
                "date",
                "city",
                "keywords",
                "address",
                "query",
                "id",
                "location",
                "days",
                "mode",
                "page",
                "radius_km",
                "x",
            ]
        ),
        JSON_VALUES,
        max_size=6,
    ),
)
def test_any_object_gets_an_answer_or_a_json_error(name: str, args: dict[str, Any]) -> None:
    answer = call_tool(name, args, WORLD, None)
    payload = json.loads(answer.text)
    assert isinstance(payload, dict)
    assert answer.error == (set(payload) == {"error"})
