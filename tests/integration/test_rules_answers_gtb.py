"""Every GroupTravelBench user's full answer to the scripted question reads back into exactly
that user's preferences (the rule user's phrasing contract, on the real vocabulary)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from runner.agents.elicit import interview, question
from runner.agents.vocab import Vocabulary
from runner.episode.conversation import UserRequest, message
from runner.users.rules import RulesUser
from runner.users.topics import empty_preference
from sandbox.world.build import build_world
from verifier.model.task import Task

pytestmark = pytest.mark.shared


def _expected(preference: dict[str, Any], cities: list[str]) -> dict[str, Any]:
    """The user's table in the agent's shape: every task city present, empty when unmentioned."""
    table = empty_preference(cities)
    table["global_constraints"] = preference["global_constraints"]
    table["city_specific_preferences"].update(preference["city_specific_preferences"])
    return table


def test_every_gtb_answer_reads_back_exactly(shared_dir: Path) -> None:
    lines = (shared_dir / "gtb" / "tasks.jsonl").read_text(encoding="utf-8").splitlines()
    raw_tasks = [json.loads(line) for line in lines]
    world = build_world(raw_tasks, 1)
    wrong: list[str] = []
    for raw in raw_tasks:
        task = Task.model_validate(raw)
        cities = list(task.metadata.cities)
        vocab = Vocabulary.of(world, cities)
        for user in task.user_names:
            slot = raw["user_preferences"][user]
            asked = message("Agent", question(user, cities), has_tool_calls=False)
            request = UserRequest(user, task, [asked], slot, True, 2, mentioned=True)
            answer = message(user, RulesUser(user, task, seed=7).reply(request).content)
            table = interview([asked, answer], task.user_names, cities, vocab).table
            if table[user] != _expected(slot["preference"], cities):
                wrong.append(f"{task.task_id}/{user}")
    assert wrong == []
