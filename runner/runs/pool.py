"""The local backend: N trials at once, records yielded as each trial completes.

Two pools, chosen by the caller: threads, for trials that wait on model endpoints (LLM agents
or LLM users: the GIL is released while waiting, and nothing is pickled), and processes, for
the CPU-bound baselines with rule users (a trial computes the whole time; each worker loads the
world once). Worker processes are forked from a `forkserver` that imported the engine, the
agents and the users once (`PRELOAD`): they start in milliseconds, and nothing is forked from a
parent that may have threads. One trial at a time runs in this thread, whatever the pool. A
worker process that dies breaks the pool: `WorkerLostError` ends the run, every line written so
far stays, and re-running resumes.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Literal

from runner.runs.trial import RunJob, TrialSpec, play_trial

PoolKind = Literal["threads", "processes"]
PRELOAD = ("runner.runs.trial", "runner.runs.cast")
"""Modules the fork server imports once, so that each worker starts as a cheap fork of it."""


class WorkerLostError(Exception):
    """A worker process died (killed, out of memory): the trials it held have no record."""


def run_pool(
    job: RunJob, specs: Sequence[TrialSpec], *, concurrency: int, pool: PoolKind
) -> Iterator[dict[str, Any]]:
    """Play every trial, `concurrency` at a time; yield each record when its trial completes."""
    if not specs:
        return
    if concurrency == 1:
        for spec in specs:
            yield play_trial(job, spec)
        return
    executor = _executor(min(concurrency, len(specs)), pool)
    try:
        futures: list[Future[dict[str, Any]]] = [executor.submit(play_trial, job, spec) for spec in specs]
        for future in as_completed(futures):
            try:
                yield future.result()
            except BrokenProcessPool as exc:
                raise WorkerLostError(f"a worker process died ({exc}); run again to resume") from exc
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _executor(workers: int, pool: PoolKind) -> Executor:
    if pool == "threads":
        return ThreadPoolExecutor(workers, thread_name_prefix="trial")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOAD))
    return ProcessPoolExecutor(workers, mp_context=context)
