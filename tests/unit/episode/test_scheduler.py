"""The scheduler on the sample task (users User2, User1 in file order; easy: 15 rounds, interval 3).

Scripted agents and users play; each test pins one protocol rule by the exact requests made,
the committed history and the record's counters.
"""

from __future__ import annotations

from typing import Any

from runner.episode import EpisodeSettings, run_episode
from runner.episode.conversation import AGENT, Purpose, outward
from runner.loading.benchmark_data import load_task, sample_path
from tests.fixtures.scripted_players import (
    TINY_PLAN,
    AgentScript,
    ScriptedAgent,
    ScriptedUser,
    UserScript,
    by_purpose,
    call,
    plan_text,
    scripted_users,
    table_text,
    tools,
)

TASK = load_task(sample_path("task.json"), None)
OPENING = 2
TABLE: dict[str, Any] = {"User1": {"global_constraints": {"avg_budget": 3000}}}


def _play(
    script: AgentScript, users: dict[str, UserScript] | None = None, **settings: Any
) -> tuple[dict[str, Any], ScriptedAgent, dict[str, ScriptedUser]]:
    agent = ScriptedAgent(script)
    players = scripted_users(TASK, users)
    record = run_episode(TASK, None, agent, players, trial=0, settings=EpisodeSettings(**settings))
    return record, agent, players


def _turns(agent: ScriptedAgent) -> list[Purpose]:
    """The purposes of the agent's turns (first steps), summaries apart."""
    return [r.purpose for r in agent.requests if r.iteration == 1 and r.purpose is not Purpose.SUMMARY]


def _said(record: dict[str, Any]) -> list[tuple[str, str]]:
    """(role, content) of the outward messages after the opening ones."""
    return [(m["role"], m["content"]) for m in outward(record["conversation_history"])[OPENING:]]


def test_convergences_at_rounds_3_6_9_12_and_eleven_polling_laps() -> None:
    record, agent, users = _play(by_purpose({Purpose.FINAL_PLAN: ["草案一", "草案二", "草案三"]}))
    conv, turn, final = Purpose.CONVERGENCE, Purpose.TURN, Purpose.FINAL_PLAN
    assert _turns(agent) == [
        conv, turn, turn, turn, conv, turn, turn, conv, turn, turn, conv, turn, turn, conv, turn, turn,
        final, final, final,
    ]  # fmt: skip
    assert len(agent.turn_requests(Purpose.SUMMARY)) == 5
    assert (record["total_rounds"], record["total_events"]) == (15, 1 + 11 * 3 + 4 + 1)
    assert (record["completion_reason"], record["plan_generated"]) == ("max_turn_reached", False)
    assert len(users["User2"].requests) == len(users["User1"].requests) == 11
    contents = [content for _, content in _said(record)]
    assert contents[-1] == "草案三" and "草案一" not in contents and "草案二" not in contents
    assert record["total_steps"] == 1 + 5 + 11 * 3 + 4 + 3


def test_polling_skips_a_user_with_nothing_new() -> None:
    script = by_purpose({Purpose.CONVERGENCE: ["@User2 你呢？"]})
    record, _, users = _play(script, {"User2": ["我想去长隆"], "User1": ["同意"]}, max_turn=1)
    assert [r.mentioned for r in users["User2"].requests] == [True]
    assert [r.mentioned for r in users["User1"].requests] == [False]
    assert _said(record)[:4] == [
        (AGENT, "@User2 你呢？"),
        ("User2", "我想去长隆"),
        ("User1", "同意"),
        (AGENT, "好的，我再问问大家。"),
    ]
    assert (record["total_rounds"], record["total_events"]) == (1, 1 + 1 + 2 + 1)


def test_mentioned_user_is_asked_three_times_while_passing_then_consumed() -> None:
    script = by_purpose({Purpose.CONVERGENCE: ["@User1 预算能放宽吗？"]})
    record, _, users = _play(script, max_turn=1)
    asked = users["User1"].requests
    assert [(r.mentioned, r.attempt) for r in asked] == [(True, 1), (True, 2), (True, 3), (False, 1)]
    assert [(r.mentioned, r.attempt) for r in users["User2"].requests] == [(False, 1)]
    assert _said(record) == [
        (AGENT, "@User1 预算能放宽吗？"),
        (AGENT, "好的，我再问问大家。"),
        (AGENT, "好的，我再问问大家。"),
    ]
    assert record["total_events"] == 1 + 1 + 3 + 1


