"""A Gymnasium environment for training: the policy plays the Agent of the official group chat.

`GroupTravelEnv` runs the very episode code `tripwright run` runs (`runner.episode.run_episode`,
with the same rule or LLM users) in a worker thread; the Agent of that episode is a proxy that
hands every step request to the policy and waits for its answer. So `reset` returns the first
request the engine makes, `step(action)` gives the engine the agent's step (a message and/or tool
calls) and returns when the engine asks for the next one or the episode has ended — the protocol
(tool loop, guards, interception, users, limits) is the engine's alone.

- `reset(seed=S, options={"task_id": ID, "world": World | path, "trial": T, "agent": {...}})`:
  task by id (else drawn with the env's generator), world (else the env's), trial number (0)
  and what the record says about the agent (`{"name": "gym"}`); the episode seed is S (else
  drawn). Users are made by `runner.users.registry.make_users` with that seed.
- Observation: `{task_id, purpose, turn_purpose, history, turn, table, tools, mentioned,
  iteration}` — the engine's `AgentRequest` as data (`purpose` "done" after the end, with the
  record's history and table ②). `info["request"]` is the `AgentRequest` itself, so any
  `runner.episode.conversation.Agent` can be driven (`drive`).
- Action: an `AgentStep`, a text, or `{"content": str, "tool_calls": [{"name", "arguments"}]}`
  (arguments as JSON text or an object).
- Rewards (`Rewards`), per step: `tool_call` for each tool call of the step answered without
  error; `field` for each preference field of ③ that table ② holds completely for the first time
  in the episode (the official completeness comparison, docs/official.md#scoring: a scalar equal, a list with
  every item); at the end `strict_plan` when the plan the official extraction finds verifies
  under `strict`, plus GU / GU* (`gu_ratio`: GU of the plan on ③ over the oracle's proven bound)
  of that strict-valid plan — 0 without one. `info["reward_parts"]` itemises each step's.
- `terminated` when the engine ends the episode (any completion reason); never `truncated`: the
  protocol's own limits end every episode. `info["record"]` is then the §7.8 record, byte for
  byte the record `run_episode` returns for the same inputs and seed, and `info["score"]` the
  final figures.
"""

from __future__ import annotations

import copy
import json
import queue
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium

from runner.episode import EpisodeSettings, run_episode
from runner.episode.conversation import AgentRequest, AgentStep, ToolCallRequest
from runner.episode.events import Episode
from runner.saved.rescore import score_trial
from runner.scoring.figures import gu_ratio
from runner.scoring.oracle_cache import OracleCache
from runner.users.registry import make_users
from sandbox.tools.schemas import TOOL_NAMES
from sandbox.world.official_io import export_poi_db
from sandbox.world.world import World
from verifier.errors import StructuredError
from verifier.model.task import Task
from verifier.official.completeness import evaluate_preference_completeness
from verifier.official.poi_db import PoiDb

DONE = "done"
POLICY = {"name": "gym"}
OBSERVATION_KEYS = frozenset(
    {"task_id", "purpose", "turn_purpose", "history", "turn", "table", "tools", "mentioned", "iteration"}
)


class GymInputError(StructuredError, ValueError):
    """A bad reset option or action: names the field and the problem."""


@dataclass(frozen=True)
class Rewards:
    """The turn-level reward weights; the final GU / GU* is added with weight 1."""

    tool_call: float = 0.01
    field: float = 0.05
    strict_plan: float = 0.5


class ActionSpace(gymnasium.spaces.Space[dict[str, Any]]):
    """Agent steps `{"content": str, "tool_calls": [{"name": str, "arguments": str}]}`; `sample`
    draws a random one from the space's seeded generator: half the time a chat line (a question
    @-mentioning one of the task's users, or a plain line), else one or two tool calls — a
    well-formed `search_poi` in one of the task's cities, or an official or unknown tool with
    wrong, empty or non-JSON arguments. `reset` points it at the episode's task."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed=seed)
        self.users: tuple[str, ...] = ("User1",)
        self.cities: tuple[str, ...] = ("北京市",)

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        rng = self.np_random
        if rng.random() < 0.5:
            user = str(rng.choice(self.users))
            lines = (
                f"@{user} 你的预算是多少？",
                f"@{user} 有想去的景点吗？",
                "好的，我来安排。",
                "大家还有什么要求吗？",
            )
            return {"content": str(rng.choice(lines)), "tool_calls": []}
        calls = []
        for _ in range(int(rng.integers(1, 3))):
            if rng.random() < 0.5:
                city = str(rng.choice(self.cities))
                arguments = json.dumps({"keywords": "景点", "city": city}, ensure_ascii=False)
                calls.append({"name": "search_poi", "arguments": arguments})
            else:
                name = str(rng.choice((*TOOL_NAMES, "no_such_tool")))
                calls.append({"name": name, "arguments": str(rng.choice(('{"city": 1}', "{}", "not json")))})
        return {"content": "", "tool_calls": calls}

    def contains(self, x: Any) -> bool:
        try:
            to_step(x)
        except GymInputError:
            return False
        return True


class ObservationSpace(gymnasium.spaces.Space[dict[str, Any]]):
    """The engine's step requests as data (see the module docstring)."""

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        raise NotImplementedError("observations come from the episode engine; there is nothing to sample")

    def contains(self, x: Any) -> bool:
        return isinstance(x, dict) and set(x) == OBSERVATION_KEYS and isinstance(x["history"], list)


