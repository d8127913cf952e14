"""Variants and what the episode and scoring make of them: unsolvable wishes, transitions, shifts."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from runner.agents.baselines import GreedyPlanner
from runner.agents.registry import make_agent
from runner.cli.app import app
from runner.episode import EpisodeInputError, EpisodeSettings, run_episode
from runner.episode.conversation import UserRequest, message
from runner.scoring.episode_measures import episode_measures
from runner.tasks.certificates import budget_certificate, no_service_certificate
from runner.tasks.variants import derive, shift_variant, transition_variant, unsolvable_variant
from runner.users.registry import make_users
from runner.users.rules import CHANGE_LEAD, RulesUser
from sandbox.world.official_io import export_poi_db
from tests.fixtures.sample_game import sample_raw, sample_task, sample_world
from verifier.model.task import Task
from verifier.official.poi_db import PoiDb

RUN = CliRunner()
MUST = "city_specific_preferences.珠海市.attractions.must_visit"


def _poi_db() -> PoiDb:
    return PoiDb(export_poi_db(sample_world(), ("合肥市", "珠海市")))


def _play(raw: dict[str, Any], agent: str) -> tuple[Task, dict[str, Any]]:
    task, world = Task.model_validate(raw), sample_world()
    player = make_agent(agent, task=task, world=world, planner=GreedyPlanner(world), seed=0)
    users = make_users("rules", task, seed=0)
    return task, run_episode(task, world, player, users, trial=0, settings=EpisodeSettings(seed=0))


def test_unsolvable_variant_sets_the_wish_and_carries_the_certificate() -> None:
    task, world = sample_task(), sample_world()
    certificate = no_service_certificate(task, world)
    assert certificate is not None
    raw = unsolvable_variant(task, certificate)
    assert raw["task_id"] == "task_004175~no_service"
    transport = raw["user_preferences"]["User2"]["preference"]["global_constraints"]["transport"]
    assert transport["must"] == ["高铁"] and "高铁" not in transport.get("reject", [])
    assert raw["metadata"]["unsolvable"] == certificate.as_dict()
    assert raw["initial_messages"] == sample_raw()["initial_messages"]
    assert sample_task().preference_table() == sample_raw()["user_preferences"]  # the task is untouched


def test_scripted_refuses_with_the_reason_silent_and_random_plan() -> None:
    certificate = budget_certificate(sample_task(), sample_world())
    assert certificate is not None
    raw = unsolvable_variant(sample_task(), certificate)
    outcomes = {}
    for agent in ("scripted", "silent", "random"):
        task, record = _play(raw, agent)
        outcomes[agent] = episode_measures(record, task, _poi_db())["unsolvable"]
    assert outcomes["scripted"] == {
        "kind": "budget",
        "when": "start",
        "reached": True,
        "planned": False,
        "refused": True,
        "reason_named": True,
        "correct": True,
    }
    for agent in ("silent", "random"):
        assert outcomes[agent]["planned"] is True and outcomes[agent]["correct"] is False


def test_a_transition_changes_the_table_at_its_event_and_the_user_announces_it() -> None:
    task = sample_task()
    certificate = no_service_certificate(task, sample_world())
    assert certificate is not None
    variant, record = _play(transition_variant(task, certificate, 3), "scripted")
    assert variant.preference_table()["User2"]["preference"]["global_constraints"]["transport"]["must"] == [
        "飞机"
    ]
    assert record["effective_preferences"]["User2"]["preference"]["global_constraints"]["transport"][
        "must"
    ] == ["高铁"]
    assert record["intent_shifts"] == [
        {
            "event": 6,  # User2's first turn to speak from event 3 on
            "user": "User2",
            "field_path": "global_constraints.transport.must",
            "old_value": ["飞机"],
            "new_value": ["高铁"],
            "applied": True,
        }
    ]
    said = [e["content"] for e in record["conversation_history"] if e.get("role") == "User2"]
    assert any(text.startswith(CHANGE_LEAD) and "高铁" in text for text in said)
    assert record["compromise_log"] == []
    measures = episode_measures(record, variant, _poi_db())
    assert measures["unsolvable"]["when"] == "transition" and measures["unsolvable"]["correct"] is True


def test_a_shift_the_episode_never_reaches_is_recorded_as_not_applied() -> None:
    raw = shift_variant(sample_task(), sample_world(), 10_000)
    assert raw is not None
    task, record = _play(raw, "silent")
    assert record["intent_shifts"][0]["applied"] is False and record["intent_shifts"][0]["event"] is None
    assert episode_measures(record, task, _poi_db())["intent_shift"] == {
        "applied": False,
        "heard": None,
        "planned": True,
        "followed": None,
    }


def test_scripted_follows_a_must_visit_shift() -> None:
    raw = shift_variant(sample_task(), sample_world(), 3)
    assert raw is not None
    assert raw["metadata"]["intent_shift"] == {
        "user": "User2",
        "field_path": MUST,
        "value": ["凌云滨海公园"],
        "at_event": 3,
    }
    task, record = _play(raw, "scripted")
    assert record["effective_preferences"]["User2"]["preference"]["city_specific_preferences"]["珠海市"][
        "attractions"
    ]["must_visit"] == ["凌云滨海公园"]
    assert episode_measures(record, task, _poi_db())["intent_shift"] == {
        "applied": True,
        "heard": True,
        "planned": True,
        "followed": True,
    }


@pytest.mark.parametrize(
    ("shift", "field"),
    [
        ("nope", "metadata.intent_shift"),
        ({"user": "User9", "field_path": MUST, "value": [], "at_event": 1}, "metadata.intent_shift.user"),
        ({"user": "User2", "field_path": "", "value": [], "at_event": 1}, "metadata.intent_shift.field_path"),
        (
            {"user": "User2", "field_path": MUST, "value": [], "at_event": -1},
            "metadata.intent_shift.at_event",
        ),
        ({"user": "User2", "field_path": MUST, "at_event": 1}, "metadata.intent_shift.value"),
    ],
)
def test_a_malformed_shift_is_an_input_error_naming_the_field(shift: Any, field: str) -> None:
    raw = sample_raw()
    raw["metadata"]["intent_shift"] = shift
    with pytest.raises(EpisodeInputError) as caught:
        _play(raw, "silent")
    assert caught.value.field == field


def test_derive_counts_by_kind_in_order() -> None:
    variants, counts = derive(
        [sample_task()], sample_world(), kinds=["no_service", "budget", "closed"], at_event=2, shifts=False
    )
    assert counts == {"budget": 1, "closed": 0, "no_service": 1, "none": 0}
    assert [v["task_id"] for v in variants] == [
        "task_004175~budget",
        "task_004175~budget@2",
        "task_004175~no_service",
        "task_004175~no_service@2",
    ]


def test_cli_writes_variants_and_refuses_bad_options(tmp_path: Path) -> None:
    world = tmp_path / "world"
    sample_world().save(world)
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(json.dumps(sample_raw(), ensure_ascii=False) + "\n", encoding="utf-8")
    out = tmp_path / "v.jsonl"
    args = ["tasks", "infeasible", "--tasks", str(tasks), "--world", str(world), "--out", str(out), "--json"]
    result = RUN.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["by_kind"] == {"budget": 1, "closed": 0, "no_service": 1, "none": 0}
    assert len(out.read_text(encoding="utf-8").splitlines()) == 4
    shifts = RUN.invoke(
        app, ["tasks", "shifts", "--tasks", str(tasks), "--world", str(world), "--out", str(out)]
    )
    assert shifts.exit_code == 0 and "1 variants of 1 tasks" in shifts.output
    bad = RUN.invoke(app, [*args[:-1], "--kind", "weather"])
    assert bad.exit_code == 2 and "--kind: unknown weather" in bad.output
    negative = RUN.invoke(app, [*args[:-1], "--at-event", "-1"])
    assert negative.exit_code == 2 and "--at-event: must be 0 or more" in negative.output


def test_a_rule_user_announces_a_change_once_and_still_answers_the_question() -> None:
    task = sample_task()
    certificate = no_service_certificate(task, sample_world())
    assert certificate is not None
    variant = Task.model_validate(transition_variant(task, certificate, 0))
    slot = copy.deepcopy(variant.preference_table()["User2"])
    slot["preference"]["global_constraints"]["transport"]["must"] = ["高铁"]
    user = RulesUser("User2", variant, seed=0, volunteer_rate=0.0)
    earlier = [message("User2", "高铁尽量别安排。", has_tool_calls=False)]  # 高铁 said, but not as the change
    question = message("Agent", "@User2 你的人均预算大概多少？", has_tool_calls=False)

    def ask(history: list[Any]) -> str:
        request = UserRequest(
            "User2", variant, history, slot, compromisable=False, compromises_left=0, mentioned=True
        )
        return user.reply(request).content

    first = ask([*earlier, question])
    assert first.startswith(CHANGE_LEAD) and "高铁" in first and "人均" in first and "3200" in first
    again = ask([*earlier, question, message("User2", first, has_tool_calls=False), question])
    assert not again.startswith(CHANGE_LEAD) and "3200" in again