def test_agent_mentioning_itself_preempts_until_the_event_cap() -> None:
    record, agent, _ = _play("@Agent 我再想想", max_turn=2)
    assert record["total_rounds"] == 2
    assert record["total_events"] == 1 + 2 * 15 + 1
    turns = [r for r in agent.requests if r.purpose is Purpose.TURN]
    assert len(turns) == 30 and all(r.mentioned for r in turns)
    assert agent.turn_requests(Purpose.CONVERGENCE)[0].mentioned is False


def test_compromise_asked_by_the_agent_is_applied() -> None:
    script = by_purpose({Purpose.CONVERGENCE: ["@User2 预算能到 3600 吗？"]})
    marker = "好吧，可以。\n[global_constraints.avg_budget : 3600]"
    record, _, users = _play(script, {"User2": [marker, "[pass]"]}, max_turn=2)
    assert _said(record)[1] == ("User2", "好吧，可以。")
    assert record["effective_preferences"]["User2"]["preference"]["global_constraints"]["avg_budget"] == 3600
    assert record["original_preferences"]["User2"]["preference"]["global_constraints"]["avg_budget"] == 3200
    assert record["compromise_log"] == [
        {
            "round": 2,
            "user": "User2",
            "field_path": "global_constraints.avg_budget",
            "new_value": 3600,
            "applied": True,
        }
    ]
    first, second = users["User2"].requests
    assert (first.compromisable, first.compromises_left) == (True, 2)
    assert (second.compromisable, second.compromises_left) == (True, 1)
    assert second.preference["preference"]["global_constraints"]["avg_budget"] == 3600


def test_third_invalid_marker_is_force_applied() -> None:
    markers = [f"那就这样吧 [global_constraints.avg_budget : {budget}]" for budget in (3000, 2900, 2800)]
    record, _, users = _play("大家怎么看？", {"User1": markers}, max_turn=1)
    assert [(r.mentioned, r.attempt) for r in users["User1"].requests] == [(False, 1), (False, 2), (False, 3)]
    assert all(r.compromisable is False for r in users["User1"].requests)
    assert _said(record)[1] == ("User1", "那就这样吧")
    assert record["effective_preferences"]["User1"]["preference"]["global_constraints"]["avg_budget"] == 2800
    assert [(e["user"], e["new_value"], e["applied"]) for e in record["compromise_log"]] == [
        ("User1", 2800, True)
    ]
    assert record["total_events"] == 1 + 3 + 1


def test_changed_table_intercepts_the_agent_message_and_converges_at_once() -> None:
    script = by_purpose(
        {Purpose.TURN: [table_text(TABLE), table_text(TABLE)], Purpose.CONVERGENCE: ["开场", "汇总"]}
    )
    record, agent, _ = _play(script, {"User2": ["我想去长隆"]}, max_turn=2, convergence_interval=5)
    assert _turns(agent)[:4] == [Purpose.CONVERGENCE, Purpose.TURN, Purpose.CONVERGENCE, Purpose.TURN]
    said = _said(record)
    assert said[:3] == [(AGENT, "开场"), ("User2", "我想去长隆"), (AGENT, "汇总")]
    assert said[3] == (AGENT, table_text(TABLE))
    assert record["agent_preference_table"] == TABLE
    assert record["total_rounds"] == 2
    assert record["total_events"] == 1 + (3 + 1) + 3 + 1


def test_plan_in_the_opening_convergence_ends_the_episode_and_refreshes_the_table() -> None:
    summaries = iter(["第一次", table_text(TABLE)])
    agent = ScriptedAgent(
        by_purpose({Purpose.CONVERGENCE: [plan_text(TINY_PLAN)]}), summary=lambda _: next(summaries)
    )
    record = run_episode(TASK, None, agent, scripted_users(TASK), trial=3, settings=EpisodeSettings())
    assert (record["completion_reason"], record["plan_generated"]) == ("plan_generated", True)
    assert (record["total_rounds"], record["total_events"], record["trial_id"]) == (0, 1, 3)
    refresh = agent.turn_requests(Purpose.SUMMARY)[-1]
    assert refresh.history == outward(record["conversation_history"])[:OPENING]
    assert record["agent_preference_table"] == TABLE