def to_step(action: Any) -> AgentStep:
    """The engine's `AgentStep` for an action (GymInputError naming what is wrong)."""
    if isinstance(action, AgentStep):
        return action
    if isinstance(action, str):
        return AgentStep(content=action)
    if not isinstance(action, Mapping):
        raise GymInputError(
            "action", f"must be an AgentStep, a text or a mapping, not {type(action).__name__}"
        )
    content = action.get("content", "")
    if not isinstance(content, str):
        raise GymInputError("action.content", "must be text")
    raw_calls = action.get("tool_calls", [])
    if not isinstance(raw_calls, list | tuple):
        raise GymInputError("action.tool_calls", "must be a list")
    calls = []
    for number, call in enumerate(raw_calls, start=1):
        where = f"action.tool_calls[{number - 1}]"
        if not isinstance(call, Mapping) or not isinstance(call.get("name"), str):
            raise GymInputError(where, "must be a mapping with a text name")
        arguments = call.get("arguments", "{}")
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments, ensure_ascii=False)
        calls.append(ToolCallRequest(str(call.get("id") or f"gym_call_{number}"), call["name"], arguments))
    return AgentStep(content=content, tool_calls=tuple(calls))


class _AbortedError(Exception):
    """The env was reset or closed while its episode waited for the policy."""


@dataclass(frozen=True)
class _Finished:
    record: dict[str, Any]


@dataclass(frozen=True)
class _Failed:
    error: BaseException


_Event = AgentRequest | _Finished | _Failed


@dataclass
class _Channel:
    """The hand-over between the episode thread and the env: one request out, one action back."""

    requests: queue.Queue[_Event] = field(default_factory=queue.Queue)
    actions: queue.Queue[AgentStep | None] = field(default_factory=queue.Queue)


class _PolicyAgent:
    """The Agent of the engine's episode: each step is the policy's action."""

    name = "gym"

    def __init__(self, channel: _Channel, description: dict[str, Any]) -> None:
        self.channel = channel
        self.description = description

    def step(self, request: AgentRequest) -> AgentStep:
        self.channel.requests.put(request)
        action = self.channel.actions.get()
        if action is None:
            raise _AbortedError
        return action

    def describe(self) -> dict[str, Any]:
        return dict(self.description)


@dataclass
class _Progress:
    """What has been rewarded so far in the episode."""

    valid_calls: int = 0
    fields: set[tuple[str, str]] = field(default_factory=set)


