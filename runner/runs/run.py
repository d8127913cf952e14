"""A benchmark run: every task × trial not done yet, played on a backend, appended as it completes.

`run_trials` resumes the output file (`runner.runs.log`), plays the missing trials (trial
numbers 0 … trials − 1, seeds from `runner.runs.seeds`) on the local pool or Ray, and appends
each record with one durable write (`runner.solving.log.Appender`) the moment it arrives — so
a kill at any point loses at most the trials in flight and duplicates nothing. Lines are in
completion order, as the official runner writes them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from runner.runs.config import config_hash
from runner.runs.log import Resume, resume
from runner.runs.pool import PoolKind, run_pool
from runner.runs.records import TrialKey
from runner.runs.seeds import trial_seed
from runner.runs.tasks import RunTask
from runner.runs.trial import RunJob, TrialSpec
from runner.solving.log import Appender

Backend = Literal["local", "ray"]
INPUT_FAILURE = "input_validation"
"""How `RunOutcome.completion` counts the official input-validation failures (no completion reason)."""


@dataclass(frozen=True)
class Execution:
    """How the trials are played: how many at once, on which backend, in which local pool."""

    concurrency: int = 1
    backend: Backend = "local"
    pool: PoolKind = "threads"


@dataclass
class RunOutcome:
    """What a run did: what it found in the file, what it wrote, what it lost."""

    resumed: Resume
    planned: int = 0
    completion: Counter[str] = field(default_factory=Counter)
    """Written records by `completion_reason`."""
    failed: int = 0
    lost: list[TrialKey] = field(default_factory=list)

    @property
    def written(self) -> int:
        return sum(self.completion.values())


def trial_specs(
    job: RunJob, tasks: Sequence[RunTask], trials: int, done: Collection[tuple[str, int]]
) -> list[TrialSpec]:
    """The trials still to play, task by task, trial by trial."""
    specs = []
    for entry in tasks:
        task_id = entry.task.task_id
        digest = config_hash(job.config, entry.task)
        for trial in range(trials):
            if (task_id, trial) not in done:
                seed = trial_seed(job.config.seed, task_id, trial)
                specs.append(TrialSpec(TrialKey(entry.index, task_id, trial, seed, digest), entry.task))
    return specs


def run_trials(
    job: RunJob,
    tasks: Sequence[RunTask],
    *,
    trials: int,
    out: Path,
    execution: Execution = Execution(),
    select: Collection[str] = (),
    restart: bool = False,
    on_record: Callable[[dict[str, Any], RunOutcome], None] | None = None,
) -> RunOutcome:
    """Play the trials of `tasks` (only the ids in `select`, when given) not yet in `out`.

    Every runnable task of the file should be in `tasks`: lines of any of them are checked
    against their config hash, so a resume with another `select` is still exact. `on_record` is
    called after each record is written, with the outcome so far (`planned` is the total).
    """
    expected = {entry.task.task_id: config_hash(job.config, entry.task) for entry in tasks}
    found = resume(out, expected, restart=restart)
    chosen = [entry for entry in tasks if not select or entry.task.task_id in select]
    specs = trial_specs(job, chosen, trials, found.done)
    outcome = RunOutcome(found, planned=len(specs))
    lost: list[TrialSpec] = []
    appender = Appender(out)
    try:
        for record in _records(job, specs, execution, lost):
            appender.append(record)
            outcome.completion[str(record.get("completion_reason") or INPUT_FAILURE)] += 1
            outcome.failed += record.get("success") is False
            if on_record is not None:
                on_record(record, outcome)
    finally:
        appender.close()
    outcome.lost = [spec.key for spec in lost]
    return outcome


def _records(
    job: RunJob, specs: list[TrialSpec], execution: Execution, lost: list[TrialSpec]
) -> Iterator[dict[str, Any]]:
    if execution.backend == "ray":
        from runner.runs.ray_backend import run_ray  # Ray is an optional dependency

        return run_ray(job, specs, concurrency=execution.concurrency, lost=lost)
    return run_pool(job, specs, concurrency=execution.concurrency, pool=execution.pool)
