"""The main job's closing benchmark: the baseline agents on the embedded sample task, against the oracle.

`run_bench` plays the sample task `TRIALS` times with each of `scripted`, `silent` and `random`
(rule-based users, run seed 0, trial seeds as in `tripwright run`) through the runs API
(`runner.runs.run.run_trials`, in this process), scores each run
against the oracle (`runner.scoring`: both profiles, GU, GU*, regret, PC, the loss decomposition)
and writes each agent's report (`runner.report`). A row shows trial 0's scored figures and the
agent's reliability over the trials (pass^k, pass@k, avg^k for a strict-valid plan;
`runner.scoring.reliability`). The agents plan with the oracle and scoring
solves through the same disk cache and settings, so each distinct preference table is solved once,
and a re-run solves nothing. Every run starts afresh (`restart`): the files always describe the
run just made. Files under `directory`:

    world/                          the sample world (the runs API reads worlds from disk)
    bench/<agent>/runs.jsonl        the §7.8 records of the trials
    bench/<agent>/scored.jsonl      their scored lines (and scored.summary.json)
    bench/<agent>/report.md         the report (and report.html, plots/)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runner.report.build import HTML, build_report, write_report
from runner.report.inputs import Inputs
from runner.report.official import official_document
from runner.runs.config import RunConfig
from runner.runs.run import run_trials
from runner.runs.setup import make_job
from runner.runs.tasks import RunTask
from runner.sample.plans import Sample
from runner.scoring.reliability import STRICT_SUCCESS, reliability
from runner.scoring.score import ScoredRun, ScoreJob, score_records, write_scored

AGENTS = ("scripted", "silent", "random")
"""The ceiling, middle and floor of elicitation (the scored lines carry each one's rates)."""
USERS = "rules"
SEED = 0
TRIALS = 3
BENCH_DIR = "bench"
RUNS, SCORED = "runs.jsonl", "scored.jsonl"


@dataclass(frozen=True, slots=True)
class BenchSettings:
    """The oracle's seconds a solve (the agents' planner and scoring alike) and its cache folder."""

    time_limit: float
    cache_dir: Path


@dataclass(frozen=True, slots=True)
class BenchRow:
    """One agent's trials: trial 0's scored line (`runner.scoring.trial.score_record`), the
    reliability rows over every trial (`runner.scoring.reliability.reliability`), its report folder
    and, when a trial failed, the first failure record's error."""

    agent: str
    scored: dict[str, Any]
    report: Path
    error: str | None = None
    reliability: tuple[dict[str, Any], ...] = ()

    @property
    def report_html(self) -> Path:
        return self.report / HTML

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "report": str(self.report_html),
            "error": self.error,
            **self.scored,
            "reliability": list(self.reliability),
        }


@dataclass(frozen=True, slots=True)
class Bench:
    """The benchmark's rows (one per agent, in `AGENTS` order), where it was written, and its settings."""

    directory: Path
    task_id: str
    time_limit: float
    rows: list[BenchRow]
    trials: int = TRIALS

    @property
    def failed(self) -> bool:
        """Whether some agent's trial failed (its record is the official failure record)."""
        return any(row.error is not None for row in self.rows)

    def to_json(self) -> dict[str, Any]:
        return {
            "directory": str(self.directory),
            "task_id": self.task_id,
            "users": USERS,
            "seed": SEED,
            "trials": self.trials,
            "oracle_time_limit": self.time_limit,
            "rows": [row.to_json() for row in self.rows],
        }


def run_bench(sample: Sample, directory: Path, settings: BenchSettings) -> Bench:
    """Play, score and report each agent on the sample task (files listed in the module docstring)."""
    world_dir = directory / "world"
    sample.world.save(world_dir)
    rows = [_agent_row(sample, agent, world_dir, directory / BENCH_DIR / agent, settings) for agent in AGENTS]
    return Bench(directory, sample.task.task_id, settings.time_limit, rows)


def _agent_row(
    sample: Sample, agent: str, world_dir: Path, folder: Path, settings: BenchSettings
) -> BenchRow:
    """One agent's trials played, scored and reported into `folder`."""
    config = RunConfig(agent=agent, users=USERS, seed=SEED, oracle_time_limit=settings.time_limit)
    job = make_job(config, world_dir, settings.cache_dir)
    folder.mkdir(parents=True, exist_ok=True)
    records: list[dict[str, Any]] = []
    run_trials(
        job,
        [RunTask(0, sample.task)],
        trials=TRIALS,
        out=folder / RUNS,
        restart=True,
        on_record=lambda record, _: records.append(record),
    )
    tasks = {sample.task.task_id: sample.task}
    scored = score_records(list(enumerate(records, start=1)), tasks, ScoreJob(world_dir, job.oracle))
    write_scored(scored, folder / SCORED)
    _write_report(sample, records, scored, folder)
    errors = [str(record.get("error")) for record in records if record.get("success") is False]
    rows = tuple(reliability(scored.lines, STRICT_SUCCESS)["rows"])
    first = next(line for line in scored.lines if line["trial"] == 0)
    return BenchRow(agent, first, folder, errors[0] if errors else None, rows)


def _write_report(sample: Sample, records: list[dict[str, Any]], scored: ScoredRun, folder: Path) -> None:
    """The agent's report beside its files, re-scoring both profiles against the sample world."""
    inputs = Inputs(runs=records, scored=scored.lines, tasks={sample.task.task_id: sample.task})
    sources = {"runs": RUNS, "scored": SCORED, "tasks": "runner/samples/task.json", "world": "../../world"}
    document = official_document(inputs, sample.poi_db, sample.world)
    write_report(build_report(inputs, sources=sources, official=document), folder)
