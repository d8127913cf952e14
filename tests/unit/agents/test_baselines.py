"""The baseline agents: plans detectable as §1.2 plans, tables ② in the accepted shape, the
scripted interview recovering the sample's table, and the final-plan deadline."""

from __future__ import annotations

import json
from typing import Any

import pytest

from runner.agents.baselines import (
    NO_PLAN,
    GreedyPlanner,
    OracleAgent,
    ScriptedAgent,
    SilentAgent,
    describe_planner,
    oracle_planner,
    plan_message,
)
from runner.episode.conversation import AgentRequest, AgentStep, Entry, Purpose, Usage, UserRequest, message
from runner.episode.mentions import last_mention
from runner.episode.table import extract_table
from runner.users.rules import RulesUser
from solver.greedy import greedy_plan
from solver.oracle.result import OracleResult, Status
from solver.oracle.solve import OracleSettings
from tests.fixtures.sample_game import opening, sample_raw, sample_task, sample_world
from verifier.model.task import Task
from verifier.official.extraction import check_is_travel_plan

ZH = "珠海市"
TRUTH = {user: slot["preference"] for user, slot in sample_raw()["user_preferences"].items()}


class CountingPlanner:
    """The greedy planner, remembering the tables it was asked to plan for."""

    def __init__(self) -> None:
        self.tables: list[dict[str, Any]] = []

    def __call__(self, task: Task, table: dict[str, Any]) -> dict[str, Any] | None:
        self.tables.append(table)
        return greedy_plan(task, sample_world(), effective=table)


def _step(agent: Any, purpose: Purpose, history: list[Entry]) -> AgentStep:
    step: AgentStep = agent.step(AgentRequest(purpose, sample_task(), history))
    return step


def test_oracle_plans_for_the_true_table_at_once() -> None:
    planner = CountingPlanner()
    agent = OracleAgent(sample_task(), planner, seed=5)
    step = _step(agent, Purpose.CONVERGENCE, opening())
    assert check_is_travel_plan(step.content) == greedy_plan(sample_task(), sample_world())
    assert planner.tables == [sample_task().preference_table()]
    assert extract_table(_step(agent, Purpose.SUMMARY, opening()).content) == TRUTH
    assert step.usage == Usage() and step.tool_calls == ()
    assert agent.describe() == {
        "name": "oracle",
        "seed": 5,
        "tools": False,
        "planner": {"name": "CountingPlanner"},
    }


def test_silent_plans_for_what_the_openings_say() -> None:
    planner = CountingPlanner()
    agent = SilentAgent(sample_task(), planner, sample_world(), seed=0)
    summary = extract_table(_step(agent, Purpose.SUMMARY, opening()).content)
    assert summary is not None
    assert summary["User1"]["global_constraints"]["avg_budget"] == 3200
    assert summary["User1"]["global_constraints"]["transport"] == {
        "must": ["飞机"],
        "prefer": [],
        "avoid": ["火车"],
        "reject": [],
    }
    assert summary["User2"]["global_constraints"]["intensity"] == {
        "max_poi_per_day": 2,
        "max_active_hours": 0,
    }
    assert summary["User2"]["city_specific_preferences"][ZH]["food"] == {
        "must_eat": ["海鲜火锅"],
        "prefer_eat": [],
        "avoid_eat": [],
        "reject_eat": ["川菜"],
    }
    first = _step(agent, Purpose.CONVERGENCE, opening())
    assert check_is_travel_plan(first.content) is not None
    assert _step(agent, Purpose.TURN, opening()).content == first.content
    assert planner.tables == [summary]


def _converse(agent: ScriptedAgent, purposes: list[Purpose]) -> tuple[list[Entry], list[str]]:
    """Agent step → the mentioned rule user's reply, until a plan; returns history and speakers."""
    users = {name: RulesUser(name, sample_task(), seed=2) for name in sample_task().user_names}
    raw = sample_raw()["user_preferences"]
    history: list[Entry] = list(opening())
    speakers: list[str] = []
    for purpose in purposes:
        text = _step(agent, purpose, history).content
        history.append(message("Agent", text, has_tool_calls=False))
        speakers.append("Agent")
        if check_is_travel_plan(text) is not None:
            break
        target = last_mention(text, [*users, "Agent"])
        assert target is not None
        slot = raw[target]
        request = UserRequest(
            target, sample_task(), list(history), slot, slot["compromisable"], 2, mentioned=True
        )
        history.append(message(target, users[target].reply(request).content, has_tool_calls=False))
        speakers.append(target)
    return history, speakers


def test_scripted_asks_each_user_once_then_plans_for_the_true_table() -> None:
    planner = CountingPlanner()
    agent = ScriptedAgent(sample_task(), planner, sample_world(), seed=0)
    history, speakers = _converse(agent, [Purpose.CONVERGENCE] + [Purpose.TURN] * 5)
    assert speakers == ["Agent", "User2", "Agent", "User1", "Agent"]
    assert history[len(opening())]["content"].startswith("@User2 ")
    assert check_is_travel_plan(history[-1]["content"]) is not None
    assert planner.tables == [TRUTH]
    assert extract_table(_step(agent, Purpose.SUMMARY, history).content) == TRUTH


def test_scripted_plans_at_the_final_plan_request_whatever_it_knows() -> None:
    planner = CountingPlanner()
    agent = ScriptedAgent(sample_task(), planner, sample_world(), seed=0)
    history, speakers = _converse(agent, [Purpose.CONVERGENCE, Purpose.FINAL_PLAN])
    assert speakers == ["Agent", "User2", "Agent"]
    assert check_is_travel_plan(history[-1]["content"]) is not None
    assert planner.tables[0]["User2"] == TRUTH["User2"]
    assert planner.tables[0]["User1"]["city_specific_preferences"][ZH]["attractions"]["must_visit"] == [
        "珠海普陀寺"
    ]


def test_no_plan_is_said_plainly() -> None:
    agent = OracleAgent(sample_task(), lambda task, table: None, seed=0)
    step = _step(agent, Purpose.TURN, opening())
    assert step.content == NO_PLAN == plan_message(None)
    assert check_is_travel_plan(step.content) is None


def test_plan_message_fences_the_json() -> None:
    plan = {"days": [{"day": 1, "city_segments": [{"city": ZH, "activities": []}]}]}
    text = plan_message(plan)
    assert text.splitlines()[1:] == ["```json", json.dumps(plan, ensure_ascii=False), "```"]
    assert check_is_travel_plan(text) == plan


def test_oracle_planner_returns_the_oracles_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, dict[str, Any] | None, float]] = []

    def fake_solve(
        task: Task, world: Any, settings: OracleSettings, *, table: dict[str, Any] | None = None
    ) -> Any:
        calls.append((task.task_id, table, settings.time_limit))
        return OracleResult(
            task.task_id, Status.OPTIMAL, 1, 1, {}, {"days": []}, 0.0, 0, 1, 1.0, 0.0, True, 0, "cp-sat"
        )

    monkeypatch.setattr("runner.agents.baselines.solve_task", fake_solve)
    planner = oracle_planner(sample_world(), OracleSettings(time_limit=3.0, seed=9))
    assert planner(sample_task(), TRUTH) == {"days": []}
    assert calls == [("task_004175", TRUTH, 3.0)]
    assert describe_planner(planner) == {"name": "oracle", "time_limit": 3.0, "seed": 9}
    assert describe_planner(GreedyPlanner(sample_world())) == {"name": "greedy"}
