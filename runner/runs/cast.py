"""The cast of a trial: the named agent (planning with the cached oracle) and one simulated user
per traveller from their registries, both seeded with the trial's seed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from runner.agents.registry import make_agent
from runner.episode.conversation import Agent, User
from runner.runs.config import ModelOptions, RunConfig
from runner.runs.planner import CachedOraclePlanner
from runner.scoring.oracle_cache import OracleCache
from runner.users.registry import make_users
from sandbox.world.world import World
from verifier.model.task import Task


@dataclass(frozen=True)
class Cast:
    """Who plays a trial: the agent and the simulated users by name."""

    agent: Agent
    users: Mapping[str, User]


class CastJob(Protocol):
    """What a cast is built from: the run's config and its oracle cache (a `RunJob` has both)."""

    @property
    def config(self) -> RunConfig: ...

    @property
    def oracle(self) -> OracleCache: ...


class CastBuilder(Protocol):
    """Builds a fresh cast for one attempt of a trial."""

    def __call__(self, job: CastJob, task: Task, world: World, seed: int) -> Cast: ...


def model_options(model: ModelOptions, seed: int, *, users: bool = False) -> dict[str, Any] | None:
    """The endpoint as the registries take it (`LLMConfig.from_options` names; a missing base URL
    or model is left out for the client to name); None when no endpoint was given. The
    temperature is the agent's: LLM users keep the client's default (0.0, the official users')."""
    if model.base_url is None and model.model is None:
        return None
    temperature = None if users else model.temperature
    given = {"base_url": model.base_url, "model": model.model, "temperature": temperature}
    options = {name: value for name, value in given.items() if value is not None}
    return options | {"api_key_env": model.api_key_env, "seed": seed}


def build_cast(job: CastJob, task: Task, world: World, seed: int) -> Cast:
    """The agent and users of one attempt of a trial, from the registries."""
    config = job.config
    options = model_options(config.model, seed)
    planner = CachedOraclePlanner(job.oracle, world)
    agent = make_agent(
        config.agent, task=task, world=world, planner=planner, seed=seed, openai_options=options
    )
    return Cast(agent, make_users(config.users, task, seed=seed, llm_options=options))
