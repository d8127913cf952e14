"""What allowing subgroup splits is worth on one task, proven from two oracle records.

The value of splitting is OPT_on − OPT_off: the best GU with splits allowed less the best GU
without. Every plan without a split is also a plan with splits allowed, so OPT_on ≥ OPT_off;
each record brackets its optimum between its plan's GU and its bound. So the value lies in
[max(0, GU_on − bound_off), bound_on − GU_off], a single number when both records are proven
optimal (docs/oracle.md#the-value-of-splitting). The difference of the two plans' GU alone is
not the value: a split run cut short by its time limit may even score below the run without.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from verifier.errors import StructuredError


class SplittingRecordsError(StructuredError, ValueError):
    """Two records of one task that cannot both hold: `field` names the record field."""


@dataclass(frozen=True)
class SplittingValue:
    """The proven interval [low, high] of OPT with splits − OPT without (points of GU total)."""

    low: int
    high: int

    @property
    def exact(self) -> bool:
        """Whether the interval is one value (both runs proven optimal, or bounds meet plans)."""
        return self.low == self.high

    def to_json(self) -> dict[str, Any]:
        return {"low": self.low, "high": self.high, "exact": self.exact}

    def __str__(self) -> str:
        return f"{self.low:+d}" if self.exact else f"{self.low:+d} to {self.high:+d}"


def splitting_value(
    with_splits: tuple[int | None, int | None], without_splits: tuple[int | None, int | None]
) -> SplittingValue | None:
    """The proven value of splitting from each run's (objective, bound); None when a run has no
    plan or no bound. Raises `SplittingRecordsError` when the records contradict each other (a plan
    without splits scoring above the bound with splits, which covers it)."""
    gu_on, bound_on = with_splits
    gu_off, bound_off = without_splits
    if gu_on is None or bound_on is None or gu_off is None or bound_off is None:
        return None
    high = bound_on - gu_off
    if high < 0:
        raise SplittingRecordsError(
            "bound",
            f"the run with splits is bounded by {bound_on}, below the {gu_off} of the plan without splits",
        )
    return SplittingValue(max(0, gu_on - bound_off), high)
