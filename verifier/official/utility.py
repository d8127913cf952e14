"""Official group utility (docs/official.md#scoring) and the per-user scoring shared with fairness (§4).

A user's utility is the sum of six components — attractions, food, transport, hotel,
intensity, budget — each a list of scored details. Group utility scores every user whose
effective entry has `preference` or `global_constraints`, subtracts the split penalty and
reports the per-user average rounded to 2 decimals. Fairness scores every user with the same
components, so both go through one `PlanScorer`, which indexes the plan once and memoises each
user's components; `plan_scorer` keeps it on the view, so GU then GF on the same view, table
and POI file compute everything once. Inputs must not be mutated between the two calls. The
scorer holds no link back to the view (no reference cycle).
"""

from __future__ import annotations

from typing import Any

from verifier.official.plan_view import PlanView
from verifier.official.poi_db import PoiDb
from verifier.official.score_index import ScoreIndex, build_score_index
from verifier.official.split import split_penalty
from verifier.official.utility_places import score_attractions, score_food
from verifier.official.utility_trip import score_budget, score_hotel, score_intensity, score_transport

Detail = dict[str, Any]


class PlanScorer:
    """One plan's score index plus memoised per-user components."""

    def __init__(self, view: PlanView, effective: dict[str, Any], poi_db: PoiDb) -> None:
        self.effective, self.poi_db = effective, poi_db
        self.index = build_score_index(view, poi_db)
        self._users: dict[tuple[str, int], dict[str, Any]] = {}

    def user(self, user: str, prefs: Any) -> dict[str, Any]:
        """`{total_score, details, breakdown}` of one user against one preference profile."""
        key = (user, id(prefs))
        cached = self._users.get(key)
        if cached is None:
            cached = _score_user(prefs, user, self.index)
            self._users[key] = cached
        return cached


def _score_user(prefs: Any, user: str, index: ScoreIndex) -> dict[str, Any]:
    parts = (
        ("attractions", score_attractions(prefs, user, index)),
        ("food", score_food(prefs, user, index)),
        ("transport", score_transport(prefs, index)),
        ("hotel", score_hotel(prefs, index)),
        ("intensity", score_intensity(prefs, user, index)),
        ("budget", score_budget(prefs, user, index)),
    )
    details: list[Detail] = []
    breakdown: dict[str, int] = {}
    total = 0
    for name, part in parts:
        details += part
        subtotal = 0
        for detail in part:
            subtotal += detail["score"]
        breakdown[name] = subtotal
        total += subtotal
    return {"total_score": total, "details": details, "breakdown": breakdown}


def plan_scorer(view: PlanView, effective: dict[str, Any], poi_db: PoiDb) -> PlanScorer:
    """The view's scorer for this exact table and POI file, created on first use."""
    for scorer in view.scorers:
        if isinstance(scorer, PlanScorer) and scorer.effective is effective and scorer.poi_db is poi_db:
            return scorer
    created = PlanScorer(view, effective, poi_db)
    view.scorers.append(created)
    return created


def evaluate_group_utility(view: PlanView, effective: dict[str, Any], poi_db: PoiDb) -> dict[str, Any]:
    """Official GU: per scored user, split penalty, totals and the per-user average."""
    scorer = plan_scorer(view, effective, poi_db)
    per_user: dict[str, Any] = {}
    for user in view.user_names:
        ref = effective.get(user, {})
        if "preference" not in ref and "global_constraints" not in ref:
            continue
        prefs = ref.get("preference", ref)
        per_user[user] = scorer.user(user, prefs)
    split = split_penalty(view)
    before = sum(result["total_score"] for result in per_user.values())
    total = before - split["total_penalty"]
    num_users = len(per_user) or 1
    return {
        "per_user": per_user,
        "split_penalty": split,
        "total_score_before_penalty": before,
        "total_score": total,
        "num_users": num_users,
        "per_user_average_score": round(total / num_users, 2),
    }
