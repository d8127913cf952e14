"""Benchmark runs: throughput, peak memory and resume time of `tripwright run` (scripted agent,
rule users, the oracle planner through a primed disk cache).

    .venv/bin/python benchmarks/runs_speed.py [--tasks FILE] [--count N] [--trials K]
                                              [--oracle-time-limit S]

(Named `runs_speed.py`, not `runner.py`: a `benchmarks/runner.py` would shadow the `runner`
package for every script of this folder run by path.) The world is built from the first
`--count` tasks (seed 1) in a temporary folder. Phases, each printing its figures:

1. prime: every task × trial once (the oracle solves each table the scripted agent plans for);
2. throughput: the same trials into a new file at concurrency 2 (worker processes, one per core),
   every plan from the cache — episodes per minute;
3. memory: a fresh process plays the trials (default 20 × 5 = 100 episodes) at concurrency 8 and
   reports `ru_maxrss` of itself and the peak RSS of its child processes (the fork server and the
   workers, read from /proc while they live: see `PeakWatcher`);
4. resume: the finished run of phase 3 resumed through the API and through the command line
   (`tripwright run … --no-score`, a fresh interpreter: start-up included).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from runner.loading.files import read_json_or_jsonl
from runner.runs.config import RunConfig
from runner.runs.run import Execution, run_trials
from runner.runs.setup import make_job
from runner.runs.tasks import read_run_tasks
from runner.runs.trial import RunJob
from sandbox.world.build import build_world

DEFAULT_TASKS = Path(__file__).resolve().parents[2] / "shared" / "gtb" / "tasks.jsonl"
REPO = Path(__file__).resolve().parents[1]


def _job(folder: Path, limit: float) -> RunJob:
    config = RunConfig(agent="scripted", users="rules", oracle_time_limit=limit)
    return make_job(config, folder / "world", folder / "cache")


def _play(job: RunJob, folder: Path, out: str, trials: int, concurrency: int) -> tuple[float, int]:
    """(seconds, records written) of one run of every task × trial into `folder / out`."""
    tasks = read_run_tasks(folder / "tasks.jsonl").runnable
    started = time.monotonic()
    outcome = run_trials(
        job,
        tasks,
        trials=trials,
        out=folder / out,
        execution=Execution(concurrency=concurrency, pool="processes"),
    )
    return time.monotonic() - started, outcome.written


class PeakWatcher(threading.Thread):
    """Reads the kernel's peak-RSS mark (`VmHWM`) of every descendant process every 50 ms.

    The workers are children of the fork server, not of this process, so `RUSAGE_CHILDREN` only
    sees them once the fork server has exited and been reaped (at interpreter exit); the marks
    are read while they live instead."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.peaks: dict[int, int] = {}
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.05):
            for pid in _descendants(os.getpid()):
                self.peaks[pid] = max(self.peaks.get(pid, 0), _peak_kib(pid))


