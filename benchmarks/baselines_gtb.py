"""The baseline agents against the oracle on the gtb tasks: plans, validity, GU, GU*, regret, losses.

    .venv/bin/python benchmarks/baselines_gtb.py [--tasks FILE] [--every K] [--time-limit S]
                                                 [--concurrency N] [--work DIR]

The world is built from all the tasks (seed 1, as `benchmarks/oracle.py` builds it); every K-th
task (positions 0, K, 2K, …; default 8) is played once by each of `oracle`, `scripted` and
`silent` with rule users through the runs API (`runner.runs`, run seed 0, the baselines planning
with the cached oracle), then scored against the oracle (`runner.scoring`) with the same cache and
time limit, so every (task, table) is solved once. `--work DIR` keeps the world, runs, scored
lines and oracle cache there (a re-run resumes and solves nothing); by default a temporary folder.

Prints, per agent: trials, plans produced, acceptable rate (strict-valid), optimality rate,
mean / median GU, GU*, GU/GU* (`gu_ratio`), mean regret, PC, elicitation and planning loss (each
over the trials where it is defined), the termination reasons; then the wall time of each phase
and the peak memory: `ru_maxrss` of this process and the peak RSS of its worker processes (read
from /proc while they live by `runs_speed.PeakWatcher`: with `--concurrency` above 1 the runs and
the oracle solves run in processes forked from a fork server, which this process never reaps).
"""

from __future__ import annotations

import argparse
import json
import resource
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from runs_speed import PeakWatcher  # this folder is on sys.path when a script of it runs

from runner.loading.files import read_json_or_jsonl
from runner.runs.config import RunConfig
from runner.runs.run import Execution, run_trials
from runner.runs.setup import make_job
from runner.runs.tasks import read_run_tasks
from runner.saved.normalize import distribution
from runner.scoring.score import ScoreJob, score_file, write_scored
from runner.scoring.summary import group_summary
from sandbox.world.build import build_world

DEFAULT_TASKS = Path(__file__).resolve().parents[2] / "shared" / "gtb" / "tasks.jsonl"
AGENTS = ("oracle", "scripted", "silent")
"""`oracle` first: it plans for each task's own table, which scoring needs for every agent."""
WORLD_SEED = 1


def prepare(folder: Path, source: Path, every: int) -> int:
    """Every `every`-th task into `folder/tasks.jsonl`, the world of all tasks into `folder/world`
    (kept when already there); the number of tasks chosen."""
    values = read_json_or_jsonl(source)
    raw = values[0] if len(values) == 1 and isinstance(values[0], list) else values
    chosen = raw[::every]
    (folder / "tasks.jsonl").write_text(
        "".join(json.dumps(task, ensure_ascii=False) + "\n" for task in chosen), encoding="utf-8"
    )
    if not (folder / "world" / "manifest.json").exists():
        build_world(raw, seed=WORLD_SEED).save(folder / "world")
    return len(chosen)


def play_and_score(
    folder: Path, agent: str, limit: float, concurrency: int
) -> tuple[list[dict[str, Any]], float, float]:
    """(scored lines, run seconds, scoring seconds) of one agent over the chosen tasks."""
    read = read_run_tasks(folder / "tasks.jsonl")
    config = RunConfig(agent=agent, users="rules", seed=0, oracle_time_limit=limit)
    job = make_job(config, folder / "world", folder / "cache")
    runs = folder / f"{agent}.runs.jsonl"
    started = time.monotonic()
    run_trials(
        job, read.runnable, trials=1, out=runs, execution=Execution(concurrency=concurrency, pool="processes")
    )
    played = time.monotonic() - started
    tasks = {entry.task.task_id: entry.task for entry in read.runnable}
    scored = score_file(runs, tasks, ScoreJob(folder / "world", job.oracle, concurrency))
    write_scored(scored, folder / f"{agent}.scored.jsonl")
    return scored.lines, played, time.monotonic() - started - played


def figures(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The printed figures of one agent's scored lines."""
    summary = group_summary(lines)
    gu_star = distribution([line.get("gu_star") for line in lines])
    return {
        "trials": summary["trials"],
        "plans produced": summary["plans"],
        "acceptable rate": summary["acceptable_rate"],
        "optimality rate": summary["optimality_rate"],
        "GU mean / median": _pair(summary["gu"]),
        "GU* mean / median": _pair(gu_star),
        "GU/GU* mean / median": _pair(summary["gu_ratio"]),
        "regret mean": summary["regret"]["mean"],
        "PC mean": summary["pc"]["mean"],
        "elicitation loss mean": summary["elicitation_loss"]["mean"],
        "planning loss mean": summary["planning_loss"]["mean"],
        "oracle statuses on ③": dict(
            sorted(Counter(str(line.get("oracle_status")) for line in lines).items())
        ),
        "termination reasons": dict(
            sorted(Counter(str(line.get("termination_reason")) for line in lines).items())
        ),
    }


def _pair(stats: dict[str, Any]) -> str:
    mean, median = stats["mean"], stats["median"]
    return "—" if mean is None else f"{mean:.4g} / {median:.4g} (n={stats['count']})"


def print_table(by_agent: dict[str, dict[str, Any]]) -> None:
    """One row per figure, one column per agent."""
    names = list(next(iter(by_agent.values())))
    width = max(len(name) for name in names)
    print(f"{'':{width}}  " + "  ".join(f"{agent:>26}" for agent in by_agent))
    for name in names:
        cells = [_cell(by_agent[agent][name]) for agent in by_agent]
        if any(len(cell) > 26 for cell in cells):
            print(f"{name:{width}}")
            for agent, cell in zip(by_agent, cells, strict=True):
                print(f"  {agent}: {cell}")
        else:
            print(f"{name:{width}}  " + "  ".join(f"{cell:>26}" for cell in cells))


def _cell(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key} {count}" for key, count in value.items())
    if isinstance(value, float):
        return f"{value:.4g}"
    return "—" if value is None else str(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=Path, default=DEFAULT_TASKS)
    parser.add_argument("--every", type=int, default=8, help="play every K-th task (default 8)")
    parser.add_argument("--time-limit", type=float, default=10.0, help="oracle seconds a solve (default 10)")
    parser.add_argument("--concurrency", type=int, default=1, help="trials and solves at once (default 1)")
    parser.add_argument("--work", type=Path, help="keep world, runs and cache here (default: a temp folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="baselines-gtb-") as tmp:
        folder = args.work or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        watcher = PeakWatcher()
        watcher.start()
        started = time.monotonic()
        count = prepare(folder, args.tasks, args.every)
        print(
            f"{count} tasks (every {args.every}th of {args.tasks.name}), world seed {WORLD_SEED} ready in "
            f"{time.monotonic() - started:.1f} s; oracle {args.time_limit:g} s a solve, 1 worker; "
            f"rule users, 1 trial, run seed 0; concurrency {args.concurrency}"
        )
        by_agent: dict[str, dict[str, Any]] = {}
        for agent in AGENTS:
            lines, played, scoring = play_and_score(folder, agent, args.time_limit, args.concurrency)
            by_agent[agent] = figures(lines)
            print(f"{agent}: played in {played:.1f} s, scored in {scoring:.1f} s", flush=True)
        watcher.done.set()
        watcher.join()
        print()
        print_table(by_agent)
        print()
        self_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        largest = max(watcher.peaks.values(), default=0) / 1024
        print(
            f"wall time {time.monotonic() - started:.0f} s; peak RSS {self_mib:.0f} MiB this process, "
            f"{largest:.0f} MiB the largest of {len(watcher.peaks)} child processes"
        )


if __name__ == "__main__":
    main()
