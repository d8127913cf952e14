"""Agents by name: `make_agent("scripted", task=…, world=…, planner=…, seed=…)`.

`AGENT_FACTORIES` is the extension point: a new agent kind is one entry, a function taking the
keyword arguments of `make_agent` and returning an `Agent`. An unknown name, or a name whose
factory lacks what it needs (a world, a planner), is an `AgentSetupError` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from runner.agents.baselines import OracleAgent, Planner, ScriptedAgent, SilentAgent
from runner.agents.openai_agent import OpenAIAgent
from runner.agents.random_agent import RandomAgent
from runner.episode.conversation import Agent
from runner.llm.config import LLMConfig, LLMConfigError
from sandbox.world.world import World
from verifier.errors import StructuredError
from verifier.model.task import Task


class AgentSetupError(StructuredError, ValueError):
    """An agent that cannot be made: `field` names the argument, `problem` says why."""


class AgentFactory(Protocol):
    """Makes one agent for one task from `make_agent`'s keyword arguments."""

    def __call__(
        self,
        *,
        task: Task,
        world: World | None,
        planner: Planner | None,
        seed: int,
        openai_options: Mapping[str, Any] | None,
    ) -> Agent: ...


def _planner(planner: Planner | None, name: str) -> Planner:
    if planner is None:
        raise AgentSetupError("planner", f"the {name} agent plans with a planner; none was given")
    return planner


def _world(world: World | None, name: str) -> World:
    if world is None:
        raise AgentSetupError("world", f"the {name} agent reads the world's vocabulary; none was given")
    return world


def _oracle(
    *,
    task: Task,
    world: World | None,
    planner: Planner | None,
    seed: int,
    openai_options: Mapping[str, Any] | None,
) -> Agent:
    return OracleAgent(task, _planner(planner, "oracle"), seed=seed)


def _silent(
    *,
    task: Task,
    world: World | None,
    planner: Planner | None,
    seed: int,
    openai_options: Mapping[str, Any] | None,
) -> Agent:
    return SilentAgent(task, _planner(planner, "silent"), _world(world, "silent"), seed=seed)


def _scripted(
    *,
    task: Task,
    world: World | None,
    planner: Planner | None,
    seed: int,
    openai_options: Mapping[str, Any] | None,
) -> Agent:
    return ScriptedAgent(task, _planner(planner, "scripted"), _world(world, "scripted"), seed=seed)


def _random(
    *,
    task: Task,
    world: World | None,
    planner: Planner | None,
    seed: int,
    openai_options: Mapping[str, Any] | None,
) -> Agent:
    return RandomAgent(task, _world(world, "random"), seed=seed)


def _openai(
    *,
    task: Task,
    world: World | None,
    planner: Planner | None,
    seed: int,
    openai_options: Mapping[str, Any] | None,
) -> Agent:
    try:
        return OpenAIAgent(LLMConfig.from_options(openai_options, seed=seed))
    except LLMConfigError as error:
        raise AgentSetupError(f"openai_options.{error.field}", error.problem) from error


AGENT_FACTORIES: dict[str, AgentFactory] = {
    "oracle": _oracle,
    "scripted": _scripted,
    "silent": _silent,
    "random": _random,
    "openai": _openai,
}
"""Every agent `make_agent` knows, by name."""


def make_agent(
    name: str,
    *,
    task: Task,
    world: World | None,
    planner: Planner | None,
    seed: int,
    openai_options: Mapping[str, Any] | None = None,
) -> Agent:
    """The agent called `name` for `task`; `AgentSetupError` for an unknown name or a missing input."""
    factory = AGENT_FACTORIES.get(name)
    if factory is None:
        known = ", ".join(sorted(AGENT_FACTORIES))
        raise AgentSetupError("agent", f"unknown agent {name!r}; known agents: {known}")
    return factory(task=task, world=world, planner=planner, seed=seed, openai_options=openai_options)
