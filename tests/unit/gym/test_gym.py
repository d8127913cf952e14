"""The training gym (runner/gym/) on the sample task (world seed 1, rule users, oracle 1 s in
one cache for the module): the scripted agent driven through the gym reaches the record
`tripwright run` writes; random actions reach the record the engine gives for the same steps;
the openai agent against the fake server; rewards; Gymnasium's own checker; bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gymnasium.utils.env_checker import check_env

from runner.agents.openai_agent import OpenAIAgent
from runner.agents.registry import make_agent
from runner.episode import COMPLETION_REASONS, EpisodeSettings, run_episode, without_wall_clock
from runner.episode.conversation import AgentRequest, AgentStep
from runner.gym import GroupTravelEnv, GymInputError, Rewards, drive, elicited_fields, to_step
from runner.llm.config import LLMConfig
from runner.loading.benchmark_data import load_sandbox_world, load_task, sample_path
from runner.runs.config import RunConfig
from runner.runs.planner import CachedOraclePlanner
from runner.runs.run import run_trials
from runner.runs.tasks import read_run_tasks
from runner.runs.trial import RunJob
from runner.scoring.figures import gu_ratio
from runner.scoring.oracle_cache import OracleCache, world_hash
from runner.users.registry import make_users
from sandbox.world.build import build_world
from solver.greedy import greedy_plan
from solver.oracle.solve import OracleSettings
from tests.fixtures.fake_openai import Scripted, calls, fake_openai, text
from tests.unit.runs.conftest import SAMPLE, read_lines, write_tasks
from verifier.model.task import Task

TASK_ID = SAMPLE["task_id"]
RUN_ONLY = ("task_index", "attempts", "config_hash")


@pytest.fixture(scope="module")
def world_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gym") / "world"
    build_world([SAMPLE], seed=1).save(root)
    return root


@pytest.fixture(scope="module")
def oracle(world_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> OracleCache:
    cache = tmp_path_factory.mktemp("gym-oracle")
    return OracleCache(cache, world_hash(world_dir), OracleSettings(time_limit=1.0))


@pytest.fixture(scope="module")
def env(world_dir: Path, oracle: OracleCache) -> GroupTravelEnv:
    return GroupTravelEnv(
        [load_task(sample_path("task.json"), None)], load_sandbox_world(world_dir), oracle=oracle
    )


def _task(env: GroupTravelEnv) -> Task:
    return env.tasks[TASK_ID]


def test_scripted_agent_through_the_gym_reaches_the_run_record(
    env: GroupTravelEnv, world_dir: Path, oracle: OracleCache, tmp_path: Path
) -> None:
    tasks = read_run_tasks(write_tasks(tmp_path / "t.jsonl", SAMPLE)).runnable
    config = RunConfig(agent="scripted", oracle_time_limit=1.0, world_hash=world_hash(world_dir))
    out = tmp_path / "runs.jsonl"
    run_trials(RunJob(config, str(world_dir), oracle), tasks, trials=1, out=out)
    (line,) = read_lines(out)
    planner = CachedOraclePlanner(oracle, env.world)
    agent = make_agent("scripted", task=_task(env), world=env.world, planner=planner, seed=line["seed"])
    options = {"task_id": TASK_ID, "trial": 0, "agent": agent.describe()}
    total, info = drive(env, agent, seed=line["seed"], options=options)
    expected = without_wall_clock({k: v for k, v in line.items() if k not in RUN_ONLY})
    assert without_wall_clock({k: v for k, v in info["record"].items() if k != "task_index"}) == expected
    score = info["score"]
    assert score["strict_valid"] is True
    assert score["gu_ratio"] == gu_ratio(score["gu"], score["gu_star"])
    assert 0 < score["gu_ratio"] <= 1
    assert info["reward_parts"]["strict_plan"] is True
    assert info["reward_parts"]["gu_ratio"] == score["gu_ratio"]
    assert total >= Rewards().strict_plan + score["gu_ratio"]


class Replay:
    """An agent that answers with recorded steps, in order."""

    name = "replay"

    def __init__(self, steps: list[AgentStep]) -> None:
        self.steps = list(steps)

    def step(self, request: AgentRequest) -> AgentStep:
        return self.steps.pop(0)

    def describe(self) -> dict[str, Any]:
        return {"name": "gym"}


def test_random_actions_reach_the_engine_record_and_rewards_add_up(
    world_dir: Path, oracle: OracleCache
) -> None:
    world = load_sandbox_world(world_dir)
    task = load_task(sample_path("task.json"), None)
    env = GroupTravelEnv([task], world, oracle=oracle, max_turn=2)
    env.action_space.seed(7)
    observation, info = env.reset(seed=11)
    assert observation["purpose"] == "summary" and env.observation_space.contains(observation)
    actions, rewards, valid_calls, fields = [], [], 0, 0
    for _ in range(500):
        action = env.action_space.sample()
        actions.append(to_step(action))
        observation, reward, terminated, truncated, info = env.step(action)
        rewards.append(float(reward))
        valid_calls += info["reward_parts"]["valid_tool_calls"]
        fields += len(info["reward_parts"]["new_fields"])
        if terminated:
            break
    assert terminated and not truncated
    record = info["record"]
    assert record["completion_reason"] in COMPLETION_REASONS
    assert observation["purpose"] == "done"
    stats = record["agent_tool_stats"]
    assert valid_calls == stats["tool_calls_executed"] - stats["tool_errors"]
    assert stats["tool_errors"] > 0 and valid_calls > 0
    users = make_users("rules", task, seed=11)
    replayed = run_episode(
        task, world, Replay(actions), users, trial=0, settings=EpisodeSettings(seed=11, max_turn=2)
    )
    assert without_wall_clock(record) == without_wall_clock(replayed)
    parts = info["reward_parts"]
    assert (parts["strict_plan"], parts["gu_ratio"]) == (False, 0.0)
    assert sum(rewards) == pytest.approx(0.01 * valid_calls + 0.05 * fields)


def test_openai_agent_through_the_gym_with_the_fake_server(env: GroupTravelEnv) -> None:
    task = _task(env)
    plan = greedy_plan(task, env.world)
    search = json.dumps({"keywords": "长隆海洋王国", "city": "珠海市"}, ensure_ascii=False)
    table = task.preference_table()
    inferred = {user: entry["preference"] for user, entry in table.items()}

    def respond(body: dict[str, Any]) -> Scripted:
        if "tools" not in body:  # a summary: the whole table ③
            return text(json.dumps(inferred, ensure_ascii=False))
        if body["messages"][-1]["role"] == "tool":
            return text("方案如下：\n```json\n" + json.dumps(plan, ensure_ascii=False) + "\n```")
        return calls(("search_poi", search))

    with fake_openai(respond=respond) as server:
        agent = OpenAIAgent(LLMConfig(base_url=server.base_url, model="fake-model", seed=5))
        _, first = env.reset(seed=5, options={"task_id": TASK_ID})
        summary = env.step(agent.step(first["request"]))
        tool = env.step(agent.step(summary[4]["request"]))
        plan_step = env.step(agent.step(tool[4]["request"]))  # the plan; then the post-plan summary
        _, reward, terminated, _, info = env.step(agent.step(plan_step[4]["request"]))
    assert [first["request"].purpose, summary[0]["purpose"], tool[0]["purpose"], plan_step[0]["purpose"]] == [
        "summary",
        "convergence",
        "convergence",
        "summary",
    ]
    fields = summary[4]["reward_parts"]["new_fields"]
    assert len(fields) == len(elicited_fields(inferred, table)) == 26
    assert summary[1] == pytest.approx(0.05 * 26)
    assert tool[4]["reward_parts"] == {"valid_tool_calls": 1, "new_fields": []}
    assert tool[1] == pytest.approx(0.01)
    assert (plan_step[1], plan_step[2]) == (0.0, False)
    assert terminated and info["record"]["completion_reason"] == "plan_generated"
    assert info["score"]["strict_valid"] is True
    assert float(reward) == pytest.approx(0.5 + info["score"]["gu_ratio"])


def test_elicited_fields_by_the_official_comparison() -> None:
    table = {
        "U": {"preference": {"global_constraints": {"avg_budget": 3000, "transport": {"must": ["高铁"]}}}}
    }
    inferred = {"U": {"global_constraints": {"avg_budget": 3000, "transport": {"must": []}}}}
    assert elicited_fields(inferred, table) == {("U", "global_constraints.avg_budget")}
    assert elicited_fields({}, table) == set()
    assert elicited_fields({"U": {"global_constraints": "x"}}, table) == set()


def test_gymnasium_checker_accepts_the_env(env: GroupTravelEnv) -> None:
    check_env(env, skip_render_check=True)


def test_a_world_directory_at_reset(env: GroupTravelEnv, world_dir: Path) -> None:
    observation, info = env.reset(seed=1, options={"task_id": TASK_ID, "world": str(world_dir)})
    assert observation["purpose"] == "summary" and info["request"].task.task_id == TASK_ID
    assert env._world is not env.world
    with pytest.raises(GymInputError) as caught:
        env.reset(seed=1, options={"world": 3})
    assert caught.value.field == "options.world"
    env.close()


def test_bad_input_names_the_field(env: GroupTravelEnv) -> None:
    fresh = GroupTravelEnv(env.tasks, env.world, oracle=env.oracle)
    with pytest.raises(GymInputError, match=r"^step: no episode in progress"):
        fresh.step("你好")
    with pytest.raises(GymInputError) as caught:
        fresh.reset(seed=0, options={"task_id": "nope"})
    assert caught.value.field == "options.task_id"
    with pytest.raises(GymInputError, match=r"^options: unknown option"):
        fresh.reset(seed=0, options={"task_id": TASK_ID, "colour": 1})
    fresh.reset(seed=0, options={"task_id": TASK_ID})
    for action, where in [
        (3, "action"),
        ({"content": 1}, "action.content"),
        ({"tool_calls": [1]}, "action.tool_calls[0]"),
    ]:
        with pytest.raises(GymInputError) as caught:
            fresh.step(action)
        assert caught.value.field == where
    thread = fresh._thread
    fresh.reset(seed=0, options={"task_id": TASK_ID})  # the waiting episode is ended, not leaked
    assert thread is not None and not thread.is_alive()
    fresh.close()
    assert fresh._thread is None
