"""From ratings to reported figures (docs/runner.md#llm-judge): normalisation, meta weighting, statistics.

A dimension's rating s (1–5) is normalised to round((s − 1) / 4 × 100, 2); `average_score` is
the mean of the rated dimensions (1–5) and is normalised the same way. The meta-judge's rating
m weights every normalised figure by m / 5 (final = round(normalised × m / 5, 2)); without a
meta rating the final figures are the normalised ones. A trial whose inference crashed has
every rating 1 and every figure 0.0.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from runner.judge.prompts import DIMENSIONS

AVERAGE = "average_score"
META_SCALE = 5


def normalise(score: float) -> float:
    """A 1–5 score on the 0–100 scale."""
    return round((score - 1) / 4 * 100, 2)


def scored(ratings: Mapping[str, int], meta: int | None) -> dict[str, Any]:
    """`scores`, `average_score`, `normalized_scores` and `final_scores` of a judged trial."""
    average = fmean(ratings.values())
    normalised = {dim: normalise(value) for dim, value in ratings.items()}
    normalised[AVERAGE] = normalise(average)
    weight = 1.0 if meta is None else meta / META_SCALE
    return {
        "scores": dict(ratings),
        AVERAGE: average,
        "normalized_scores": normalised,
        "final_scores": {key: round(value * weight, 2) for key, value in normalised.items()},
    }


def crashed() -> dict[str, Any]:
    """The figures of a trial whose inference crashed: ratings 1, every figure 0.0."""
    zeros = {dim: 0.0 for dim in DIMENSIONS} | {AVERAGE: 0.0}
    return {
        "scores": dict.fromkeys(DIMENSIONS, 1),
        AVERAGE: 1.0,
        "normalized_scores": dict(zeros),
        "final_scores": dict(zeros),
    }


def statistics(lines: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Figures over the judged lines (crashed trials included, failed judgements left out):
    per dimension {mean, min, max, count} of the 1–5 ratings, the mean 1–5 average, the mean
    final 0–100 average, and the meta-judge's count, mean and distribution (rounded 2)."""
    judged = [line for line in lines if line.get("judged")]
    raw: dict[str, Any] = {}
    for dim in DIMENSIONS:
        values = [line["scores"][dim] for line in judged if dim in line["scores"]]
        raw[dim] = {
            "mean": _mean(values),
            "min": min(values, default=None),
            "max": max(values, default=None),
            "count": len(values),
        }
    metas = [line["meta"]["score"] for line in judged if line.get("meta")]
    return {
        "count": len(judged),
        "failed": len(lines) - len(judged),
        "raw_scores_1_5": raw,
        "raw_average_1_5": _mean([line[AVERAGE] for line in judged]),
        "final_average_0_100": _mean([line["final_scores"][AVERAGE] for line in judged]),
        "meta_judge": {
            "count": len(metas),
            "mean": _mean(metas),
            "distribution": {str(value): count for value, count in sorted(Counter(metas).items())},
        },
    }


def _mean(values: Sequence[float]) -> float | None:
    return round(fmean(values), 2) if values else None
