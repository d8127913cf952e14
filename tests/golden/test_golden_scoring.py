"""Official scoring against the golden corpus: GU, GF, PC and the extraction gate, bit for bit.

Every case of `golden/official/cases.jsonl` must reproduce the official `plan_extractable`,
`per_user`, `split_penalty`, totals, `fairness` and `preference_completeness` exactly — key
order, int/float kind and the sign of zero included. On `crash_cases.jsonl` the functions the
official code crashed in must raise the same exception type and message.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from verifier.official.completeness import evaluate_preference_completeness
from verifier.official.extraction import is_valid_travel_plan
from verifier.official.fairness import evaluate_group_fairness
from verifier.official.plan_view import build_view
from verifier.official.poi_db import PoiDb
from verifier.official.utility import evaluate_group_utility

pytestmark = pytest.mark.shared

GU_FIELDS = (
    "per_user",
    "split_penalty",
    "total_score_before_penalty",
    "total_score",
    "num_users",
    "per_user_average_score",
)
MAX_REPORTED = 5


def first_mismatch(expected: Any, actual: Any, path: str = "$") -> str | None:
    """Where two JSON values first differ (type, key order, float sign of zero), or None."""
    if type(expected) is not type(actual):
        return (
            f"{path}: expected {type(expected).__name__} {expected!r}, got {type(actual).__name__} {actual!r}"
        )
    if isinstance(expected, dict):
        if list(expected) != list(actual):
            return f"{path}: keys expected {list(expected)}, got {list(actual)}"
        for key in expected:
            found = first_mismatch(expected[key], actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        for i, (want, got) in enumerate(zip(expected, actual, strict=False)):
            found = first_mismatch(want, got, f"{path}[{i}]")
            if found:
                return found
        if len(expected) != len(actual):
            return f"{path}: expected {len(expected)} items, got {len(actual)}"
        return None
    if (
        isinstance(expected, float)
        and expected == 0.0
        and math.copysign(1, expected) != math.copysign(1, actual)
    ):
        return f"{path}: expected {expected!r}, got {actual!r} (sign of zero)"
    if expected != actual:
        return f"{path}: expected {expected!r}, got {actual!r}"
    return None


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def golden(shared_dir: Path) -> dict[str, Any]:
    root = shared_dir / "golden" / "official"
    return {
        "root": root,
        "tasks": {task["task_id"]: task for task in _lines(root / "tasks.jsonl")},
        "poi_db": PoiDb.load(root / "poi_db.json"),
    }


def _inputs(case: dict[str, Any], golden: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    prefs = golden["tasks"][case["task_id"]]["user_preferences"]
    return build_view(case["plan"], list(prefs)), case.get("effective", prefs)


def _score_case(case: dict[str, Any], golden: dict[str, Any]) -> dict[str, Any]:
    view, effective = _inputs(case, golden)
    gu = evaluate_group_utility(view, effective, golden["poi_db"])
    result: dict[str, Any] = {"plan_extractable": is_valid_travel_plan(case["plan"])}
    result.update({name: gu[name] for name in GU_FIELDS})
    result["fairness"] = evaluate_group_fairness(view, effective, golden["poi_db"])
    inferred = case.get("inferred")
    has_inferred = "inferred" in case
    result["preference_completeness"] = (
        evaluate_preference_completeness(inferred, effective) if has_inferred else None
    )
    return result


def _report(failures: list[str], total: int) -> str:
    shown = "\n".join(failures[:MAX_REPORTED])
    return f"{len(failures)}/{total} cases differ; first {min(len(failures), MAX_REPORTED)}:\n{shown}"


def test_every_case_scores_exactly(golden: dict[str, Any]) -> None:
    root = golden["root"]
    cases, expected = _lines(root / "cases.jsonl"), _lines(root / "expected.jsonl")
    assert len(cases) == len(expected) == 1160
    failures: list[str] = []
    for case, want in zip(cases, expected, strict=True):
        assert case["id"] == want["id"]
        got = _score_case(case, golden)
        for name, value in got.items():
            found = first_mismatch(want[name], value, f"{case['id']}.{name}")
            if found:
                failures.append(found)
                break
    assert not failures, _report(failures, len(cases))


_FUNCTIONS = ("group_utility", "group_fairness", "preference_completeness")


def _crash_outcomes(case: dict[str, Any], golden: dict[str, Any]) -> dict[str, Any]:
    """Per function: ("raised", type, message) or ("value", result)."""
    view, effective = _inputs(case, golden)
    poi_db = golden["poi_db"]
    outcomes: dict[str, Any] = {}
    for name in _FUNCTIONS:
        try:
            if name == "group_utility":
                value: Any = evaluate_group_utility(view, effective, poi_db)
            elif name == "group_fairness":
                value = evaluate_group_fairness(view, effective, poi_db)
            else:
                value = (
                    evaluate_preference_completeness(case["inferred"], effective)
                    if "inferred" in case
                    else None
                )
            outcomes[name] = ("value", value)
        except Exception as exc:
            outcomes[name] = ("raised", type(exc).__name__, str(exc))
    return outcomes


def _crash_mismatch(case: dict[str, Any], golden: dict[str, Any]) -> str | None:
    want = case["expected"]
    errors = want["errors"] or {}
    outcomes = _crash_outcomes(case, golden)
    for name in _FUNCTIONS:
        outcome = outcomes[name]
        if name in errors:
            expected_error = ("raised", errors[name]["type"], errors[name]["message"])
            if outcome != expected_error:
                return f"{case['id']}.{name}: expected {expected_error}, got {outcome[:3]!r}"
            continue
        if outcome[0] == "raised":
            return f"{case['id']}.{name}: unexpected {outcome[1]}: {outcome[2]}"
        value = outcome[1]
        if name == "group_utility":
            pairs = [(field, value[field]) for field in GU_FIELDS]
        elif name == "group_fairness":
            pairs = [("fairness", value)]
        else:
            pairs = [("preference_completeness", value)]
        for field, got in pairs:
            found = first_mismatch(want[field], got, f"{case['id']}.{field}")
            if found:
                return found
    found = first_mismatch(want["plan_extractable"], is_valid_travel_plan(case["plan"]), case["id"])
    return found


def test_crash_cases_raise_where_official_raises(golden: dict[str, Any]) -> None:
    cases = _lines(golden["root"] / "crash_cases.jsonl")
    assert len(cases) == 30
    failures = [found for case in cases if (found := _crash_mismatch(case, golden))]
    assert not failures, _report(failures, len(cases))
