"""`verify-batch --profile official` over the whole golden corpus reproduces the official outputs.

Numbers are compared through their JSON text, so int/float kind and the sign of zero count.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from runner.cli.app import app

pytestmark = pytest.mark.shared


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _batch(golden: Path, cases: Path, tmp_path: Path) -> list[dict[str, Any]]:
    out = tmp_path / "out.jsonl"
    args = ["verify-batch", str(cases), "--poi-db", str(golden / "poi_db.json"), "--profile", "official"]
    result = CliRunner().invoke(app, [*args, "--tasks", str(golden / "tasks.jsonl"), "--out", str(out)])
    assert result.exit_code in (0, 1), result.output
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def _expected_gu(expected: dict[str, Any]) -> dict[str, Any]:
    return {
        "total_score": expected["total_score"],
        "per_user_average_score": expected["per_user_average_score"],
        "total_score_before_penalty": expected["total_score_before_penalty"],
        "num_users": expected["num_users"],
        "split_penalty": expected["split_penalty"],
        "per_user": {user: item["total_score"] for user, item in expected["per_user"].items()},
    }


def _mismatches(expected: dict[str, Any], got: dict[str, Any], skip: set[str]) -> list[str]:
    pairs = {
        "plan_validity": (
            [expected["valid"], expected["total_issues"], expected["issue_counts"]],
            [got["valid"], got["total_issues"], got["issue_counts"]],
        ),
        "group_utility": (_expected_gu(expected) if expected["per_user"] is not None else None, got["gu"]),
        "group_fairness": (expected["fairness"], got["gf"]),
        "preference_completeness": (expected["preference_completeness"], got["pc"]),
    }
    return [name for name, (want, have) in pairs.items() if name not in skip and _dump(want) != _dump(have)]


def test_every_golden_case_matches(shared_dir: Path, tmp_path: Path) -> None:
    golden = shared_dir / "golden" / "official"
    expected = [json.loads(x) for x in (golden / "expected.jsonl").read_text(encoding="utf-8").splitlines()]
    got = _batch(golden, golden / "cases.jsonl", tmp_path)
    assert len(got) == len(expected) == 1160
    wrong = {}
    for want, have in zip(expected, got, strict=True):
        assert have["id"] == want["id"] and "error" not in have
        assert have["plan_extractable"] == want["plan_extractable"]
        assert have["input_errors"] == []
        bad = _mismatches(want, have, skip=set())
        if bad:
            wrong[want["id"]] = bad
    assert wrong == {}
    assert sum(1 for line in got if line["valid"]) == 743


def test_crash_cases_name_the_crashing_function(shared_dir: Path, tmp_path: Path) -> None:
    golden = shared_dir / "golden" / "official"
    cases = [json.loads(x) for x in (golden / "crash_cases.jsonl").read_text(encoding="utf-8").splitlines()]
    got = _batch(golden, golden / "crash_cases.jsonl", tmp_path)
    assert len(got) == len(cases) == 30
    for case, have in zip(cases, got, strict=True):
        expected = case["expected"]
        crashes = {
            item["ctx"]["function"]: {
                "type": item["ctx"]["error_type"],
                "message": item["ctx"]["error_message"],
            }
            for item in have["input_errors"]
        }
        assert {item["code"] for item in have["input_errors"]} == {"input.official_crash"}
        assert crashes == expected["errors"], case["id"]
        assert _mismatches(expected, have, skip=set(expected["errors"])) == [], case["id"]
        for function in expected["errors"]:
            assert {"plan_validity": have["valid"], "group_utility": have["gu"]}.get(function) is None
