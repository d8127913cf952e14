"""kill -9 in the middle of a run, then resume: nothing lost, nothing duplicated, lines as a
run that was never interrupted would have written them.

The killed run is a small script in a subprocess that calls `run_trials` with the slow fake
episode (tests/fixtures/runs_fake.py); no production code knows about it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from runner.runs.run import Execution, run_trials
from tests.fixtures import runs_fake
from tests.unit.runs.conftest import read_lines, runnable, stable_lines, task, write_tasks

REPO = Path(__file__).resolve().parents[3]
TRIALS = 5
SCRIPT = f"""
import sys
from pathlib import Path
from runner.runs.config import RunConfig
from runner.runs.run import Execution, run_trials
from runner.runs.tasks import read_run_tasks
from runner.runs.trial import RunJob
from runner.scoring.oracle_cache import OracleCache, world_hash
from solver.oracle.solve import OracleSettings
from tests.fixtures import runs_fake

world, tasks, out, cache = sys.argv[1:]
oracle = OracleCache(Path(cache), world_hash(world), OracleSettings(time_limit=1.0))
job = RunJob(RunConfig(agent="fake", world_hash=world_hash(world)), world, oracle,
             episode=runs_fake.fake_episode, cast=runs_fake.fake_cast, sleep=runs_fake.fake_sleep)
tasks = read_run_tasks(tasks).runnable
run_trials(job, tasks, trials={TRIALS}, out=Path(out), execution=Execution(concurrency=2))
"""


def _wait_for_lines(path: Path, count: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        if path.exists() and path.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.02)
    raise AssertionError(f"the run wrote fewer than {count} lines in time (exit {process.poll()})")


def test_kill_9_then_resume_loses_and_duplicates_nothing(
    make_job: Any, world_dir: Path, tmp_path: Path
) -> None:
    tasks_file = write_tasks(tmp_path / "t.jsonl", task("slow-a"), task("slow-b"))
    out, script = tmp_path / "runs.jsonl", tmp_path / "run_slow.py"
    script.write_text(SCRIPT, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    args = [sys.executable, str(script), str(world_dir), str(tasks_file), str(out), str(tmp_path / "o")]
    process = subprocess.Popen(args, env=env, cwd=REPO)
    try:
        _wait_for_lines(out, 3, process)
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    before = out.read_bytes()
    written = before.count(b"\n")
    assert 3 <= written < 2 * TRIALS

    tasks = runnable(tasks_file)
    outcome = run_trials(make_job(), tasks, trials=TRIALS, out=out, execution=Execution(concurrency=4))
    assert outcome.planned == 2 * TRIALS - written
    after = out.read_bytes()
    assert after.startswith(before[: before.rfind(b"\n") + 1])
    lines = read_lines(out)
    keys = [(x["task_id"], x["trial_id"]) for x in lines]
    assert sorted(keys) == sorted({(t, k) for t in ("slow-a", "slow-b") for k in range(TRIALS)})

    runs_fake.reset()
    reference = tmp_path / "reference.jsonl"
    run_trials(make_job(), tasks, trials=TRIALS, out=reference, execution=Execution(concurrency=4))
    assert stable_lines(lines) == stable_lines(read_lines(reference))