class GroupTravelEnv(gymnasium.Env[dict[str, Any], dict[str, Any]]):
    """The group chat as an environment (see the module docstring).

    `tasks` by id (or any iterable of tasks), the default `world`, the `oracle` cache that gives
    GU* for the final reward (solved only for a strict-valid plan), the users' kind and model
    options, the reward weights and the protocol's limits (None: by difficulty, as `run`).
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (Gymnasium's class attribute)

    def __init__(
        self,
        tasks: Mapping[str, Task] | Iterable[Task],
        world: World,
        *,
        oracle: OracleCache,
        users: str = "rules",
        llm_options: Mapping[str, Any] | None = None,
        rewards: Rewards = Rewards(),
        max_turn: int | None = None,
        convergence_interval: int | None = None,
    ) -> None:
        self.tasks = dict(tasks) if isinstance(tasks, Mapping) else {t.task_id: t for t in tasks}
        if not self.tasks:
            raise GymInputError("tasks", "no task given")
        self.world = world
        self.oracle = oracle
        self.users = users
        self.llm_options = llm_options
        self.rewards = rewards
        self.max_turn = max_turn
        self.convergence_interval = convergence_interval
        self.actions = ActionSpace()
        self.action_space = self.actions
        self.observation_space = ObservationSpace()
        self._channel: _Channel | None = None
        self._thread: threading.Thread | None = None
        self._episode: Episode | None = None
        self._task: Task | None = None
        self._world: World = world
        self._progress = _Progress()
        self._poi_dbs: dict[tuple[str, ...], PoiDb] = {}
        self._worlds: dict[str, World] = {}

    # -- the Gymnasium API -----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        self._stop()
        options = dict(options or {})
        task = self._pick_task(options.pop("task_id", None))
        world = self._pick_world(options.pop("world", None))
        trial = options.pop("trial", 0)
        description = options.pop("agent", POLICY)
        if not isinstance(trial, int) or trial < 0:
            raise GymInputError("options.trial", f"must be a non-negative integer, not {trial!r}")
        if not isinstance(description, Mapping):
            raise GymInputError("options.agent", "must be a mapping describing the policy")
        if options:
            raise GymInputError("options", f"unknown option(s): {', '.join(sorted(options))}")
        episode_seed = seed if seed is not None else int(self.np_random.integers(2**31))
        users = make_users(self.users, task, seed=episode_seed, llm_options=self.llm_options)
        settings = EpisodeSettings(
            seed=episode_seed, max_turn=self.max_turn, convergence_interval=self.convergence_interval
        )
        channel = _Channel()
        agent = _PolicyAgent(channel, dict(description))
        self.actions.users, self.actions.cities = tuple(task.user_names), tuple(task.metadata.cities)
        self._channel, self._task, self._world, self._progress = channel, task, world, _Progress()

        def play() -> None:
            try:
                record = run_episode(
                    task, world, agent, users, trial=trial, settings=settings, observe=self._observe
                )
            except _AbortedError:
                return
            except BaseException as error:  # handed to the env's thread, raised there
                channel.requests.put(_Failed(error))
                return
            channel.requests.put(_Finished(record))

        self._thread = threading.Thread(target=play, name=f"gym-{task.task_id}", daemon=True)
        self._thread.start()
        event = self._next()
        if not isinstance(event, AgentRequest):
            raise RuntimeError("the episode ended before the agent's first step")  # unreachable: §7.3
        return self._observation(event), {"request": event, "reward_parts": {}}

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        if self._channel is None or self._thread is None or not self._thread.is_alive():
            raise GymInputError("step", "no episode in progress: call reset() first")
        self._channel.actions.put(to_step(action))
        event = self._next()
        parts = self._step_parts()
        if isinstance(event, AgentRequest):
            reward = self._weighted(parts)
            return self._observation(event), reward, False, False, {"request": event, "reward_parts": parts}
        record = event.record
        score = self._final_score(record)
        parts |= {
            "strict_plan": score["strict_valid"] is True,
            "gu_ratio": score["reward_gu_ratio"],
        }
        self._channel = None
        info = {"request": None, "reward_parts": parts, "record": record, "score": score}
        return self._final_observation(record), self._weighted(parts), True, False, info

    def close(self) -> None:
        self._stop()
        super().close()

    # -- the episode thread ------------------------------------------------------------------------

    def _observe(self, episode: Episode) -> None:
        self._episode = episode

    def _next(self) -> AgentRequest | _Finished:
        """The engine's next request, or the end of the episode (its failure is raised here)."""
        assert self._channel is not None
        event = self._channel.requests.get()
        if isinstance(event, _Failed):
            self._channel = None
            raise event.error
        return event

    def _stop(self) -> None:
        """End a running episode thread (it raises `_AbortedError` at its pending step)."""
        if self._channel is not None and self._thread is not None and self._thread.is_alive():
            self._channel.actions.put(None)
            self._thread.join()
        self._channel, self._thread, self._episode = None, None, None

    # -- rewards -----------------------------------------------------------------------------------

    def _step_parts(self) -> dict[str, Any]:
        """Valid tool calls and newly elicited fields since the last step (the engine is paused)."""
        episode = self._episode
        if episode is None:
            return {"valid_tool_calls": 0, "new_fields": []}
        valid = episode.stats.tool_calls_executed - episode.stats.tool_errors
        new_valid = valid - self._progress.valid_calls
        self._progress.valid_calls = valid
        held = elicited_fields(episode.table, episode.tracker.effective)
        new = sorted(held - self._progress.fields)
        self._progress.fields |= held
        return {"valid_tool_calls": new_valid, "new_fields": [f"{user}:{path}" for user, path in new]}

    def _weighted(self, parts: Mapping[str, Any]) -> float:
        weights = self.rewards
        reward = weights.tool_call * parts["valid_tool_calls"] + weights.field * len(parts["new_fields"])
        if parts.get("strict_plan"):
            reward += weights.strict_plan
        return float(reward + (parts.get("gu_ratio") or 0.0))

    def _final_score(self, record: dict[str, Any]) -> dict[str, Any]:
        """Strict validity and GU of the record's plan; GU*, GU / GU* for a strict-valid one."""
        assert self._task is not None
        task, world = self._task, self._world
        scores = score_trial(record, task, self._poi_db(task, world), world)
        strict_valid = _validity(scores.strict or {})
        gu = _total(scores.official)
        gu_star = ratio = None
        if strict_valid is True:
            solved = self.oracle.solve(task, world, record["effective_preferences"])
            gu_star = None if solved.record is None else solved.record.get("bound")
            ratio = gu_ratio(gu, gu_star)
        return {
            "strict_valid": strict_valid,
            "strict_failed_checks": list(scores.strict_failed_checks),
            "gu": gu,
            "gu_star": gu_star,
            "gu_ratio": ratio,
            "reward_gu_ratio": ratio if ratio is not None else 0.0,
        }

    def _poi_db(self, task: Task, world: World) -> PoiDb:
        cities = (task.metadata.departure_city, *task.metadata.cities)
        if world is not self.world:  # a world given at reset: its file is built for this episode
            return PoiDb(export_poi_db(world, cities))
        if cities not in self._poi_dbs:
            self._poi_dbs[cities] = PoiDb(export_poi_db(world, cities))
        return self._poi_dbs[cities]

    # -- observations and options ------------------------------------------------------------------

    def _observation(self, request: AgentRequest) -> dict[str, Any]:
        assert self._task is not None
        return {
            "task_id": self._task.task_id,
            "purpose": request.purpose.value,
            "turn_purpose": None if request.turn_purpose is None else request.turn_purpose.value,
            "history": copy.deepcopy(request.history),
            "turn": copy.deepcopy(request.turn),
            "table": copy.deepcopy(request.table),
            "tools": request.tools,
            "mentioned": request.mentioned,
            "iteration": request.iteration,
        }

    def _final_observation(self, record: dict[str, Any]) -> dict[str, Any]:
        return {
            "task_id": record["task_id"],
            "purpose": DONE,
            "turn_purpose": None,
            "history": copy.deepcopy(record["conversation_history"]),
            "turn": [],
            "table": copy.deepcopy(record["agent_preference_table"]),
            "tools": False,
            "mentioned": False,
            "iteration": 0,
        }

    def _pick_task(self, task_id: Any) -> Task:
        if task_id is None:
            ids = list(self.tasks)
            return self.tasks[ids[int(self.np_random.integers(len(ids)))]]
        if task_id not in self.tasks:
            raise GymInputError("options.task_id", f"unknown task {task_id!r}")
        return self.tasks[task_id]

    def _pick_world(self, world: Any) -> World:
        if world is None:
            return self.world
        if isinstance(world, World):
            return world
        if isinstance(world, str | Path):
            from runner.loading.benchmark_data import load_sandbox_world

            key = str(world)
            if key not in self._worlds:
                self._worlds[key] = load_sandbox_world(world)
            return self._worlds[key]
        raise GymInputError("options.world", "must be a World or the path of a world directory")


