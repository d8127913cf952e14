"""The verifier's data model: the task, the plan (and its lenient parse) and the verdict."""

from verifier.model.plan import Activity, CityBlock, Day, IntercityTransport, Plan, Segment, hhmm, minutes
from verifier.model.plan_parse import ParsedPlan, PlanPaths, parse_plan
from verifier.model.task import Preference, Task, TaskMetadata, UserProfile
from verifier.model.verdict import (
    CHECK_IDS,
    CheckId,
    GroupFairness,
    GroupUtility,
    PreferenceCompleteness,
    Profile,
    SplitPenalty,
    UserUtility,
    Verdict,
    Violation,
    check_table,
)

__all__ = [
    "CHECK_IDS",
    "Activity",
    "CheckId",
    "CityBlock",
    "Day",
    "GroupFairness",
    "GroupUtility",
    "IntercityTransport",
    "ParsedPlan",
    "Plan",
    "PlanPaths",
    "Preference",
    "PreferenceCompleteness",
    "Profile",
    "Segment",
    "SplitPenalty",
    "Task",
    "TaskMetadata",
    "UserProfile",
    "UserUtility",
    "Verdict",
    "Violation",
    "check_table",
    "hhmm",
    "minutes",
    "parse_plan",
]
