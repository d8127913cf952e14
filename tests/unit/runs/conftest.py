"""Fixtures of the runs-layer tests: the sample world on disk, task files, a job with fakes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from runner.loading.benchmark_data import sample_path
from runner.runs.config import RunConfig
from runner.runs.tasks import RunTask, read_run_tasks
from runner.runs.trial import Retry, RunJob
from runner.scoring.oracle_cache import OracleCache, world_hash
from sandbox.world.build import build_world
from solver.oracle.solve import OracleSettings
from tests.fixtures import runs_fake

SAMPLE: dict[str, Any] = json.loads(sample_path("task.json").read_text(encoding="utf-8"))


def task(task_id: str) -> dict[str, Any]:
    """The sample task under another id."""
    return {**SAMPLE, "task_id": task_id}


def write_tasks(path: Path, *lines: dict[str, Any] | str) -> Path:
    text = [line if isinstance(line, str) else json.dumps(line, ensure_ascii=False) for line in lines]
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    return path


def runnable(path: Path) -> list[RunTask]:
    return read_run_tasks(path).runnable


def read_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


CLOCK_KEYS = ("timings", "duration")


def stable_lines(lines: list[dict[str, Any]]) -> list[bytes]:
    """Each line without its clock readings, as bytes, sorted (completion order may differ)."""
    kept = [{k: v for k, v in line.items() if k not in CLOCK_KEYS} for line in lines]
    return sorted(json.dumps(line, ensure_ascii=False).encode() for line in kept)


@pytest.fixture(scope="session")
def world_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("runs") / "world"
    build_world([SAMPLE], seed=1).save(root)
    return root


@pytest.fixture
def make_job(world_dir: Path, tmp_path: Path) -> Any:
    """A job with the fake episode, cast and sleep (counters reset); keywords change the config."""
    runs_fake.reset()

    def make(**config: Any) -> RunJob:
        oracle = OracleCache(tmp_path / "oracle", world_hash(world_dir), OracleSettings(time_limit=1.0))
        return RunJob(
            RunConfig(agent=config.pop("agent", "fake"), world_hash=world_hash(world_dir), **config),
            str(world_dir),
            oracle,
            episode=runs_fake.fake_episode,
            cast=runs_fake.fake_cast,
            retry=Retry(attempts=4, base_s=2.0, cap_s=5.0),
            sleep=runs_fake.fake_sleep,
        )

    return make
