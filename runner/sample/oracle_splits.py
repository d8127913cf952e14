"""The oracle on the embedded sample task: splits on and off, and its plan judged by both profiles.

The sample's main job runs `solve_task` twice with the same seed and time limit — subgroup
splits allowed, then forbidden — so the table shows the value of splitting (the best GU with
splits − the best without, proven to lie between the two runs' plans and bounds:
`solver.oracle.splitting`). The better of the two plans (the split run's at a tie) is verified under both
profiles: `strict` must accept every oracle plan, and the official GU equals the objective.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import orjson

from runner.loading.files import atomic_write_bytes
from runner.sample.plans import PROFILES, Sample
from solver.oracle.result import OracleResult
from solver.oracle.solve import OracleSettings, solve_task
from solver.oracle.splitting import SplittingValue, splitting_value
from verifier.model.verdict import Profile, Verdict
from verifier.referee import verify

WORKERS = 1


@dataclass(frozen=True, slots=True)
class OracleRun:
    """The oracle's two records for the sample task and the verdicts of its chosen plan."""

    with_splits: OracleResult
    without_splits: OracleResult
    verdicts: dict[Profile, Verdict]
    """The chosen plan (`best`) under each profile; empty when neither run found a plan."""

    @property
    def best(self) -> OracleResult:
        """The run whose plan is shown: the higher objective, the split run at a tie."""
        on, off = self.with_splits.objective, self.without_splits.objective
        return self.without_splits if off is not None and (on is None or off > on) else self.with_splits

    @property
    def value_of_splitting(self) -> SplittingValue | None:
        """The proven interval of the value of splitting (None unless both runs have a plan and
        a bound)."""
        on, off = self.with_splits, self.without_splits
        return splitting_value((on.objective, on.bound), (off.objective, off.bound))


def run_oracle(sample: Sample, time_limit: float, *, seed: int = 0) -> OracleRun:
    """Solve the sample task with splits on and off; verify the better plan under both profiles."""
    results = [
        solve_task(
            sample.task,
            sample.world,
            OracleSettings(time_limit=time_limit, workers=WORKERS, seed=seed, splits=splits),
            official=sample.poi_db,
        )
        for splits in (True, False)
    ]
    run = OracleRun(results[0], results[1], {})
    plan = run.best.plan
    if plan is None:
        return run
    poi_db = sample.poi_db
    verdicts = {
        profile: verify(sample.task, plan, profile=profile, poi_db=poi_db, world=sample.world)
        for profile in PROFILES
    }
    return OracleRun(results[0], results[1], verdicts)


def write_oracle(run: OracleRun, out: Path) -> list[Path]:
    """Write `oracle.jsonl` (both records, one line each) and `plan_oracle.json` (the chosen plan)."""
    records = b"".join(
        orjson.dumps(result.to_json()) + b"\n" for result in (run.with_splits, run.without_splits)
    )
    atomic_write_bytes(out / "oracle.jsonl", records)
    written = [out / "oracle.jsonl"]
    if run.best.plan is not None:
        atomic_write_bytes(
            out / "plan_oracle.json", orjson.dumps(run.best.plan, option=orjson.OPT_INDENT_2) + b"\n"
        )
        written.append(out / "plan_oracle.json")
    return written
