"""Active and passive elicitation: each field's status read from the chat, counts and rates."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from runner.agents.baselines import GreedyPlanner
from runner.agents.registry import make_agent
from runner.episode import EpisodeSettings, run_episode
from runner.episode.conversation import message
from runner.scoring.elicitation import elicitation_counts, field_statuses, merge_counts, rates
from runner.users.registry import make_users
from tests.fixtures.sample_game import sample_task, sample_world


def _slot(budget: int, must: list[str], food: list[str]) -> dict[str, Any]:
    return {
        "role": "x",
        "compromisable": False,
        "preference": {
            "global_constraints": {"avg_budget": budget, "transport": {"must": must}},
            "city_specific_preferences": {"珠海市": {"food": {"must_eat": food}}},
        },
    }


TABLE = {"A": _slot(3000, ["高铁"], ["海鲜"]), "B": _slot(5000, ["飞机"], [])}


def _record(history: list[Any]) -> dict[str, Any]:
    return {"original_preferences": TABLE, "effective_preferences": TABLE, "conversation_history": history}


HISTORY = [
    message("A", "这次去珠海我想吃海鲜。"),
    message("Agent", "@B 你的人均预算大概多少？", has_tool_calls=False),
    message("A", "我这边人均不能超过3000元。", has_tool_calls=False),
    message("Agent", "查一下", has_tool_calls=True),
    {"type": "tool_call", "name": "web_search", "arguments": "{}"},
    message("Agent", "大家的交通方式有什么偏好吗？", has_tool_calls=False),
    message("B", "交通一定要坐飞机。", has_tool_calls=False),
    message("A", "出行必须坐高铁。", has_tool_calls=False),
]


def test_statuses_follow_who_asked_whom() -> None:
    rows = field_statuses(_record(HISTORY))
    assert [(r["user"], r["topic"], r["status"], r["opening"]) for r in rows] == [
        ("A", "budget", "passive", False),  # the question was @B's
        ("A", "transport", "active", False),  # a question to everyone, after A last spoke
        ("A", "food", "passive", True),  # in the opening messages
        ("B", "budget", "never", False),
        ("B", "transport", "active", False),
    ]
    counts = elicitation_counts(rows)
    assert {k: counts[k] for k in ("fields", "active", "passive", "opening", "never")} == {
        "fields": 5,
        "active": 2,
        "passive": 2,
        "opening": 1,
        "never": 1,
    }
    assert counts["by_topic"]["transport"] == {
        "fields": 2,
        "active": 2,
        "passive": 0,
        "opening": 0,
        "never": 0,
    }
    assert list(counts["by_user"]) == ["A", "B"]
    assert rates(counts) == {"active": 0.4, "passive": 0.4, "opening": 0.2, "never": 0.2}


def test_an_answer_after_the_user_spoke_again_is_not_an_answer() -> None:
    history = [
        message("Agent", "@A 你的人均预算大概多少？", has_tool_calls=False),
        message("A", "我想想。", has_tool_calls=False),
        message("A", "我这边人均不能超过3000元。", has_tool_calls=False),
    ]
    (budget,) = [r for r in field_statuses(_record(history)) if r["topic"] == "budget" and r["user"] == "A"]
    assert budget["status"] == "passive"


def test_a_statement_to_everyone_is_no_question() -> None:
    history = [
        message("Agent", "抱歉，这个行程无法实现，因为预算太低。", has_tool_calls=False),
        message("A", "我这边人均不能超过3000元。", has_tool_calls=False),
    ]
    (budget,) = [r for r in field_statuses(_record(history)) if r["topic"] == "budget" and r["user"] == "A"]
    assert budget["status"] == "passive"


def test_a_failed_trial_has_no_fields() -> None:
    assert field_statuses({"success": False}) == []
    assert rates(elicitation_counts([]))["active"] is None


def _play(agent: str) -> dict[str, Any]:
    task, world = sample_task(), sample_world()
    player = make_agent(agent, task=task, world=world, planner=GreedyPlanner(world), seed=0)
    return run_episode(
        task, world, player, make_users("rules", task, seed=0), trial=0, settings=EpisodeSettings()
    )


def test_scripted_leaves_nothing_unsaid_and_silent_asks_nothing() -> None:
    scripted = elicitation_counts(field_statuses(_play("scripted")))
    silent = elicitation_counts(field_statuses(_play("silent")))
    assert {k: scripted[k] for k in ("fields", "active", "passive", "opening", "never")} == {
        "fields": 14,
        "active": 7,
        "passive": 7,
        "opening": 6,
        "never": 0,
    }
    assert {k: silent[k] for k in ("fields", "active", "passive", "opening", "never")} == {
        "fields": 14,
        "active": 0,
        "passive": 6,
        "opening": 6,
        "never": 8,
    }
    merged = merge_counts([scripted, silent])
    assert (merged["fields"], merged["active"], merged["never"]) == (28, 7, 8)
    assert merged["by_user"]["User1"]["fields"] == scripted["by_user"]["User1"]["fields"] * 2


@given(st.lists(st.sampled_from(["active", "passive", "never"]), max_size=30), st.data())
def test_counts_add_up(statuses: list[str], data: st.DataObject) -> None:
    rows = [
        {
            "user": f"U{k % 3}",
            "topic": "food",
            "city": "c",
            "status": s,
            "opening": s == "passive" and data.draw(st.booleans()),
        }
        for k, s in enumerate(statuses)
    ]
    counts = elicitation_counts(rows)
    assert counts["active"] + counts["passive"] + counts["never"] == counts["fields"] == len(rows)
    assert counts["opening"] <= counts["passive"]
    assert sum(group["fields"] for group in counts["by_user"].values()) == len(rows)
