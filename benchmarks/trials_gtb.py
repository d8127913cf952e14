"""Reliability, strict vs loose validity and the tool-use penalty of the baselines on the gtb tasks.

    .venv/bin/python benchmarks/trials_gtb.py [--tasks FILE] [--every K] [--trials N] [--time-limit S]
                                              [--concurrency N] [--work DIR] [--cache DIR]

The world is built from all the tasks (seed 1, as `benchmarks/baselines_gtb.py` builds it); every
K-th task (default 8) is played N times (default 3, trials 0 … N−1, run seed 0) by `scripted` and
`silent` with rule users through the runs API, the baselines planning with the cached oracle, then
scored against the oracle (`runner.scoring`) with the same cache and time limit (default 5 s a
solve, 1 worker). `--cache DIR` is the oracle cache (default: tripwright's, so a re-run solves
nothing); `--work DIR` keeps the world, runs and scored lines (default: a temporary folder).

Prints per agent, overall and per difficulty: pass^k, pass@k and avg^k for k = 1 … N (success: a
strict-valid plan; `runner.scoring.reliability`), the same with success GU / GU* ≥ 0.9, the loose
(official-valid) and strict (strict-valid) rates with the strict checks that separate them
(`runner.scoring.strictness`), and the tool-use penalty (`runner.scoring.tool_use`: tool calls,
schema errors, mean raw and penalised score); then the wall time of each phase.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from baselines_gtb import DEFAULT_TASKS, WORLD_SEED, prepare  # this folder is on sys.path

from runner.loading.files import iter_jsonl
from runner.report.groups import by_group
from runner.report.inputs import trial_key
from runner.runs.config import RunConfig
from runner.runs.run import Execution, run_trials
from runner.runs.setup import make_job
from runner.runs.tasks import read_run_tasks
from runner.scoring.oracle_cache import default_cache_dir
from runner.scoring.reliability import STRICT_SUCCESS, SuccessRule, reliability
from runner.scoring.score import ScoreJob, score_file, write_scored
from runner.scoring.strictness import strict_and_loose
from runner.scoring.tool_use import tool_use_summary

AGENTS = ("scripted", "silent")
RATIO_SUCCESS = SuccessRule(0.9)


def play_and_score(
    folder: Path, agent: str, args: argparse.Namespace
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], float, float]:
    """(run records, scored lines, run seconds, scoring seconds) of one agent."""
    read = read_run_tasks(folder / "tasks.jsonl")
    config = RunConfig(agent=agent, users="rules", seed=0, oracle_time_limit=args.time_limit)
    job = make_job(config, folder / "world", args.cache)
    runs = folder / f"{agent}.runs.jsonl"
    started = time.monotonic()
    concurrency = args.concurrency
    execution = Execution(concurrency=concurrency, pool="processes")
    run_trials(job, read.runnable, trials=args.trials, out=runs, execution=execution)
    played = time.monotonic() - started
    tasks = {entry.task.task_id: entry.task for entry in read.runnable}
    scored = score_file(runs, tasks, ScoreJob(folder / "world", job.oracle, concurrency))
    write_scored(scored, folder / f"{agent}.scored.jsonl")
    records = [line.value for line in iter_jsonl(runs) if isinstance(line.value, dict)]
    return records, scored.lines, played, time.monotonic() - started - played


def report(agent: str, records: list[dict[str, Any]], lines: list[dict[str, Any]]) -> None:
    """The agent's figures, overall and per difficulty."""
    print(f"\n=== {agent} ===")
    groups = by_group(lines, lambda line: str(line.get("difficulty") or "unknown"))
    for rule in (STRICT_SUCCESS, RATIO_SUCCESS):
        print(f"reliability, success = {rule.describe()}")
        print(f"  {'group':<8} {'k':>2} {'tasks':>5} {'pass^k':>7} {'pass@k':>7} {'avg^k':>7}")
        for name, members in groups.items():
            for row in reliability(members, rule)["rows"]:
                print(
                    f"  {name:<8} {row['k']:>2} {row['tasks']:>5} {row['pass_hat_k']:>7.4f} "
                    f"{row['pass_at_k']:>7.4f} {row['avg_k']:>7.4f}"
                )
    print("strict vs loose")
    for name, members in groups.items():
        figures = strict_and_loose(members)
        print(
            f"  {name:<8} trials {figures['trials']:>3}  loose {_pct(figures['loose_rate'])}  "
            f"strict {_pct(figures['strict_rate'])}  loose only {figures['loose_only']}  "
            f"strict only {figures['strict_only']}  separating checks {figures['separating_checks']}"
        )
    by_key = {trial_key(line): line for line in lines}
    pairs: list[tuple[dict[str, Any], dict[str, Any] | None]] = [
        (record, by_key.get(trial_key(record))) for record in records
    ]
    print("tool-use penalty")
    for name, group_pairs in by_group(pairs, _pair_difficulty).items():
        use = tool_use_summary(group_pairs)
        print(
            f"  {name:<8} trials {use['trials']:>3}  tool calls {use['tool_calls']}  schema errors "
            f"{use['schema_errors']}  mean rate {use['mean_schema_error_rate']}  "
            f"raw score {use['raw_score']}  penalised {use['penalised_score']} (n={use['scored']})"
        )


def _pair_difficulty(pair: tuple[dict[str, Any], dict[str, Any] | None]) -> str:
    return str((pair[1] or {}).get("difficulty") or "unknown")


def _pct(value: float | None) -> str:
    return "  —  " if value is None else f"{value * 100:5.1f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=Path, default=DEFAULT_TASKS)
    parser.add_argument("--every", type=int, default=8, help="play every K-th task (default 8)")
    parser.add_argument("--trials", type=int, default=3, help="trials per task and agent (default 3)")
    parser.add_argument("--time-limit", type=float, default=5.0, help="oracle seconds a solve (default 5)")
    parser.add_argument("--concurrency", type=int, default=1, help="trials and solves at once (default 1)")
    parser.add_argument(
        "--work", type=Path, help="keep world, runs and scored lines here (default: a temp folder)"
    )
    parser.add_argument("--cache", type=Path, default=None, help="oracle cache (default: tripwright's)")
    args = parser.parse_args()
    args.cache = args.cache or default_cache_dir()
    with tempfile.TemporaryDirectory(prefix="trials-gtb-") as tmp:
        folder = args.work or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        count = prepare(folder, args.tasks, args.every)
        print(
            f"{count} tasks (every {args.every}th of {args.tasks.name}), world seed {WORLD_SEED} ready in "
            f"{time.monotonic() - started:.1f} s; oracle {args.time_limit:g} s a solve, 1 worker, "
            f"cache {args.cache}; "
            f"rule users, {args.trials} trials, run seed 0; concurrency {args.concurrency}",
            flush=True,
        )
        for agent in AGENTS:
            records, lines, played, scoring = play_and_score(folder, agent, args)
            print(f"{agent}: played in {played:.1f} s, scored in {scoring:.1f} s", flush=True)
            report(agent, records, lines)
        print(f"\nwall time {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
