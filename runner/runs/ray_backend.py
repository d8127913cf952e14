"""The Ray backend: each trial a Ray task (one CPU), at most `concurrency` in flight, records
yielded in completion order.

`ray.init()` connects to the cluster named by `RAY_ADDRESS` when it is set and starts a local
instance otherwise (shut down again at the end). Workers load the world from `job.world_dir`
once per worker process and share the oracle cache directory, so both paths must be readable
(the cache writable) at the same place on every node. A trial whose worker or node is lost gets
no record; it is counted in `lost` and the next resume runs it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from runner.runs.trial import RunJob, TrialSpec, play_trial
from runner.solving.ray_session import ray_session


def run_ray(
    job: RunJob, specs: Sequence[TrialSpec], *, concurrency: int, lost: list[TrialSpec]
) -> Iterator[dict[str, Any]]:
    """Play every trial as a Ray task; trials whose worker was lost are appended to `lost`."""
    if not specs:
        return
    with ray_session() as ray:
        play = ray.remote(num_cpus=1, max_retries=0)(play_trial)
        shared = ray.put(job)
        waiting = list(specs)
        running: dict[Any, TrialSpec] = {}
        while waiting or running:
            while waiting and len(running) < concurrency:
                spec = waiting.pop(0)
                running[play.remote(shared, spec)] = spec
            done, _ = ray.wait(list(running), num_returns=1)
            spec = running.pop(done[0])
            try:
                yield ray.get(done[0])
            except ray.exceptions.RayError:  # a lost worker or node: that trial only
                lost.append(spec)
