"""The oracle batch on a Ray cluster: one remote task per oracle task, results in task order.

`ray.init()` connects to the cluster named by `RAY_ADDRESS` when it is set and starts a local
instance otherwise (shut down again at the end). Workers load the world from `job.world_dir`
once per worker process, so the directory must be readable at that path on every node. Lines
are yielded in task order (a finished task waits for the ones before it), so the output is the
same as the local backend's. A task whose worker is lost gets an error line (`field` `oracle`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from runner.loading.benchmark_data import load_sandbox_world
from runner.solving.batch import OracleJob, error_line, solve_entry
from runner.solving.ray_session import ray_session
from runner.solving.task_entries import TaskEntry, TaskError
from sandbox.world.world import World

_WORLDS: dict[str, World] = {}


def _solve_on_worker(entry: TaskEntry, job: OracleJob) -> dict[str, Any]:
    if job.world_dir not in _WORLDS:
        _WORLDS[job.world_dir] = load_sandbox_world(job.world_dir)
    return solve_entry(entry, job, _WORLDS[job.world_dir])


def run_ray(entries: Sequence[TaskEntry], job: OracleJob) -> Iterator[dict[str, Any]]:
    """Solve every entry as a Ray remote task; yield the lines in entry order."""
    with ray_session() as ray:
        resources: dict[str, float] = ray.cluster_resources()
        cpus = min(job.settings.workers, max(int(resources.get("CPU", 1)), 1))
        solve = ray.remote(num_cpus=cpus)(_solve_on_worker)
        refs = [solve.remote(entry, job) for entry in entries]
        for entry, ref in zip(entries, refs, strict=True):
            try:
                yield ray.get(ref)
            except ray.exceptions.RayError as exc:  # a lost worker or node: that task only
                yield error_line(entry, TaskError("oracle", f"ray: {type(exc).__name__}: {exc}"), job)
