"""The figures as pure functions: exact values, the sign convention, invariants; the summary."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from runner.scoring.figures import difference, gu_ratio, optimal
from runner.scoring.summary import summarize

totals = st.integers(min_value=-200, max_value=200)


def test_ratio_values_and_sign_convention() -> None:
    assert gu_ratio(27, 49) == 0.551
    assert gu_ratio(1, 160) == 0.0063  # a rounding tie rounds as GU / GU* does (was 0.0062)
    assert gu_ratio(49, 49) == 1.0
    assert gu_ratio(-5, 10) == -0.5
    assert gu_ratio(-12, -10) == 0.8  # 2 below a negative optimum: 1 − 2/10
    assert gu_ratio(-10, -10) == 1.0
    assert gu_ratio(3, 0) is None
    assert gu_ratio(None, 10) is None
    assert gu_ratio(3, None) is None


@given(totals, totals.filter(lambda v: v > 0))
def test_ratio_is_gu_over_gu_star_when_positive(gu: int, gu_star: int) -> None:
    assert gu_ratio(gu, gu_star) == round(gu / gu_star, 4)


@given(totals, totals, totals.filter(lambda v: v != 0))
def test_ratio_grows_with_gu_and_is_one_at_the_optimum(a: int, b: int, gu_star: int) -> None:
    low, high = sorted((a, b))
    ratio_low, ratio_high = gu_ratio(low, gu_star), gu_ratio(high, gu_star)
    assert ratio_low is not None and ratio_high is not None
    assert ratio_low <= ratio_high
    assert gu_ratio(gu_star, gu_star) == 1.0


def test_difference_and_optimal() -> None:
    assert difference(35, 18.0) == 17.0
    assert difference(None, 3) is None
    assert optimal(30, status="OPTIMAL", objective=30, bound=30) is True
    assert optimal(29, status="OPTIMAL", objective=30, bound=30) is False
    assert optimal(30, status="FEASIBLE", objective=30, bound=34) is False  # not proven
    assert optimal(34, status="FEASIBLE", objective=30, bound=34) is True  # reaches the bound itself
    assert optimal(None, status="OPTIMAL", objective=30, bound=30) is False


def _line(difficulty: str | None, **values: Any) -> dict[str, Any]:
    base = {"difficulty": difficulty, "plan_generated": True, "strict_valid": True, "optimal": False}
    return base | values


def test_summary_rates_and_groups() -> None:
    lines = [
        _line("hard", gu_ratio=0.5, optimal=True),
        _line("easy", gu_ratio=1.0),
        _line("easy", strict_valid=False, gu_ratio=0.25),
        _line(None, plan_generated=False, strict_valid=None),
    ]
    summary = summarize(lines)
    overall = summary["overall"]
    assert (overall["trials"], overall["plans"], overall["acceptable_rate"], overall["optimality_rate"]) == (
        4,
        3,
        0.5,
        0.25,
    )
    assert (overall["gu_ratio"]["count"], overall["gu_ratio"]["mean"], overall["gu_ratio"]["median"]) == (
        3,
        0.5833,
        0.5,
    )
    assert list(summary["by_difficulty"]) == ["easy", "hard", "unknown"]
    easy = summary["by_difficulty"]["easy"]
    assert (easy["acceptable_rate"], easy["gu_ratio"]["mean"]) == (0.5, 0.625)
    assert summarize([])["overall"]["acceptable_rate"] is None