def elicited_fields(table: Any, effective: Mapping[str, Any]) -> set[tuple[str, str]]:
    """(user, field path) of every field of ③ that table ② holds completely, by the official
    completeness comparison (a table it cannot read holds none)."""
    try:
        result = evaluate_preference_completeness(table if isinstance(table, dict) else {}, dict(effective))
    except (AttributeError, TypeError):
        return set()
    return {
        (user, detail["field_path"])
        for user, scores in result["per_user"].items()
        for detail in scores["details"]
        if detail["collected"] == detail["possible"]
    }


def drive(
    env: GroupTravelEnv, agent: Any, *, seed: int, options: dict[str, Any]
) -> tuple[float, dict[str, Any]]:
    """Play one episode of `env` with a `runner.episode.conversation.Agent` (its `step` on each request);
    (the summed reward, the last step's info)."""
    _, info = env.reset(seed=seed, options=options)
    total = 0.0
    while True:
        _, reward, terminated, truncated, info = env.step(agent.step(info["request"]))
        total += float(reward)
        if terminated or truncated:
            return total, info


def _validity(scores: Mapping[str, Any]) -> bool | None:
    validity = scores.get("plan_validity")
    found = validity.get("valid") if isinstance(validity, dict) else None
    return found if isinstance(found, bool) else None


def _total(scores: Mapping[str, Any]) -> float | None:
    utility = scores.get("group_utility")
    found = utility.get("total_score") if isinstance(utility, dict) else None
    return float(found) if isinstance(found, int | float) and not isinstance(found, bool) else None
