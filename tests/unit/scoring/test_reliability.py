"""pass^k, pass@k and avg^k: exact values, the success rules, and invariants (hypothesis)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from runner.scoring.reliability import (
    STRICT_SUCCESS,
    SuccessRule,
    SuccessRuleError,
    avg_k,
    pass_at_k,
    pass_hat_k,
    reliability,
)


def line(task: str, trial: int, *, strict: bool | None, ratio: float | None = None) -> dict[str, Any]:
    return {"task_id": task, "trial": trial, "strict_valid": strict, "gu_ratio": ratio}


def test_estimators_on_five_trials_with_three_successes() -> None:
    assert [pass_hat_k(5, 3, k) for k in (1, 2, 3, 4)] == [0.6, 0.3, 0.1, 0.0]
    assert [pass_at_k(5, 3, k) for k in (1, 2, 3)] == [0.6, 0.9, 1.0]
    assert {avg_k(5, 3, k) for k in range(1, 6)} == {0.6}


@given(st.lists(st.booleans(), min_size=1, max_size=7), st.data())
def test_estimators_equal_the_average_over_every_draw_of_k_trials(outcomes: list[bool], data: Any) -> None:
    n, c = len(outcomes), sum(outcomes)
    k = data.draw(st.integers(1, n))
    draws = list(combinations(outcomes, k))
    assert pass_hat_k(n, c, k) == pytest.approx(sum(all(d) for d in draws) / len(draws))
    assert pass_at_k(n, c, k) == pytest.approx(sum(any(d) for d in draws) / len(draws))
    assert avg_k(n, c, k) == pytest.approx(sum(sum(d) / k for d in draws) / len(draws))
    assert pass_hat_k(n, c, k) <= avg_k(n, c, k) <= pass_at_k(n, c, k)


@given(st.integers(1, 8), st.data())
def test_pass_hat_falls_and_pass_at_rises_with_k(n: int, data: Any) -> None:
    c = data.draw(st.integers(0, n))
    hats = [pass_hat_k(n, c, k) for k in range(1, n + 1)]
    ats = [pass_at_k(n, c, k) for k in range(1, n + 1)]
    assert hats == sorted(hats, reverse=True)
    assert ats == sorted(ats)


def test_rows_average_the_tasks_with_enough_trials() -> None:
    lines = [
        line("a", 0, strict=True),
        line("a", 1, strict=False),
        line("a", 2, strict=True),
        line("b", 0, strict=None),  # a failed trial: no plan
        line("b", 1, strict=True),
    ]
    figures = reliability(lines, STRICT_SUCCESS)
    assert figures["success"] == "a strict-valid plan"
    assert figures["tasks"] == 2
    assert figures["rows"] == [
        {"k": 1, "tasks": 2, "pass_hat_k": 0.5833, "pass_at_k": 0.5833, "avg_k": 0.5833},
        {"k": 2, "tasks": 2, "pass_hat_k": 0.1667, "pass_at_k": 1.0, "avg_k": 0.5833},
        {"k": 3, "tasks": 1, "pass_hat_k": 0.0, "pass_at_k": 1.0, "avg_k": 0.6667},
    ]


def test_a_repeated_trial_counts_once_the_last_line_winning() -> None:
    lines = [line("a", 0, strict=False), line("a", 0, strict=True)]
    assert reliability(lines, STRICT_SUCCESS)["rows"] == [
        {"k": 1, "tasks": 1, "pass_hat_k": 1.0, "pass_at_k": 1.0, "avg_k": 1.0}
    ]


def test_ratio_rule_needs_a_strict_valid_plan_at_the_threshold() -> None:
    rule = SuccessRule.parse("ratio:0.8")
    assert rule.describe() == "a strict-valid plan with GU / GU* >= 0.8"
    assert rule(line("a", 0, strict=True, ratio=0.8))
    assert not rule(line("a", 0, strict=True, ratio=0.7999))
    assert not rule(line("a", 0, strict=False, ratio=1.0))
    assert not rule(line("a", 0, strict=True, ratio=None))
    assert STRICT_SUCCESS(line("a", 0, strict=True, ratio=None))
    assert SuccessRule.parse("strict") == STRICT_SUCCESS


@pytest.mark.parametrize("text", ["ratio:1.5", "ratio:-0.1", "ratio:x", "ratio:nan", "loose", ""])
def test_bad_rules_are_refused(text: str) -> None:
    with pytest.raises(SuccessRuleError, match="'strict' or ratio:T"):
        SuccessRule.parse(text)


def test_no_lines_no_rows() -> None:
    assert reliability([], STRICT_SUCCESS) == {"success": "a strict-valid plan", "tasks": 0, "rows": []}
