"""The `official` profile: the public evaluator reproduced bit for bit, quirks included
(docs/official.md): plan extraction, the nine validity checks, GU, GF and PC over a `PlanView`."""

from verifier.official.completeness import evaluate_preference_completeness
from verifier.official.extraction import extract_plan_from_conversation, is_valid_travel_plan
from verifier.official.fairness import evaluate_group_fairness
from verifier.official.issue import OfficialIssue
from verifier.official.plan_view import PlanView, build_view
from verifier.official.poi_db import PoiDb, PoiDbError
from verifier.official.utility import evaluate_group_utility
from verifier.official.validity import plan_validity_issues

__all__ = [
    "OfficialIssue",
    "PlanView",
    "PoiDb",
    "PoiDbError",
    "build_view",
    "evaluate_group_fairness",
    "evaluate_group_utility",
    "evaluate_preference_completeness",
    "extract_plan_from_conversation",
    "is_valid_travel_plan",
    "plan_validity_issues",
]
