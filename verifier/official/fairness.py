"""Official group fairness (docs/official.md#scoring): min/max ratio of per-user utilities with special cases.

Every user in `user_names` is scored (no skipping: `prefs = ref.get("preference", ref)`, so a
user without a profile scores 0) with the same components as group utility and no split
penalty. Special cases: no users or all equal → 100.0; a positive maximum with a negative
minimum → 0.0; all ≤ 0 → max/min × 100 (so [0, −4] gives −0.0).
"""

from __future__ import annotations

from typing import Any

from verifier.official.plan_view import PlanView
from verifier.official.poi_db import PoiDb
from verifier.official.utility import plan_scorer


def evaluate_group_fairness(view: PlanView, effective: dict[str, Any], poi_db: PoiDb) -> dict[str, Any]:
    """Official GF: `{per_user_scores, max_score, min_score, fairness_score}`."""
    scorer = plan_scorer(view, effective, poi_db)
    scores: dict[str, Any] = {}
    for user in view.user_names:
        ref = effective.get(user, {})
        scores[user] = scorer.user(user, ref.get("preference", ref))["total_score"]
    return fairness_of(scores)


def fairness_of(scores: dict[str, Any]) -> dict[str, Any]:
    """The fairness record of per-user totals (official formula and rounding)."""
    if not scores:
        return {"per_user_scores": scores, "max_score": 0, "min_score": 0, "fairness_score": 100.0}
    high, low = max(scores.values()), min(scores.values())
    if high == low:
        score = 100.0
    elif high > 0:
        score = low / high * 100 if low >= 0 else 0.0
    elif low == 0:
        score = 0.0
    else:
        score = high / low * 100
    return {"per_user_scores": scores, "max_score": high, "min_score": low, "fairness_score": round(score, 2)}