def _descendants(root: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = [], [root]
    while frontier:
        children = [pid for pid, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def _peak_kib(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    line = next((line for line in status.splitlines() if line.startswith("VmHWM:")), "VmHWM: 0 kB")
    return int(line.split()[1])


def memory_phase(folder: Path, trials: int, limit: float) -> None:
    """Phase 3 in its own process: print its figures as one JSON line."""
    watcher = PeakWatcher()
    watcher.start()
    seconds, written = _play(_job(folder, limit), folder, "memory.jsonl", trials, 8)
    watcher.done.set()
    watcher.join()
    figures = {
        "seconds": seconds,
        "written": written,
        "self_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "children_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
        "largest_worker_kib": max(watcher.peaks.values(), default=0),
        "all_workers_kib": sum(watcher.peaks.values()),
        "processes": len(watcher.peaks),
    }
    print(json.dumps(figures))


def prepare(folder: Path, source: Path, count: int) -> int:
    """The first `count` tasks and their world in `folder`; the number of tasks."""
    values = read_json_or_jsonl(source)
    raw = values[0] if len(values) == 1 and isinstance(values[0], list) else values
    chosen = raw[:count]
    (folder / "tasks.jsonl").write_text(
        "".join(json.dumps(task, ensure_ascii=False) + "\n" for task in chosen), encoding="utf-8"
    )
    build_world(chosen, seed=1).save(folder / "world")
    return len(chosen)


def _cli_resume(folder: Path, trials: int, limit: float) -> float:
    args = [
        *(str(Path(sys.executable).parent / "tripwright"), "run", "--tasks", str(folder / "tasks.jsonl")),
        *("--world", str(folder / "world"), "--agent", "scripted", "--trials", str(trials)),
        *("--out", str(folder / "memory.jsonl"), "--cache", str(folder / "cache"), "--no-score"),
        *("--oracle-time-limit", str(limit)),
    ]
    started = time.monotonic()
    subprocess.run(args, check=True, cwd=REPO, capture_output=True)
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=Path, default=DEFAULT_TASKS)
    parser.add_argument("--count", type=int, default=20, help="tasks (default 20)")
    parser.add_argument("--trials", type=int, default=5, help="trials per task (default 5)")
    parser.add_argument("--oracle-time-limit", type=float, default=2.0)
    parser.add_argument("--memory-phase", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_phase is not None:
        memory_phase(args.memory_phase, args.trials, args.oracle_time_limit)
        return
    with tempfile.TemporaryDirectory(prefix="runs-bench-") as tmp:
        folder = Path(tmp)
        count = prepare(folder, args.tasks, args.count)
        episodes = count * args.trials
        job = _job(folder, args.oracle_time_limit)
        limit = args.oracle_time_limit
        print(f"{count} tasks × {args.trials} trials = {episodes} episodes; oracle {limit:g} s a solve")
        seconds, written = _play(job, folder, "prime.jsonl", args.trials, 2)
        print(f"prime: {written} episodes in {seconds:.1f} s (oracle solves included)")
        seconds, written = _play(job, folder, "throughput.jsonl", args.trials, 2)
        rate = written / seconds * 60
        print(f"throughput: {written} episodes in {seconds:.2f} s = {rate:.0f} episodes/min (2 processes)")
        memory = _memory(folder, args.trials, args.oracle_time_limit)
        mib = {key: value / 1024 for key, value in memory.items() if key.endswith("_kib")}
        print(
            f"memory: {memory['written']} episodes at concurrency 8 in {memory['seconds']:.2f} s; peak RSS "
            f"{mib['self_kib']:.0f} MiB main process (ru_maxrss self), {mib['largest_worker_kib']:.0f} MiB "
            f"largest of {memory['processes']} child processes, {mib['all_workers_kib']:.0f} MiB their sum "
            f"(ru_maxrss children before exit: {mib['children_kib']:.0f} MiB, see PeakWatcher)"
        )
        tasks = read_run_tasks(folder / "tasks.jsonl").runnable
        started = time.monotonic()
        resumed = run_trials(job, tasks, trials=args.trials, out=folder / "memory.jsonl")
        api = time.monotonic() - started
        cli = _cli_resume(folder, args.trials, args.oracle_time_limit)
        print(
            f"resume of the finished run ({len(resumed.resumed.done)} lines, {resumed.planned} to play): "
            f"{api * 1000:.1f} ms through the API, {cli:.2f} s through the CLI (start-up included)"
        )


def _memory(folder: Path, trials: int, limit: float) -> dict[str, Any]:
    command = [sys.executable, str(Path(__file__).resolve()), "--memory-phase", str(folder)]
    command += ["--trials", str(trials), "--oracle-time-limit", str(limit)]
    done = subprocess.run(command, check=True, cwd=REPO, capture_output=True, text=True)
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


if __name__ == "__main__":
    main()
