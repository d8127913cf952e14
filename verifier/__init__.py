"""The verifier: the data model (Task, Plan, Verdict) and every rule, in two profiles.

`verify(task, plan, profile="official" | "strict", poi_db=…, world=…)` → `Verdict`. The names
below are imported on first use, so `import verifier` costs nothing (the CLI starts light);
docs/api.md lists them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import verifier.faces

if TYPE_CHECKING:
    from verifier.errors import StructuredError
    from verifier.model.plan import Plan
    from verifier.model.plan_parse import ParsedPlan, parse_plan
    from verifier.model.task import Task
    from verifier.model.verdict import (
        CHECK_IDS,
        GroupFairness,
        GroupUtility,
        PreferenceCompleteness,
        Profile,
        Verdict,
        Violation,
    )
    from verifier.official.poi_db import PoiDb, PoiDbError
    from verifier.referee import WorldRequiredError, verdict_to_batch_line, verify
    from verifier.strict.profile import strict_violations
    from verifier.world_facts import WorldFacts

_HOMES = {
    "CHECK_IDS": "verifier.model.verdict",
    "GroupFairness": "verifier.model.verdict",
    "GroupUtility": "verifier.model.verdict",
    "ParsedPlan": "verifier.model.plan_parse",
    "Plan": "verifier.model.plan",
    "PoiDb": "verifier.official.poi_db",
    "PoiDbError": "verifier.official.poi_db",
    "PreferenceCompleteness": "verifier.model.verdict",
    "Profile": "verifier.model.verdict",
    "StructuredError": "verifier.errors",
    "Task": "verifier.model.task",
    "Verdict": "verifier.model.verdict",
    "Violation": "verifier.model.verdict",
    "WorldFacts": "verifier.world_facts",
    "WorldRequiredError": "verifier.referee",
    "parse_plan": "verifier.model.plan_parse",
    "strict_violations": "verifier.strict.profile",
    "verdict_to_batch_line": "verifier.referee",
    "verify": "verifier.referee",
}
"""Each public name and the module it lives in."""

__all__ = [
    "CHECK_IDS",
    "GroupFairness",
    "GroupUtility",
    "ParsedPlan",
    "Plan",
    "PoiDb",
    "PoiDbError",
    "PreferenceCompleteness",
    "Profile",
    "StructuredError",
    "Task",
    "Verdict",
    "Violation",
    "WorldFacts",
    "WorldRequiredError",
    "parse_plan",
    "strict_violations",
    "verdict_to_batch_line",
    "verify",
]


__getattr__ = verifier.faces.lazy_names(__name__, _HOMES)
