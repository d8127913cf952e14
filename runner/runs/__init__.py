"""`tripwright run`: benchmark trials with resume, retries and backends.

`config` (what decides a record; the config hash), `seeds` (trial seeds), `tasks` (lenient task
reading), `records` (the §7.8 lines), `log` (resume), `cast` and `planner` (agent, users and the
cached oracle planner), `trial` (one trial with retries), `pool` and `ray_backend` (backends),
`run` (the orchestration), `setup` (checks before the first trial).
"""

from runner.runs.config import ModelOptions, RunConfig
from runner.runs.run import Execution, RunOutcome, run_trials
from runner.runs.setup import check_setup, make_job
from runner.runs.trial import RunJob, TrialSpec, play_trial

__all__ = [
    "Execution",
    "ModelOptions",
    "RunConfig",
    "RunJob",
    "RunOutcome",
    "TrialSpec",
    "check_setup",
    "make_job",
    "play_trial",
    "run_trials",
]
