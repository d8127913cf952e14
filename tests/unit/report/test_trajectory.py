"""The trajectory viewer: chat by role, tool calls folded with their results, the plan day by day."""

from __future__ import annotations

import pytest

from runner.loading.benchmark_data import parse_task
from runner.loading.files import InputError
from runner.report.document import Chat, Fold, Heading, Para, Preformatted
from runner.report.plan_html import plan_html
from runner.report.plan_text import DayView, RenderedPlan, Row
from runner.report.trajectory import chat_blocks, find_episode, trajectory
from tests.fixtures.report_fixtures import runs, tasks

RUNS = runs()


def test_episode_selection() -> None:
    assert find_episode(RUNS, None) is RUNS[0]
    assert find_episode(RUNS, "task_900001:1") is RUNS[3]
    with pytest.raises(InputError, match="--episode: expected TASK_ID:TRIAL, got 'task_900001'"):
        find_episode(RUNS, "task_900001")
    with pytest.raises(InputError, match="no run record 'task_900001:7'"):
        find_episode(RUNS, "task_900001:7")


def test_chat_tool_calls_and_plan() -> None:
    blocks = trajectory(RUNS[0], parse_task(tasks()[0], None))
    assert blocks[0] == Heading("Trajectory: task_004175 trial 0")
    assert blocks[1] == Para(
        "completion: plan_generated · plan generated: yes · rounds: 2 · events: 4 · agent: scripted"
    )
    chats = [block for block in blocks if isinstance(block, Chat)]
    assert [chat.role for chat in chats] == ["User1", "User2", "Agent", "Agent", "User1", "Agent"]
    assert chats[2].text == "(calls tools, below)"
    assert chats[3].text == "@User1 海鲜火锅可以安排在第一天晚上吗？"
    folds = [block for block in blocks if isinstance(block, Fold)]
    assert folds[0] == Fold(
        'tool search_flights({"from": "合肥市", "to": "珠海市"})',
        'arguments: {"from": "合肥市", "to": "珠海市"}\n\nresult:\nMU5001 07:30-10:15 900元',
    )
    assert folds[1].summary == 'tool search_hotels({"city": "珠海"}) — error'
    assert folds[1].error
    assert folds[2].summary.startswith("whole message (")
    plan = blocks[-1]
    assert isinstance(plan, Preformatted)
    assert "Day 1 · Wed 2026-01-14 · 合肥市 → 珠海市" in plan.text
    assert "hotel 珠海香洲商务酒店" in plan.text
    assert plan.html is not None
    assert plan.html.startswith('<div class="plan"><p><b>task_004175 · 珠海市，两天一夜，3人的旅行计划<br>')
    assert (
        '<tr class="leg"><td>07:30–10:15</td><td>飞机 合肥市 → 珠海市</td><td>everyone</td>'
        '<td class="num">900</td></tr>' in plan.html
    )
    assert "<td>visit 长隆海洋王国</td>" in plan.html


def test_long_messages_are_cut_and_folded() -> None:
    message = RUNS[0]["conversation_history"][-1]
    cut, whole = chat_blocks([message])
    assert isinstance(cut, Chat)
    assert cut.text == message["content"][:600] + "…"
    assert whole == Fold(f"whole message ({len(message['content'])} characters)", message["content"])


def test_calls_without_results_are_still_shown() -> None:
    blocks = chat_blocks(
        [
            {"type": "tool_call", "name": "a", "arguments": "x" * 100},
            {"type": "message", "role": "Agent", "content": "done"},
        ]
    )
    assert blocks == [
        Fold(f"tool a({'x' * 79}…)", f"arguments: {'x' * 100}\n\nresult:\n(no result recorded)"),
        Chat("Agent", "done"),
    ]


def test_a_failed_trial_says_so_and_has_no_plan() -> None:
    blocks = trajectory(RUNS[2], None)
    assert Para("The trial failed: Error code: 429 rate limit") in blocks
    assert Para("No conversation was recorded.") in blocks
    assert blocks[-1] == Para("No plan could be extracted from the conversation.")


def test_plan_tables_mark_splits_and_unreadable_parts() -> None:
    view = RenderedPlan(
        heading=None,
        days=[DayView("Day 1", [Row("", "split: User1 | User2", "", "", "italic")], "no hotel", "x")],
        total=None,
        unreadable=["days[1]: <bad>"],
    )
    assert plan_html(view) == (
        '<div class="plan"><h4>Day 1</h4><table><thead><tr><th>time</th><th>what</th><th>who</th>'
        '<th>CNY/person</th></tr></thead><tbody><tr class="split"><td></td><td>split: User1 | User2'
        '</td><td></td><td class="num"></td></tr></tbody></table><p class="night">night: no hotel · '
        "day's cost x</p><p>Not shown: 1 part(s) of the plan could not be read</p>"
        "<ul><li>days[1]: &lt;bad&gt;</li></ul></div>"
    )
