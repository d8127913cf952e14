"""Review findings in the tools: strict date and time formats; weather never runs past the
last representable date."""

from __future__ import annotations

import json

import pytest

from sandbox.tools import call_tool
from tests.fixtures.tools_world import tools_world

TRAINS = {"origin": "杭州", "destination": "上海", "date": "2025-05-01"}


@pytest.mark.parametrize(
    ("extra", "error"),
    [
        (
            {"depart_time_start": "08:30\n"},
            "参数 'depart_time_start' 格式错误：'08:30\n'，应为 HH:MM（00:00 到 23:59），如 08:30",
        ),
        (
            {"depart_time_start": "０８:３０"},
            "参数 'depart_time_start' 格式错误：'０８:３０'，应为 HH:MM（00:00 到 23:59），如 08:30",
        ),
        ({"date": "2025-05-01\n"}, "参数 'date' 格式错误：'2025-05-01\n'，应为 YYYY-MM-DD，如 2025-05-01"),
        (
            {"date": "２０２５-０５-０１"},
            "参数 'date' 格式错误：'２０２５-０５-０１'，应为 YYYY-MM-DD，如 2025-05-01",
        ),
    ],
)
def test_dates_and_times_must_be_ascii_and_whole(extra: dict[str, str], error: str) -> None:
    answer = call_tool("travel_search_trains", TRAINS | extra, tools_world(), None)
    assert answer.error and answer.provenance == "error"
    assert json.loads(answer.text) == {"error": error}


def test_weather_stops_at_the_last_date() -> None:
    args = {"location": "杭州", "date": "9999-12-30", "days": 4}
    answer = call_tool("maps_weather", args, tools_world(), None)
    assert not answer.error and answer.provenance == "world"
    dates = [day["date"] for day in json.loads(answer.text)["forecasts"]]
    assert dates == ["9999-12-30", "9999-12-31"]


def test_too_deeply_nested_json_is_an_error_answer() -> None:
    answer = call_tool("maps_geo", "[" * 100_000, None, None)
    assert answer.error and answer.provenance == "error"
    assert json.loads(answer.text)["error"].startswith(
        "参数不是合法的 JSON：maximum recursion depth exceeded"
    )
