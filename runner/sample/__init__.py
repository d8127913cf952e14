"""The sample job (`tripwright sample`): the embedded task, its world and three judged plans.

`plans` builds the sample (its data is `runner/samples/task.json`) and judges the plans by both
profiles; `oracle_splits` solves it with subgroup splits on and off; `bench` plays the baseline
agents on it against the oracle. Imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import verifier.faces

if TYPE_CHECKING:
    from runner.sample.bench import BenchSettings, run_bench
    from runner.sample.oracle_splits import run_oracle, write_oracle
    from runner.sample.plans import Sample, build_sample, run_samples, write_sample

_HOMES = {
    "BenchSettings": "runner.sample.bench",
    "Sample": "runner.sample.plans",
    "build_sample": "runner.sample.plans",
    "run_bench": "runner.sample.bench",
    "run_oracle": "runner.sample.oracle_splits",
    "run_samples": "runner.sample.plans",
    "write_oracle": "runner.sample.oracle_splits",
    "write_sample": "runner.sample.plans",
}
"""Each public name and the module it lives in."""

__all__ = [
    "BenchSettings",
    "Sample",
    "build_sample",
    "run_bench",
    "run_oracle",
    "run_samples",
    "write_oracle",
    "write_sample",
]


__getattr__ = verifier.faces.lazy_names(__name__, _HOMES)
