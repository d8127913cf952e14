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
