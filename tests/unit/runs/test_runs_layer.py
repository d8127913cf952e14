"""The runs layer with a fake episode: records, resume, config hash, retries, determinism, pools."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from runner.llm.config import LLMConfig
from runner.loading.benchmark_data import load_task, sample_path
from runner.loading.files import InputError
from runner.runs.cast import model_options
from runner.runs.config import ModelOptions, RunConfig, config_hash
from runner.runs.pool import WorkerLostError
from runner.runs.records import failure_reason
from runner.runs.run import Execution, run_trials
from runner.runs.seeds import trial_seed
from tests.fixtures import runs_fake
from tests.unit.runs.conftest import read_lines, runnable, stable_lines, task, write_tasks


def test_records_carry_identity_seed_and_hash(make_job: Any, tmp_path: Path) -> None:
    tasks = runnable(write_tasks(tmp_path / "t.jsonl", task("a"), task("b")))
    out = tmp_path / "runs.jsonl"
    outcome = run_trials(make_job(seed=7), tasks, trials=2, out=out)
    lines = read_lines(out)
    assert (outcome.planned, outcome.written, outcome.failed) == (4, 4, 0)
    assert [(x["task_index"], x["task_id"], x["trial_id"]) for x in lines] == [
        (0, "a", 0),
        (0, "a", 1),
        (1, "b", 0),
        (1, "b", 1),
    ]
    assert [x["seed"] for x in lines] == [trial_seed(7, t, k) for t in "ab" for k in (0, 1)]
    hashes = [x["config_hash"] for x in lines]
    assert hashes[0] == hashes[1] != hashes[2] == hashes[3]  # the task id is part of its content
    assert {x["attempts"] for x in lines} == {1}


def test_config_hash_differs_by_task_content_and_config(make_job: Any, tmp_path: Path) -> None:
    other = {**task("b"), "query": "另一个问题"}
    tasks = runnable(write_tasks(tmp_path / "t.jsonl", task("a"), other))
    out = tmp_path / "runs.jsonl"
    run_trials(make_job(), tasks, trials=1, out=out)
    hashes = [x["config_hash"] for x in read_lines(out)]
    assert hashes[0] != hashes[1]
    run_trials(make_job(), tasks, trials=1, out=tmp_path / "again.jsonl")
    assert [x["config_hash"] for x in read_lines(tmp_path / "again.jsonl")] == hashes


def test_seeds_are_stable_and_distinct() -> None:
    assert trial_seed(0, "task_004175", 0) == trial_seed(0, "task_004175", 0)
    seeds = {trial_seed(s, t, k) for s in (0, 1) for t in ("a", "b") for k in range(3)}
    assert len(seeds) == 12
    assert all(0 <= seed < 2**31 for seed in seeds)
    derived = int.from_bytes(hashlib.sha256(b'[0,"a",0]').digest()[:4], "big") >> 1
    assert trial_seed(0, "a", 0) == derived == 1541442449


def test_resume_skips_done_reruns_purged_and_cuts_torn(make_job: Any, tmp_path: Path) -> None:
    tasks = runnable(write_tasks(tmp_path / "t.jsonl", task("a"), task("down")))
    out = tmp_path / "runs.jsonl"
    job = make_job()
    first = run_trials(job, tasks, trials=2, out=out)
    assert first.completion == {"plan_generated": 2, "connection_error": 2}
    done = [x for x in read_lines(out) if x["task_id"] == "a"]
    with out.open("ab") as handle:
        handle.write(b'{"task_id": "a", "tri')  # a torn last line
    runs_fake.reset()
    second = run_trials(job, tasks, trials=3, out=out)
    assert (second.resumed.purged, second.resumed.torn_bytes) == (2, 21)
    assert second.resumed.done == {("a", 0), ("a", 1)}
    assert second.planned == 4  # a/2 and the three trials of `down`
    lines = read_lines(out)
    assert lines[:2] == done  # finished lines kept byte for byte, first
    assert sorted((x["task_id"], x["trial_id"]) for x in lines) == [
        ("a", 0),
        ("a", 1),
        ("a", 2),
        ("down", 0),
        ("down", 1),
        ("down", 2),
    ]
    assert runs_fake.ATTEMPTS[("a", 0)] == 0  # not played again


def test_other_config_is_refused_unless_restart(make_job: Any, tmp_path: Path) -> None:
    tasks = runnable(write_tasks(tmp_path / "t.jsonl", task("a")))
    out = tmp_path / "runs.jsonl"
    run_trials(make_job(seed=1), tasks, trials=1, out=out)
    before = out.read_bytes()
    with pytest.raises(InputError) as caught:
        run_trials(make_job(seed=2), tasks, trials=1, out=out)
    assert caught.value.where == "line 1"
    assert "task 'a' was run with another configuration" in caught.value.problem
    assert "--restart" in caught.value.problem
    assert out.read_bytes() == before
    outcome = run_trials(make_job(seed=2), tasks, trials=1, out=out, restart=True)
    assert outcome.written == 1
    assert [x["seed"] for x in read_lines(out)] == [trial_seed(2, "a", 0)]


def test_changed_task_content_is_refused(make_job: Any, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    run_trials(make_job(), runnable(write_tasks(tmp_path / "t.jsonl", task("a"))), trials=1, out=out)
    changed = runnable(write_tasks(tmp_path / "t2.jsonl", {**task("a"), "time": "2025-01-02"}))
    with pytest.raises(InputError, match="another configuration"):
        run_trials(make_job(), changed, trials=1, out=out)
    with pytest.raises(InputError, match="not a runnable task of --tasks"):
        run_trials(make_job(), runnable(write_tasks(tmp_path / "t3.jsonl", task("z"))), trials=1, out=out)


def test_foreign_file_is_refused(make_job: Any, tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    out.write_text('{"task_id": "a", "status": "OPTIMAL"}\n', encoding="utf-8")
    tasks = runnable(write_tasks(tmp_path / "t.jsonl", task("a")))
    with pytest.raises(InputError, match="not a tripwright run line"):
        run_trials(make_job(), tasks, trials=1, out=out)


def test_retries_with_exponential_backoff(make_job: Any, tmp_path: Path) -> None:
    tasks = runnable(write_tasks(tmp_path / "t.jsonl", task("flaky"), task("down")))
    out = tmp_path / "runs.jsonl"
    run_trials(make_job(), tasks, trials=1, out=out)
    flaky, down = read_lines(out)
    assert (flaky["success"], flaky["attempts"]) == (True, 3)
    assert (down["success"], down["attempts"]) == (False, 4)
    assert runs_fake.SLEEPS == [2.0, 4.0, 2.0, 4.0, 5.0]  # flaky: 2 waits; down: 3, the last capped


def test_failure_records_have_the_official_shape(make_job: Any, tmp_path: Path) -> None:
    tasks = runnable(write_tasks(tmp_path / "t.jsonl", task("boom"), task("down")))
    out = tmp_path / "runs.jsonl"
    run_trials(make_job(), tasks, trials=1, out=out)
    boom, down = read_lines(out)
    digest = boom.pop("config_hash")
    assert boom == {
        "task_index": 0,
        "task_id": "boom",
        "trial_id": 0,
        "success": False,
        "error": "This model's maximum context length is 8192 tokens",
        "completion_reason": "context_overflow",
        "plan_generated": False,
        "termination_reason": "context_overflow",
        "trial": 0,
        "seed": trial_seed(0, "boom", 0),
        "attempts": 1,
    }
    assert len(digest) == 16
    assert (down["error"], down["completion_reason"]) == (
        "connection_error: connection refused",
        "connection_error",
    )


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("Request timeout after 30s", "connection_error"),
        ("Error code: 429", "rate_limit"),
        ("context_length_exceeded", "context_overflow"),
        ("KeyError: 'days'", "runtime_error"),
    ],
)
def test_plain_exceptions_are_classified_by_message(message: str, reason: str) -> None:
    assert failure_reason(RuntimeError(message)) == reason


def test_same_config_gives_the_same_lines(make_job: Any, tmp_path: Path) -> None:
    tasks = runnable(write_tasks(tmp_path / "t.jsonl", task("a"), task("b"), task("flaky")))
    first, second = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    run_trials(make_job(), tasks, trials=3, out=first, execution=Execution(concurrency=3))
    runs_fake.reset()
    run_trials(make_job(), tasks, trials=3, out=second, execution=Execution(concurrency=2))
    assert stable_lines(read_lines(first)) == stable_lines(read_lines(second))
    assert len(read_lines(first)) == 9


def test_select_runs_some_tasks_and_resume_stays_exact(make_job: Any, tmp_path: Path) -> None:
    tasks = runnable(write_tasks(tmp_path / "t.jsonl", task("a"), task("b")))
    out = tmp_path / "runs.jsonl"
    run_trials(make_job(), tasks, trials=1, out=out, select={"b"})
    assert [x["task_id"] for x in read_lines(out)] == ["b"]
    outcome = run_trials(make_job(), tasks, trials=1, out=out)
    assert (outcome.planned, [x["task_id"] for x in read_lines(out)]) == (1, ["b", "a"])


def test_process_pool_gives_the_thread_lines(make_job: Any, tmp_path: Path) -> None:
    tasks = runnable(write_tasks(tmp_path / "t.jsonl", task("a"), task("boom")))
    threads, processes = tmp_path / "threads.jsonl", tmp_path / "processes.jsonl"
    run_trials(make_job(), tasks, trials=2, out=threads)
    execution = Execution(concurrency=2, pool="processes")
    run_trials(make_job(), tasks, trials=2, out=processes, execution=execution)
    assert stable_lines(read_lines(processes)) == stable_lines(read_lines(threads))


def test_model_options_are_llm_config_options() -> None:
    assert model_options(ModelOptions(), 5) is None
    assert model_options(ModelOptions(model="qwen"), 5) == {
        "model": "qwen",
        "api_key_env": "OPENAI_API_KEY",
        "seed": 5,
    }
    options = model_options(ModelOptions("http://127.0.0.1:9/v1", "qwen", "MY_KEY", 0.7), 5)
    config = LLMConfig.from_options(options)
    assert (config.base_url, config.model, config.api_key_env, config.temperature, config.seed) == (
        "http://127.0.0.1:9/v1",
        "qwen",
        "MY_KEY",
        0.7,
        5,
    )


def test_the_key_variable_is_not_part_of_the_config_hash() -> None:
    sample = load_task(sample_path("task.json"), None)
    one = RunConfig("openai", model=ModelOptions("http://h/v1", "m", "KEY_A"))
    two = RunConfig("openai", model=ModelOptions("http://h/v1", "m", "KEY_B"))
    hotter = RunConfig("openai", model=ModelOptions("http://h/v1", "m", "KEY_A", 0.9))
    assert config_hash(one, sample) == config_hash(two, sample) != config_hash(hotter, sample)


def test_tool_faults_enter_the_hash_only_when_given() -> None:
    sample = load_task(sample_path("task.json"), None)
    plain = RunConfig("scripted")
    assert "tool_faults" not in plain.identity()
    faulted = RunConfig("scripted", tool_faults="every:2")
    assert faulted.identity()["tool_faults"] == "every:2"
    other = RunConfig("scripted", tool_faults="every:3")
    assert len({config_hash(c, sample) for c in (plain, faulted, other)}) == 3
    # the hash of a run without faults is the one computed before the option existed
    assert set(plain.identity()) == {
        "version", "agent", "users", "seed", "model", "max_turn", "convergence_interval",
        "oracle_time_limit", "world_hash",
    }  # fmt: skip


def test_a_dead_worker_process_ends_the_run_and_resume_finishes_it(make_job: Any, tmp_path: Path) -> None:
    tasks = runnable(write_tasks(tmp_path / "t.jsonl", task("die")))
    out = tmp_path / "runs.jsonl"
    with pytest.raises(WorkerLostError, match="a worker process died"):
        run_trials(make_job(), tasks, trials=2, out=out, execution=Execution(concurrency=2, pool="processes"))
    assert out.read_bytes() == b""
    outcome = run_trials(make_job(), tasks, trials=2, out=out)
    assert (outcome.planned, [x["trial_id"] for x in read_lines(out)]) == (2, [0, 1])
