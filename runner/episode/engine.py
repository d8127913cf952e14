"""`run_episode`: one trial of the official group-chat protocol, from task to §7.8 record."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from runner.episode.conversation import AGENT, Agent, User
from runner.episode.errors import EpisodeInputError
from runner.episode.events import Episode
from runner.episode.faults import FaultLog
from runner.episode.record import success_record
from runner.episode.scheduler import run_protocol
from runner.episode.settings import EpisodeSettings, limits_for
from sandbox.cache.store import ToolCache
from sandbox.world.world import World
from verifier.model.task import Task


def check_inputs(task: Task, users: Mapping[str, User]) -> None:
    """Raise `EpisodeInputError` for a task the official driver refuses or a missing simulator."""
    for name in ("query", "user_preferences", "initial_messages"):
        if not getattr(task, name):
            raise EpisodeInputError(name, "missing or empty; the official driver refuses such a task")
    if AGENT in task.user_names:
        raise EpisodeInputError("user_preferences", f"a user may not be called {AGENT!r}")
    missing = [name for name in task.user_names if name not in users]
    if missing:
        raise EpisodeInputError("users", f"no simulator for {', '.join(missing)}")
    unknown = [name for name in users if name not in task.user_preferences]
    if unknown:
        raise EpisodeInputError("users", f"not users of task {task.task_id}: {', '.join(unknown)}")


def run_episode(
    task: Task,
    world: World | None,
    agent: Agent,
    users: Mapping[str, User],
    *,
    trial: int,
    settings: EpisodeSettings,
    cache: ToolCache | None = None,
    observe: Callable[[Episode], None] | None = None,
) -> dict[str, Any]:
    """Play one trial and return its §7.8 success record plus extras (`runner.episode.record`).

    Raises `EpisodeInputError` before any call for a task or user mapping that cannot be played,
    and lets `ModelCallError` through when an agent or user call fails for good. `observe` is
    given the episode's state before its first event (the gym reads rewards from it; it must not
    change it).
    """
    check_inputs(task, users)
    faults = None if settings.tool_faults is None else FaultLog(settings.tool_faults, settings.seed)
    limits = limits_for(task, settings)
    episode = Episode(task, world, agent, users, cache=cache, limits=limits, faults=faults)
    if observe is not None:
        observe(episode)
    reason = run_protocol(episode)
    return success_record(episode, reason, trial=trial, seed=settings.seed, agent=agent.describe())
