"""Strict and loose validity side by side (TRIP-Bench's strict and loose pass rates).

Loose = the plan is valid under the `official` profile, strict = valid under `strict` (both as
scored by `tripwright score`, over all trials: no plan is neither). The plans valid under one and
not the other are what separates the two; for the official-valid plans strict refuses, the strict
checks they fail are counted (`strict_failed_checks`, once per trial).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

DIGITS = 4


def strict_and_loose(lines: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """`{trials, loose_rate, strict_rate, loose_only, strict_only, separating_checks}` of a group:
    the two rates (None for no trial, rounded 4), how many trials are valid only loosely / only
    strictly, and per strict check how many loose-only trials fail it (most first, then by id)."""
    loose_only = [x for x in lines if x.get("official_valid") is True and x.get("strict_valid") is not True]
    checks = Counter(
        str(check) for x in loose_only for check in dict.fromkeys(x.get("strict_failed_checks") or ())
    )
    return {
        "trials": len(lines),
        "loose_rate": _rate(lines, "official_valid"),
        "strict_rate": _rate(lines, "strict_valid"),
        "loose_only": len(loose_only),
        "strict_only": sum(
            1 for x in lines if x.get("strict_valid") is True and x.get("official_valid") is not True
        ),
        "separating_checks": dict(sorted(checks.items(), key=lambda item: (-item[1], item[0]))),
    }


def _rate(lines: Sequence[dict[str, Any]], key: str) -> float | None:
    if not lines:
        return None
    return round(sum(1 for x in lines if x.get(key) is True) / len(lines), DIGITS)
