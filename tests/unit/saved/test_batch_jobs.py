"""`--jobs N`: chunked work on forked workers gives the same bytes, in input order, as one job."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from runner.cli.app import app
from runner.loading.benchmark_data import load_tasks, sample_path
from runner.loading.files import numbered_lines
from runner.saved.ordered_pool import chunk_results, default_jobs
from runner.saved.verify_cases import CHUNK_LINES, BatchSettings, verify_batch
from tests.fixtures.zhuhai import POI_PATH, plan_path, zhuhai_poi_db

TASK = json.loads(sample_path("task.json").read_text(encoding="utf-8"))
NAMES = ("good", "quirk", "broken")
PLANS = {name: json.loads(plan_path(name).read_text(encoding="utf-8")) for name in NAMES}
BAD_LINES = {
    5: ("{broken", None),
    40: ("[1, 2]", None),
    77: ('{"id": "no-plan", "task_id": "task_004175"}', "no-plan"),
    130: ('{"id": "unknown", "task_id": "task_x", "plan": {"days": []}}', "unknown"),
}


def _fixture_batch() -> bytes:
    """150 numbered lines over three chunks: the three Zhuhai plans in turn, four bad lines and
    two blank lines (skipped, yet counted in the line numbers)."""
    lines: list[str] = []
    for number in range(1, 151):
        if number in BAD_LINES:
            lines.append(BAD_LINES[number][0])
        elif number in (60, 61):
            lines.append("   ")
        else:
            name = NAMES[number % 3]
            lines.append(json.dumps({"id": f"c{number}", "task_id": "task_004175", "plan": PLANS[name]}))
    return ("\n".join(lines) + "\n").encode()


def _settings() -> BatchSettings:
    return BatchSettings(
        profile="official", poi_db=zhuhai_poi_db(), tasks=load_tasks(sample_path("task.json"))
    )


def _run_batch(data: bytes, jobs: int) -> tuple[bytes, int, bool]:
    with verify_batch(numbered_lines(data), _settings(), jobs=jobs) as chunks:
        done = list(chunks)
    return b"".join(c.data for c in done), sum(c.lines for c in done), all(c.all_valid for c in done)


def test_two_jobs_give_the_bytes_of_one() -> None:
    data = _fixture_batch()
    one, two = _run_batch(data, 1), _run_batch(data, 2)
    assert len(numbered_lines(data)) == 148 > 2 * CHUNK_LINES
    assert two == one
    rows = [json.loads(line) for line in one[0].splitlines()]
    assert one[1] == 148 and one[2] is False
    expected_ids = [
        BAD_LINES[n][1] if n in BAD_LINES else f"c{n}" for n in range(1, 151) if n not in (60, 61)
    ]
    assert [row["id"] for row in rows] == expected_ids
    errors = {row["line"]: row["error"] for row in rows if "error" in row}
    assert list(errors) == [5, 40, 77, 130]
    assert errors[40] == "a case must be a JSON object, got list"
    assert errors[77] == "missing field 'plan'"
    assert errors[130] == "unknown task_id 'task_x' (not in the --tasks file)"
    assert errors[5].startswith("not valid JSON (")
    valid = {row["id"]: row["valid"] for row in rows if "error" not in row}
    assert (valid["c3"], valid["c4"], valid["c2"]) == (True, True, False)


def test_cli_jobs_2_writes_what_jobs_1_writes(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_bytes(_fixture_batch())
    written = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}.jsonl"
        args = ["verify-batch", str(cases), "--poi-db", str(POI_PATH), "--profile", "official"]
        tasks = ["--tasks", str(sample_path("task.json"))]
        result = CliRunner().invoke(app, [*args, *tasks, "--out", str(out), "--jobs", jobs])
        assert result.exit_code == 1, result.output
        written[jobs] = out.read_bytes()
        assert written[jobs].count(b"\n") == 148
    assert written["2"] == written["1"]


def test_rescore_jobs_2_gives_the_document_of_jobs_1(tmp_path: Path) -> None:
    records = []
    for trial in range(40):
        name = NAMES[trial % 3]
        reply = "方案如下：\n```json\n" + json.dumps(PLANS[name], ensure_ascii=False) + "\n```"
        records.append(
            json.dumps(
                {
                    "task_id": "task_004175",
                    "trial_id": trial,
                    "success": True,
                    "plan_generated": trial % 7 != 0,
                    "conversation_history": [{"role": "Agent", "content": reply}],
                    "agent_preference_table": {"User1": {"global_constraints": {"avg_budget": 3200}}},
                    "effective_preferences": TASK["user_preferences"],
                },
                ensure_ascii=False,
            )
        )
    records.insert(20, "{torn")
    runs = tmp_path / "runs.jsonl"
    runs.write_text("\n".join(records) + "\n", encoding="utf-8")
    outputs = []
    for jobs in ("1", "2"):
        args = ["rescore", str(runs), "--tasks", str(sample_path("task.json")), "--poi-db", str(POI_PATH)]
        result = CliRunner().invoke(app, [*args, "--json", "--jobs", jobs])
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    assert outputs[1] == outputs[0]
    document = json.loads(outputs[0])
    assert document["total_raw_samples"] == 40
    assert [item["line"] for item in document["skipped_lines"]] == [21]


def _pids(items: Sequence[int]) -> list[tuple[int, int]]:
    return [(item * item, os.getpid()) for item in items]


def test_chunks_run_on_forked_workers_in_input_order() -> None:
    with chunk_results(_pids, list(range(10)), jobs=2, chunk_size=3) as chunks:
        results = [row for chunk in chunks for row in chunk]
    assert [square for square, _ in results] == [n * n for n in range(10)]
    assert os.getpid() not in {pid for _, pid in results}


def test_one_job_runs_here() -> None:
    with chunk_results(_pids, [1, 2, 3], jobs=1, chunk_size=2) as chunks:
        assert [list(chunk) for chunk in chunks] == [[(1, os.getpid()), (4, os.getpid())], [(9, os.getpid())]]


def _die(items: Sequence[int]) -> list[int]:
    if 5 in items:
        os._exit(3)
    return list(items)


def test_a_dead_worker_is_an_error_not_a_hang() -> None:
    with (
        pytest.raises(BrokenProcessPool),
        chunk_results(_die, list(range(10)), jobs=2, chunk_size=2) as chunks,
    ):
        list(chunks)


@settings(max_examples=15, deadline=None)
@given(
    items=st.lists(st.integers(-50, 50), max_size=30),
    jobs=st.integers(1, 3),
    chunk_size=st.integers(1, 8),
)
def test_chunk_results_concatenate_to_the_whole(items: list[int], jobs: int, chunk_size: int) -> None:
    with chunk_results(
        lambda chunk: [n * 3 for n in chunk], items, jobs=jobs, chunk_size=chunk_size
    ) as chunks:
        results = list(chunks)
    assert [n for chunk in results for n in chunk] == [n * 3 for n in items]
    assert [len(chunk) for chunk in results] == [
        min(chunk_size, len(items) - start) for start in range(0, len(items), chunk_size)
    ]


def test_default_jobs_are_the_cores_this_process_may_use() -> None:
    assert default_jobs() == len(os.sched_getaffinity(0))
