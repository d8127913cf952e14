"""The proven value of splitting from two oracle records (`solver.oracle.splitting`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.oracle.splitting import SplittingRecordsError, SplittingValue, splitting_value


def test_both_runs_proven_give_one_value() -> None:
    value = splitting_value((27, 27), (25, 25))
    assert value == SplittingValue(2, 2) and value.exact and str(value) == "+2"
    assert value.to_json() == {"low": 2, "high": 2, "exact": True}


def test_open_runs_give_the_interval_their_plans_and_bounds_allow() -> None:
    # with splits 27 ≤ OPT ≤ 31, without 25 ≤ OPT ≤ 26: the value lies in [27 − 26, 31 − 25]
    assert splitting_value((27, 31), (25, 26)) == SplittingValue(1, 6)
    # a split run cut short below the run without splits: still never below 0
    assert str(splitting_value((23, 31), (25, 25))) == "+0 to +6"


def test_a_missing_plan_or_bound_gives_no_value() -> None:
    assert splitting_value((None, 31), (25, 25)) is None
    assert splitting_value((27, 31), (25, None)) is None


def test_records_that_contradict_each_other_are_refused() -> None:
    with pytest.raises(SplittingRecordsError) as caught:
        splitting_value((20, 24), (25, 25))
    assert caught.value.field == "bound" and "24" in caught.value.problem


@given(
    optimum_off=st.integers(-20, 60),
    gain=st.integers(0, 20),
    below=st.tuples(st.integers(0, 15), st.integers(0, 15)),
    above=st.tuples(st.integers(0, 15), st.integers(0, 15)),
)
def test_the_true_value_always_lies_in_the_interval(
    optimum_off: int, gain: int, below: tuple[int, int], above: tuple[int, int]
) -> None:
    """Any optima with OPT_on ≥ OPT_off, any plans below them and bounds above them."""
    optimum_on = optimum_off + gain
    value = splitting_value(
        (optimum_on - below[0], optimum_on + above[0]), (optimum_off - below[1], optimum_off + above[1])
    )
    assert value is not None and value.low <= gain <= value.high
    if below == (0, 0) and above == (0, 0):
        assert value.exact and value.low == gain
