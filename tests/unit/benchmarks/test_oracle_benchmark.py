"""The oracle benchmark's `--out` file: a run resumes after the tasks it holds and refuses one of
another run's settings (so figures of two runs are never mixed)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "oracle.py"


def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("oracle_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write(path: Path, rows: list[dict[str, object]]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


def test_a_run_resumes_after_the_rows_of_the_same_settings(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    rows = [{"task_id": "t1", "time_limit": 10.0, "compare_splits": False}]
    _write(out, rows)
    assert _module()._done(out, 10.0, False) == rows
    assert _module()._done(tmp_path / "absent.jsonl", 10.0, False) == []
    assert _module()._done(None, 10.0, False) == []


@pytest.mark.parametrize(
    "row",
    [
        {"task_id": "t1", "time_limit": 60.0, "compare_splits": False},
        {"task_id": "t1", "time_limit": 10.0, "compare_splits": True},
        {"task_id": "t1"},
    ],
    ids=["other_limit", "other_splits", "unlabelled"],
)
def test_a_file_of_another_run_is_refused_naming_the_task(tmp_path: Path, row: dict[str, object]) -> None:
    out = tmp_path / "out.jsonl"
    _write(out, [row])
    with pytest.raises(SystemExit, match=r"holds t1 of another run .*give another --out"):
        _module()._done(out, 10.0, False)


def test_the_decomposition_lines_say_where_its_bound_and_its_first_pass_are_the_records() -> None:
    """t1: the decomposed bound (floor of the first pass, 40.5) is the record's; t2: a round beat
    the first pass (bound 30, first 35.2) and is the record's; t3: the record's bound is
    another's (50 under 61); t4: no decomposition. Closing ran on t2 and lowered its bound; split
    seeds were priced on t1 and t2, trip seeds on t1."""
    rows = [
        {"bound": 40, "decomposition": {"bound": 40, "first": 40.5, "split": 3, "trips": 7}},
        {
            "bound": 30,
            "decomposition": {
                "bound": 30,
                "first": 35.2,
                "converged": True,
                "closing": {"bound": 29},
                "split": 5,
            },
        },
        {"bound": 50, "decomposition": {"bound": 61, "first": 61.0}},
        {"bound": 12},
    ]
    lines = _module().decomposition_lines(rows)
    assert lines[0] == "decomposed bound is the record's: 2/4, its first pass's: 1"
    assert (
        lines[1]
        == "decomposition converged: 1/4; gap closing ran on 1, finished on 1, lowered the bound on 1"
    )
    assert lines[2].startswith("split seeds priced on 2/4 tasks, columns a task: min 3")
    assert lines[3].startswith("trip seeds priced on 1/4 tasks, columns a task: min 7")
