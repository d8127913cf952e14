"""One trial, as a worker plays it: build the cast, run the episode, retry what may pass later.

`play_trial(job, spec)` never raises for a failed episode: a `ModelCallError` (or any other
exception, classified by its message as the official runner does) becomes the official failure
record; an `EpisodeInputError` the official input-validation failure. A retryable failure
(`rate_limit`, `connection_error`) is tried again with a fresh cast after an exponential
backoff (`Retry`), at most `Retry.attempts` times in all; the last failure is recorded (and
purged by the next resume, which runs the trial again). The episode function, the cast builder
and the sleep are fields of the job, so tests inject fakes; every field is picklable
(module-level functions), so the job travels to worker processes and Ray workers. The transport
faults every attempt's model-backed players met are summed on the line (`runner.runs.transport`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from runner.episode import EpisodeInputError, EpisodeSettings, run_episode
from runner.episode.conversation import Agent, User
from runner.episode.faults import FaultSpec
from runner.loading.benchmark_data import load_sandbox_world
from runner.runs.cast import CastBuilder, build_cast
from runner.runs.config import RunConfig
from runner.runs.records import (
    TrialKey,
    failure_record,
    input_failure_record,
    is_retryable_failure,
    success_record,
)
from runner.runs.transport import add_faults, cast_faults, faults_field
from runner.scoring.oracle_cache import OracleCache
from sandbox.world.world import World
from verifier.model.task import Task


class Episode(Protocol):
    """`runner.episode.run_episode`'s signature."""

    def __call__(
        self,
        task: Task,
        world: World | None,
        agent: Agent,
        users: Mapping[str, User],
        *,
        trial: int,
        settings: EpisodeSettings,
    ) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Retry:
    """Attempts in all for a trial whose failure is retryable, and the backoff between them:
    `base_s × 2^(n−1)` seconds after attempt n, at most `cap_s`."""

    attempts: int = 4
    base_s: float = 2.0
    cap_s: float = 60.0

    def delay(self, attempt: int) -> float:
        return min(self.cap_s, self.base_s * 2.0 ** (attempt - 1))


@dataclass(frozen=True)
class RunJob:
    """What every trial of a run shares."""

    config: RunConfig
    world_dir: str
    oracle: OracleCache
    episode: Episode = run_episode
    cast: CastBuilder = build_cast
    retry: Retry = Retry()
    sleep: Callable[[float], None] = time.sleep


@dataclass(frozen=True)
class TrialSpec:
    """One trial to play: its identity and its task."""

    key: TrialKey
    task: Task


_WORLDS: dict[str, World] = {}


def job_world(job: RunJob) -> World:
    """The run's world, loaded once per process."""
    if job.world_dir not in _WORLDS:
        _WORLDS[job.world_dir] = load_sandbox_world(Path(job.world_dir))
    return _WORLDS[job.world_dir]


def play_trial(job: RunJob, spec: TrialSpec) -> dict[str, Any]:
    """The trial's record (success or failure), after retries of retryable failures."""
    world = job_world(job)
    key = spec.key
    config = job.config
    injected = None if config.tool_faults is None else FaultSpec.parse(config.tool_faults)
    settings = EpisodeSettings(
        seed=key.seed,
        max_turn=config.max_turn,
        convergence_interval=config.convergence_interval,
        tool_faults=injected,
    )
    attempt = 1
    faults: Counter[str] | None = None
    while True:
        cast = None
        try:
            cast = job.cast(job, spec.task, world, key.seed)
            record = job.episode(spec.task, world, cast.agent, cast.users, trial=key.trial, settings=settings)
        except EpisodeInputError as exc:
            return input_failure_record(key, exc)
        except Exception as exc:  # every failure of a trial is a record, never the end of the run
            faults = add_faults(faults, cast_faults(cast) if cast is not None else None)
            if is_retryable_failure(exc) and attempt < job.retry.attempts:
                job.sleep(job.retry.delay(attempt))
                attempt += 1
                continue
            return failure_record(key, exc, attempt) | faults_field(faults)
        faults = add_faults(faults, cast_faults(cast))
        return success_record(record, key, attempt) | faults_field(faults)
