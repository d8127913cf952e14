"""A flaky endpoint costs retries, not trials: the openai agent (rule users) against the fake
server through the runs layer. Faults met are counted on the line; a trial whose calls fail on
transport faults only is retried, written as a `transient` failure when the attempts run out,
and played again by the next resume."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from runner.agents.openai_agent import OpenAIAgent
from runner.episode import run_episode
from runner.llm.config import LLMConfig
from runner.runs.cast import Cast
from runner.runs.records import is_purged
from runner.runs.run import run_trials
from runner.runs.trial import RunJob
from runner.users.registry import make_users
from tests.fixtures import runs_fake
from tests.fixtures.fake_openai import (
    Scripted,
    fake_openai,
    no_choices,
    rate_limited,
    server_error,
    text,
    truncated,
)
from tests.unit.runs.conftest import SAMPLE, read_lines, runnable, task, write_tasks
from verifier.model.task import Task

Respond = Callable[[dict[str, Any]], Scripted]


def model_cast(base_url: str, job: RunJob, task: Task, world: Any, seed: int) -> Cast:
    """The openai agent (one re-send, no wait) and rule users."""
    config = LLMConfig(base_url=base_url, model="fake-model", retries=1, backoff_s=0.0, seed=seed)
    return Cast(OpenAIAgent(config), make_users("rules", task, seed=seed))


def job_for(make_job: Any, base_url: str) -> RunJob:
    """The conftest job (fake sleep, 4 attempts) with the real engine and the model cast."""
    job: RunJob = make_job(agent="openai", max_turn=1)
    return RunJob(
        job.config,
        job.world_dir,
        job.oracle,
        episode=run_episode,
        cast=functools.partial(model_cast, base_url),
        retry=job.retry,
        sleep=job.sleep,
    )


def every_other(faults: list[Scripted]) -> Respond:
    """Odd requests fail with the next fault of the cycle, even ones answer in text."""
    cycle = itertools.cycle(faults)
    count = itertools.count()

    def respond(body: dict[str, Any]) -> Scripted:
        return next(cycle) if next(count) % 2 == 0 else text("好的，我再想想。")

    return respond


@pytest.mark.parametrize(
    ("faults", "counts"),
    [
        ([truncated()], {"undecodable_reply": 6}),
        ([no_choices()], {"no_choices": 6}),
        (
            [server_error(503), rate_limited(0), truncated(), no_choices()],
            {"no_choices": 1, "rate_limit": 2, "server_error": 2, "undecodable_reply": 1},
        ),
    ],
)
def test_faults_between_good_answers_cost_re_sends_not_the_trial(
    make_job: Any, tmp_path: Path, faults: list[Scripted], counts: dict[str, int]
) -> None:
    tasks = runnable(write_tasks(tmp_path / "t.jsonl", SAMPLE))
    out = tmp_path / "runs.jsonl"
    with fake_openai(respond=every_other(faults)) as server:
        outcome = run_trials(job_for(make_job, server.base_url), tasks, trials=1, out=out)
    (line,) = read_lines(out)
    assert outcome.completion == {"max_turn_reached": 1}
    assert (line["success"], line["attempts"]) == (True, 1)
    assert line["transport_faults"] == counts
    assert sum(counts.values()) * 2 == len(server.requests)


def test_a_dead_endpoint_is_a_transient_failure_that_resume_plays_again(
    make_job: Any, tmp_path: Path
) -> None:
    tasks = runnable(write_tasks(tmp_path / "t.jsonl", task("a")))
    out = tmp_path / "runs.jsonl"
    with fake_openai(respond=lambda body: truncated()) as server:
        first = run_trials(job_for(make_job, server.base_url), tasks, trials=1, out=out)
    (line,) = read_lines(out)
    assert first.completion == {"runtime_error": 1}
    assert (line["success"], line["transient"], line["attempts"]) == (False, True, 4)
    assert line["transport_faults"] == {"undecodable_reply": 8}  # 4 attempts × (1 call + 1 re-send)
    assert runs_fake.SLEEPS == [2.0, 4.0, 5.0]
    assert is_purged(line)
    with fake_openai(respond=lambda body: text("好的。")) as server:
        second = run_trials(job_for(make_job, server.base_url), tasks, trials=1, out=out)
    assert (second.resumed.purged, second.completion) == (1, {"max_turn_reached": 1})
    (line,) = read_lines(out)
    assert (line["success"], line["transport_faults"]) == (True, {})
