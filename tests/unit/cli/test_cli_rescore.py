"""`tripwright rescore`: official per-trial records, trial averaging and summaries
(docs/cli.md#tripwright-rescore)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from runner.cli.app import app
from runner.loading.benchmark_data import sample_path
from runner.saved.aggregate import average_trials, summarize
from tests.fixtures.zhuhai import POI_PATH, plan_path

TASK = json.loads(sample_path("task.json").read_text())


def _trial(trial_id: int, plan_name: str | None, **extra: Any) -> dict[str, Any]:
    history = [{"role": "User1", "content": "hi"}]
    if plan_name is not None:
        plan = plan_path(plan_name).read_text()
        history.append({"role": "Agent", "content": f"方案如下：\n```json\n{plan}\n```"})
    record = {
        "task_id": "task_004175",
        "trial_id": trial_id,
        "success": True,
        "plan_generated": plan_name is not None,
        "conversation_history": history,
        "agent_preference_table": {"User1": {"global_constraints": {"avg_budget": 3200}}},
        "effective_preferences": TASK["user_preferences"],
    }
    record.update(extra)
    return record


def test_rescore_averages_trials_and_summarises(tmp_path: Path) -> None:
    runs = [
        _trial(0, "good"),
        _trial(1, "broken"),
        {"task_id": "task_004175", "trial_id": 2, "success": False, "error": "rate limit"},
        _trial(0, None, task_id="task_unknown"),
    ]
    path = tmp_path / "runs.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in runs) + "\n")
    args = ["rescore", str(path), "--tasks", str(sample_path("task.json")), "--poi-db"]
    result = CliRunner().invoke(app, [*args, str(POI_PATH), "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["total_raw_samples"] == 4 and document["total_tasks"] == 2
    first, second = document["tasks"]
    assert first["difficulty_type"] == "easy" and first["num_trials"] == 3
    # GU per-user averages 10.5 (good) and 6.0 (broken); the failed trial is dropped
    assert first["official"]["group_utility_per_user_average_score"] == 8.25
    assert first["official"]["plan_validity_valid_ratio"] == 0.5
    assert first["official"]["plan_validity_avg_issues"] == 4.0
    assert second["difficulty_type"] == "unknown" and "group_utility_total_score" not in second["official"]
    overall = document["profiles"]["official"]["overall_summary"]
    assert overall["group_utility"] == {
        "count": 2,
        "valid_count": 1,
        "average_score": round(8.25 / 2, 2),
        "min_score": 0.0,
        "max_score": 8.25,
    }
    assert overall["plan_validity"] == {"count": 2, "valid_ratio": 0.25}
    assert set(document["profiles"]["official"]["difficulty_summaries"]) == {"easy", "unknown"}
    assert "--world" in document["strict_note"] and "strict" not in document["profiles"]


def test_single_trial_record_is_kept_and_errors_count_zero() -> None:
    record = {
        "task_id": "t",
        "plan_validity": {"valid": True, "total_issues": 0},
        "group_utility": {"total_score": 9, "per_user_average_score": 4.5},
        "group_fairness": {"error": "plan not generated"},
        "preference_completeness": {"completeness_ratio": 0.5},
    }
    assert average_trials([record]) is record
    summary = summarize([record])
    assert summary["plan_validity"]["valid_ratio"] == 1.0
    assert summary["group_fairness"]["valid_count"] == 0
    assert summary["group_utility"]["average_score"] == 4.5


def test_rescore_bad_runs_file_exits_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["rescore", str(tmp_path / "none.jsonl"), "--tasks", str(sample_path("task.json")), "--poi-db", "x"],
    )
    assert result.exit_code == 2 and "Traceback" not in result.output
