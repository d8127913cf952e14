"""Official plan validity against the golden corpus, bit for bit.

Every case of `golden/official/cases.jsonl` must reproduce `valid`, `total_issues`,
`issue_counts` (first-seen order) and the full `issues` list of `expected.jsonl` — every key,
key order, message and int/float kind. On `crash_cases.jsonl`, where the official
`plan_validity` raised, the same exception type and message must be raised; elsewhere the
validity fields must match.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from verifier.official.plan_view import build_view
from verifier.official.poi_db import PoiDb
from verifier.official.validity import plan_validity_issues, validity_report

pytestmark = pytest.mark.shared

FIELDS = ("valid", "total_issues", "issue_counts", "issues")
SHOWN = 5


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def golden(shared_dir: Path) -> Path:
    return shared_dir / "golden" / "official"


@pytest.fixture(scope="module")
def users_by_task(golden: Path) -> dict[str, list[str]]:
    return {task["task_id"]: list(task["user_preferences"]) for task in _lines(golden / "tasks.jsonl")}


@pytest.fixture(scope="module")
def poi_db(golden: Path) -> PoiDb:
    return PoiDb.load(golden / "poi_db.json")


def _typed(value: Any) -> str:
    """Canonical JSON that also tells ints from floats and keeps key order."""
    return json.dumps(value, ensure_ascii=False)


def _first_difference(got: dict[str, Any], want: dict[str, Any]) -> str:
    for field in FIELDS:
        if _typed(got[field]) == _typed(want[field]):
            continue
        if field != "issues":
            return f"{field}: got {_typed(got[field])} want {_typed(want[field])}"
        for k in range(max(len(got["issues"]), len(want["issues"]))):
            mine = got["issues"][k] if k < len(got["issues"]) else None
            theirs = want["issues"][k] if k < len(want["issues"]) else None
            if _typed(mine) != _typed(theirs):
                return f"issues[{k}]: got {_typed(mine)}\n      want {_typed(theirs)}"
    return "no difference"


def _report(case: dict[str, Any], users: list[str], poi_db: PoiDb) -> dict[str, Any]:
    return validity_report(plan_validity_issues(build_view(case["plan"], users), poi_db))


def test_every_golden_case_matches(golden: Path, users_by_task: dict[str, list[str]], poi_db: PoiDb) -> None:
    cases, expected = _lines(golden / "cases.jsonl"), _lines(golden / "expected.jsonl")
    assert len(cases) == len(expected) == 1160
    mismatches: list[str] = []
    for case, want in zip(cases, expected, strict=True):
        assert case["id"] == want["id"]
        got = _report(case, users_by_task[case["task_id"]], poi_db)
        if any(_typed(got[field]) != _typed(want[field]) for field in FIELDS):
            mismatches.append(f"{case['id']} ({case['variant']}): {_first_difference(got, want)}")
    shown = "\n".join(mismatches[:SHOWN])
    assert not mismatches, f"{len(mismatches)}/{len(cases)} cases differ; first:\n{shown}"


def test_crash_cases_raise_or_match(golden: Path, users_by_task: dict[str, list[str]], poi_db: PoiDb) -> None:
    failures: list[str] = []
    raised = 0
    for case in _lines(golden / "crash_cases.jsonl"):
        want = case["expected"]
        error = (want.get("errors") or {}).get("plan_validity")
        users = users_by_task[case["task_id"]]
        try:
            got = _report(case, users, poi_db)
        except Exception as exc:
            outcome = {"type": type(exc).__name__, "message": str(exc)}
            if outcome != error:
                failures.append(f"{case['id']}: raised {outcome}, want {error or 'no error'}")
            raised += 1
            continue
        if error is not None:
            failures.append(f"{case['id']}: no error, want {error}")
        elif any(_typed(got[field]) != _typed(want[field]) for field in FIELDS):
            failures.append(f"{case['id']}: {_first_difference(got, want)}")
    assert not failures, "\n".join(failures)
    assert raised == 15
