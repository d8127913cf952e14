"""`tripwright plan show` and `runner.report.plan_text`: exact text of hand-made plans, piped at 80
columns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from runner.cli.app import app
from tests.fixtures.strict_world import PLANS

RUN = CliRunner()
TASK_B = {
    "task_id": "strict_b",
    "query": "海口、三亚三日游",
    "time": "2025-09-05",
    "metadata": {
        "departure_city": "长春市",
        "cities": ["海口市", "三亚市"],
        "date": "三天两夜",
        "child_members": [{"user": "User3", "role": "小孩（0-12岁）"}],
    },
    "user_preferences": {
        "User1": {"role": "成人", "preference": {}},
        "User2": {"role": "成人", "preference": {}},
    },
}
PLAN_B = """strict_b · 海口、三亚三日游
travellers: User1, User2; child User3

Day 1 · Fri 2025-09-05 · 长春市 → 海口市
time         what                                       who           CNY/person
14:00–19:30  飞机 长春市 → 海口市                       everyone            1300
19:50–20:30  打车 海口美兰国际机场 → 观海舒适酒店       everyone              58
20:30–08:00  hotel 观海舒适酒店                         everyone             250
  night: 观海舒适酒店, 海口市
  day's cost per person: 1608 CNY

Day 2 · Sat 2025-09-06 · 海口市 → 三亚市
time         what                                       who           CNY/person
             the group splits: User1 | User2, User3
08:40–09:00  打车 观海舒适酒店 → 海南省博物馆           User1                 22
09:00–10:45  visit 海南省博物馆                         User1                  0
10:45–11:10  步行 海南省博物馆 → 椰海川菜馆             User1                  0
08:40–09:00  打车 观海舒适酒店 → 假日海滩               User2, User3          31
09:00–10:45  visit 假日海滩                             User2, User3          10
10:45–11:10  打车 假日海滩 → 椰海川菜馆                 User2, User3          37
11:10–12:10  lunch at 椰海川菜馆                        everyone              80
12:30–15:30  自驾 海口市 → 三亚市                       everyone              80
15:30–16:45  visit 椰梦长廊                             everyone               0
16:45–17:00  步行 椰梦长廊 → 三亚椰子鸡                 everyone               0
17:00–18:00  dinner at 三亚椰子鸡                       everyone              70
18:00–20:40  rest                                       everyone
20:45–21:00  打车 三亚椰子鸡 → 第一市场夜市             everyone              19
21:00–22:30  visit 第一市场夜市                         everyone               0
22:30–22:55  步行 第一市场夜市 → 椰林度假酒店           everyone               0
23:00–08:00  hotel 椰林度假酒店                         everyone             480
  night: 椰林度假酒店, 三亚
  day's cost per person: User1 751 · User2, User3 807 CNY

Day 3 · Sun 2025-09-07 · 三亚市 → 长春市
time         what                                       who           CNY/person
08:30–09:00  打车 椰林度假酒店 → 鹿回头风景区           everyone              34
09:00–10:45  visit 鹿回头风景区                         everyone              45
10:45–11:05  打车 鹿回头风景区 → 三亚海鲜大排档         everyone              31
11:05–12:00  lunch at 三亚海鲜大排档                    everyone             120
12:05–13:10  打车 三亚海鲜大排档 → 南山文化旅游区       everyone              97
13:10–16:10  visit 南山文化旅游区                       everyone             129
16:15–17:05  打车 南山文化旅游区 → 三亚凤凰国际机场     everyone              73
22:00–04:30  飞机 三亚市 → 长春市 (arrives next day)    everyone            1200
  night: no hotel
  day's cost per person: 1729 CNY

Trip total per person: User1 4088 · User2, User3 4144 CNY
"""
BAD_PLAN = {
    "days": [
        {
            "day": 1,
            "date": "2025-09-05",
            "city_segments": [
                {
                    "city": "海口市",
                    "activities": [
                        {
                            "type": "attraction",
                            "location": "海南省博物馆",
                            "start_time": "09:00",
                            "end_time": "25:00",
                        },
                        {
                            "type": "food",
                            "location": "椰海川菜馆",
                            "start_time": "11:10",
                            "end_time": "12:10",
                            "participants": ["User1"],
                        },
                    ],
                }
            ],
        },
        "day two",
    ]
}
BAD = """Day 1 · Fri 2025-09-05 · 海口市
time         what                                              who    CNY/person
11:10–12:10  lunch at 椰海川菜馆                               User1           ?
  night: no hotel
  day's cost per person: 0 CNY (+ 1 item(s) without a cost)

Trip total per person: 0 CNY (+ 1 item(s) without a cost)
Not shown: 2 part(s) of the plan could not be read
  $.days[0].city_segments[0].activities[0].end_time: field 'end_time': String
should match pattern '^([01]\\d|2[0-3]):[0-5]\\d$'
  $.days[1]: a day must be a JSON object, got string
"""


def _show(*args: str | Path) -> tuple[int, str]:
    result = RUN.invoke(app, ["plan", "show", *(str(a) for a in args)])
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, "\n".join(line.rstrip() for line in result.output.split("\n"))


def test_plan_b_with_its_task_piped_at_80_columns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    (tmp_path / "task.json").write_text(json.dumps(TASK_B, ensure_ascii=False), encoding="utf-8")
    code, output = _show(PLANS / "plan_b.json", "--task", tmp_path / "task.json")
    assert code == 0
    assert output == PLAN_B


def test_unreadable_parts_are_listed_and_names_are_never_truncated(tmp_path: Path) -> None:
    (tmp_path / "plan.json").write_text(json.dumps(BAD_PLAN, ensure_ascii=False), encoding="utf-8")
    code, output = _show(tmp_path / "plan.json", "--width", "80")
    assert (code, output) == (0, BAD)
    code, output = _show(PLANS / "plan_b.json", "--width", "40")
    assert code == 0 and "…" not in output
    assert "南山文化旅游区→三亚凤凰国际机场" in "".join(output.split())  # folded, whole


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (
            "[1]",
            (
                0,
                "Not shown: 1 part(s) of the plan could not be read\n"
                "  $: the plan must be a JSON object, got array\n",
            ),
        ),
        ("{oops", (2, "not valid JSON")),
    ],
)
def test_not_a_plan(tmp_path: Path, content: str, expected: tuple[int, str]) -> None:
    (tmp_path / "plan.json").write_text(content, encoding="utf-8")
    code, output = _show(tmp_path / "plan.json")
    assert code == expected[0] and expected[1] in output