def test_plan_while_polling_stops_at_once() -> None:
    script = by_purpose({Purpose.TURN: ["还要再问", plan_text(TINY_PLAN)]})
    record, _, _ = _play(script, {"User2": ["好"] * 5})
    assert (record["completion_reason"], record["plan_generated"], record["total_rounds"]) == (
        "plan_generated",
        True,
        1,
    )
    assert record["total_events"] == 1 + 3 + 3
    assert _said(record)[-1] == (AGENT, plan_text(TINY_PLAN))


def test_forced_final_plan_stops_at_the_first_plan() -> None:
    record, agent, _ = _play(by_purpose({Purpose.FINAL_PLAN: ["还没想好", plan_text(TINY_PLAN)]}), max_turn=1)
    assert _turns(agent)[-2:] == [Purpose.FINAL_PLAN, Purpose.FINAL_PLAN]
    assert (record["completion_reason"], record["plan_generated"]) == ("max_turn_reached", True)
    assert "还没想好" not in [content for _, content in _said(record)]
    assert agent.requests[-1].purpose is Purpose.SUMMARY


def test_third_identical_call_ends_with_multiple_repeated_tool_calls() -> None:
    again = tools(call("web_search", {"query": "珠海天气"}))
    record, _, _ = _play([again, "开场", again, "第一轮", again, "收尾"])
    assert (record["completion_reason"], record["plan_generated"]) == ("multiple_repeated_tool_calls", False)
    assert record["total_events"] == 1 + 3 + 3
    assert record["agent_tool_stats"]["tool_calls_executed"] == 3


class TurnKinds:
    """An agent whose turns are "flag" (the same call twice in a row: guard A) or "clean" (text)."""

    def __init__(self, *kinds: str) -> None:
        self.kinds = list(kinds)
        self.kind = "clean"
        self.turns = 0

    def __call__(self, request: Any) -> Any:
        if not request.tools:
            return "算了"
        if request.iteration == 1:
            self.kind = self.kinds.pop(0) if self.kinds else "clean"
            self.turns += 1
        if self.kind == "clean":
            return "好"
        return tools(call("web_search", {"query": f"第{self.turns}轮"}))


def test_two_consecutive_flagged_turns_end_the_episode() -> None:
    record, agent, _ = _play(TurnKinds("clean", "flag", "flag"))
    assert record["completion_reason"] == "consecutive_repeated_tool_calls"
    assert _turns(agent) == [Purpose.CONVERGENCE, Purpose.TURN, Purpose.TURN]
    assert (record["total_events"], record["plan_generated"]) == (1 + 3 + 3, False)
    reasons = [
        item["reason"] for item in record["agent_trace"] if item["type"] == "repetitive_tool_calls_detected"
    ]
    assert reasons == ["consecutive", "consecutive"]


def test_convergence_flags_neither_count_nor_reset() -> None:
    record, agent, _ = _play(TurnKinds("flag", "flag"), max_turn=2, convergence_interval=5)
    assert _turns(agent)[:3] == [Purpose.CONVERGENCE, Purpose.TURN, Purpose.TURN]
    assert record["completion_reason"] == "max_turn_reached"
    record, agent, _ = _play(TurnKinds("clean", "clean", "flag", "clean", "flag"), convergence_interval=2)
    assert _turns(agent) == [
        Purpose.CONVERGENCE,
        Purpose.TURN,
        Purpose.TURN,
        Purpose.CONVERGENCE,
        Purpose.TURN,
    ]
    assert record["completion_reason"] == "consecutive_repeated_tool_calls"


def test_a_clean_turn_resets_the_count() -> None:
    record, agent, _ = _play(TurnKinds("clean", "flag", "clean", "flag", "flag"), convergence_interval=9)
    assert _turns(agent) == [Purpose.CONVERGENCE, *[Purpose.TURN] * 4]
    assert record["completion_reason"] == "consecutive_repeated_tool_calls"


def test_self_mention_with_alternating_tables_still_closes_rounds() -> None:
    other: dict[str, Any] = {"User2": {"global_constraints": {"avg_budget": 1}}}
    tables = [f"{table_text(table)}\n@Agent" for table in (TABLE, other) * 8]
    script = by_purpose({Purpose.TURN: tables}, default="@Agent 汇总")
    record, agent, _ = _play(script, max_turn=1)
    assert record["total_rounds"] == 1
    assert record["total_events"] == 1 + 15 * 2 + 1
    assert len(agent.turn_requests(Purpose.CONVERGENCE)) == 1 + 15
