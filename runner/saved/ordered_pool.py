"""Chunked work over forked worker processes, results in input order (`verify-batch`, `rescore`).

The parent loads what every item needs (POI file, tasks, world) and the items themselves, then
forks the workers: they inherit all of it, so only a chunk's bounds go to a worker and only the
chunk's result comes back. Results are yielded in item order whatever order the workers finish
in, and every chunk goes through the same chunk function with or without workers, so the output
does not depend on the number of jobs. One job, a single chunk, or a platform without `fork`
runs the chunks in this process.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

_INHERITED: dict[str, Any] = {}
"""In a worker: the chunk function and the items, set once when the worker starts."""


def default_jobs() -> int:
    """The cores this process may run on (its CPU affinity where the platform has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@contextmanager
def chunk_results(
    work: Callable[[Sequence[T]], R], items: Sequence[T], *, jobs: int, chunk_size: int
) -> Iterator[Iterator[R]]:
    """`work` over consecutive chunks of `chunk_size` items, on up to `jobs` forked workers.

    Yields an iterator of the chunks' results in input order. The workers are forked on entry,
    before the caller starts anything else (a progress bar's thread); leaving the block early
    cancels the chunks not yet started. A worker that dies raises
    `concurrent.futures.process.BrokenProcessPool` from the iterator.
    """
    bounds = [(start, min(start + chunk_size, len(items))) for start in range(0, len(items), chunk_size)]
    workers = min(jobs, len(bounds))
    if workers <= 1 or not hasattr(os, "fork"):
        yield (work(items[start:stop]) for start, stop in bounds)
        return
    import multiprocessing  # the pool's machinery loads only when there are workers
    from concurrent.futures import ProcessPoolExecutor

    gc.freeze()  # the inherited objects stay out of the workers' collections (and their pages shared)
    pool = ProcessPoolExecutor(
        workers, mp_context=multiprocessing.get_context("fork"), initializer=_inherit, initargs=(work, items)
    )
    try:
        futures = [pool.submit(_run_chunk, start, stop) for start, stop in bounds]
        yield (future.result() for future in futures)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        gc.unfreeze()


def _inherit(work: Callable[[Sequence[Any]], Any], items: Sequence[Any]) -> None:
    """Worker start-up: keep the forked parent's chunk function and items."""
    _INHERITED["work"], _INHERITED["items"] = work, items


def _run_chunk(start: int, stop: int) -> Any:
    """Worker: the chunk function over items[start:stop]."""
    return _INHERITED["work"](_INHERITED["items"][start:stop])
