"""The Ray backend on a local Ray instance: the same lines as the local backend, resume included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from runner.runs.run import Execution, run_trials
from tests.unit.runs.conftest import read_lines, runnable, stable_lines, task, write_tasks

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_ray_backend_gives_the_local_lines(
    make_job: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ray = pytest.importorskip("ray")
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    tasks = runnable(write_tasks(tmp_path / "t.jsonl", task("a"), task("boom"), task("flaky")))
    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    run_trials(make_job(), tasks, trials=2, out=local)
    run_trials(make_job(), tasks[:1], trials=1, out=remote)  # one trial done before: resume must skip it
    try:
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
            runtime_env={"env_vars": {"PYTHONPATH": str(REPO)}},
        )
    except Exception as exc:
        pytest.skip(f"ray cannot start here: {exc}")
    try:
        outcome = run_trials(
            make_job(), tasks, trials=2, out=remote, execution=Execution(concurrency=2, backend="ray")
        )
    finally:
        ray.shutdown()
    assert (outcome.planned, outcome.written, outcome.lost) == (5, 5, [])
    assert stable_lines(read_lines(remote)) == stable_lines(read_lines(local))
