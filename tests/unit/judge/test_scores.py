"""Judge arithmetic: normalisation, meta weighting, crashed trials, statistics."""

from __future__ import annotations

import pytest

from runner.judge.prompts import DIMENSIONS
from runner.judge.scores import crashed, normalise, scored, statistics


@pytest.mark.parametrize(
    ("score", "value"), [(1, 0.0), (2, 25.0), (3, 50.0), (4, 75.0), (5, 100.0), (3.4, 60.0)]
)
def test_normalise(score: float, value: float) -> None:
    assert normalise(score) == value


def test_normalise_rounds_to_two_decimals() -> None:
    assert normalise(11 / 3) == 66.67


RATINGS = dict(zip(DIMENSIONS, (4, 3, 2, 5, 3), strict=True))


def test_meta_weighting_scales_every_normalised_figure() -> None:
    result = scored(RATINGS, meta=4)
    assert result["average_score"] == 3.4
    assert result["normalized_scores"] == {
        "hallucination_factuality": 75.0,
        "tool_usage_reasoning": 50.0,
        "interaction_quality": 25.0,
        "conflict_coordination": 100.0,
        "plan_humanization": 50.0,
        "average_score": 60.0,
    }
    assert result["final_scores"] == {
        "hallucination_factuality": 60.0,
        "tool_usage_reasoning": 40.0,
        "interaction_quality": 20.0,
        "conflict_coordination": 80.0,
        "plan_humanization": 40.0,
        "average_score": 48.0,
    }


def test_meta_weighting_rounds_the_product() -> None:
    result = scored(
        {"hallucination_factuality": 4, "tool_usage_reasoning": 4, "interaction_quality": 3}, meta=3
    )
    assert result["normalized_scores"]["average_score"] == 66.67
    assert result["final_scores"]["average_score"] == 40.0
    assert result["final_scores"]["interaction_quality"] == 30.0


def test_without_meta_the_final_scores_are_the_normalised_ones() -> None:
    result = scored(RATINGS, meta=None)
    assert result["final_scores"] == result["normalized_scores"]


def test_average_is_over_the_rated_dimensions_only() -> None:
    result = scored({"hallucination_factuality": 5, "plan_humanization": 2}, meta=5)
    assert result["average_score"] == 3.5
    assert result["final_scores"] == {
        "hallucination_factuality": 100.0,
        "plan_humanization": 25.0,
        "average_score": 62.5,
    }


def test_crashed_trials_score_zero_with_ratings_one() -> None:
    result = crashed()
    assert result["scores"] == dict.fromkeys(DIMENSIONS, 1)
    assert result["average_score"] == 1.0
    assert result["final_scores"] == dict.fromkeys((*DIMENSIONS, "average_score"), 0.0)
    assert result["normalized_scores"] == result["final_scores"]


def test_statistics_over_judged_lines() -> None:
    first = {"judged": True, **scored(RATINGS, meta=4), "meta": {"score": 4}}
    second = {"judged": True, **scored(dict.fromkeys(DIMENSIONS, 5), meta=5), "meta": {"score": 5}}
    third = {"judged": True, **crashed(), "meta": None}
    failed = {"judged": False, "error": "x"}
    stats = statistics([first, second, third, failed])
    assert stats["count"] == 3
    assert stats["failed"] == 1
    assert stats["raw_scores_1_5"]["hallucination_factuality"] == {
        "mean": 3.33,
        "min": 1,
        "max": 5,
        "count": 3,
    }
    assert stats["raw_scores_1_5"]["interaction_quality"] == {"mean": 2.67, "min": 1, "max": 5, "count": 3}
    assert stats["raw_average_1_5"] == 3.13
    assert stats["final_average_0_100"] == 49.33
    assert stats["meta_judge"] == {"count": 2, "mean": 4.5, "distribution": {"4": 1, "5": 1}}


def test_statistics_of_nothing() -> None:
    stats = statistics([])
    assert stats["count"] == 0
    assert stats["raw_average_1_5"] is None
    assert stats["raw_scores_1_5"]["plan_humanization"] == {
        "mean": None,
        "min": None,
        "max": None,
        "count": 0,
    }
    assert stats["meta_judge"] == {"count": 0, "mean": None, "distribution": {}}
