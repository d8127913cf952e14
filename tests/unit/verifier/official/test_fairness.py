"""Official group fairness formula (§4) on hand-picked vectors and as properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verifier.official.fairness import fairness_of


def _scores(*totals: int) -> dict[str, int]:
    return {f"User{i + 1}": total for i, total in enumerate(totals)}


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ((4, 2), 50.0),
        ((5, 0), 0.0),
        ((4, -1), 0.0),
        ((0, 0), 100.0),
        ((-1, -4), 25.0),
        ((7,), 100.0),
        ((3, 1, 2), 33.33),
        ((-3, -3, -3), 100.0),
    ],
)
def test_appendix_vectors(totals: tuple[int, ...], expected: float) -> None:
    result = fairness_of(_scores(*totals))
    assert result == {
        "per_user_scores": _scores(*totals),
        "max_score": max(totals),
        "min_score": min(totals),
        "fairness_score": expected,
    }
    assert type(result["fairness_score"]) is float


def test_zero_max_with_negative_min_is_negative_zero() -> None:
    score = fairness_of(_scores(0, -4))["fairness_score"]
    assert score == 0.0
    assert math.copysign(1.0, score) == -1.0


def test_no_users_is_perfectly_fair_with_integer_bounds() -> None:
    assert fairness_of({}) == {"per_user_scores": {}, "max_score": 0, "min_score": 0, "fairness_score": 100.0}


@given(st.lists(st.integers(min_value=-50, max_value=50), min_size=1, max_size=6))
def test_fairness_is_a_percentage(totals: list[int]) -> None:
    score = fairness_of(_scores(*totals))["fairness_score"]
    assert 0.0 <= score <= 100.0
    if len(set(totals)) == 1:
        assert score == 100.0
    if max(totals) > 0 > min(totals):
        assert score == 0.0


@given(st.integers(min_value=-50, max_value=50), st.integers(min_value=1, max_value=6))
def test_equal_totals_are_fair(total: int, users: int) -> None:
    assert fairness_of(_scores(*[total] * users))["fairness_score"] == 100.0
