"""Reliability over trials: pass^k, pass@k and avg^k for k = 1 … K (docs/runner.md, "Reliability").

With n trials of a task of which c succeed, the unbiased estimators over the C(n, k) ways to pick k
of them are pass^k = C(c, k) / C(n, k) (all k succeed; τ-bench, Yao et al. 2024), pass@k = 1 −
C(n − c, k) / C(n, k) (at least one succeeds; Chen et al. 2021) and avg^k = c / n (the expected
share of successes among k, which is the same for every k). Each is averaged over the tasks that
have at least k trials. A trial succeeds by a `SuccessRule`: by default a strict-valid plan; with a
threshold T also GU / GU* ≥ T (`gu_ratio`, on strict-valid plans only: GU* bounds no other).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from verifier.errors import StructuredError

DIGITS = 4
STRICT = "strict"
RATIO_PREFIX = "ratio:"


class SuccessRuleError(StructuredError, ValueError):
    """A success rule that cannot be read (field `success`); the problem says what is accepted."""


@dataclass(frozen=True)
class SuccessRule:
    """When a scored trial counts as a success: a strict-valid plan, and `gu_ratio ≥ threshold`
    when a threshold is set."""

    threshold: float | None = None

    @classmethod
    def parse(cls, text: str) -> SuccessRule:
        """`strict` or `ratio:T` with 0 ≤ T ≤ 1 (SuccessRuleError otherwise)."""
        if text == STRICT:
            return cls()
        if text.startswith(RATIO_PREFIX):
            try:
                threshold = float(text.removeprefix(RATIO_PREFIX))
            except ValueError:
                threshold = float("nan")
            if 0.0 <= threshold <= 1.0:
                return cls(threshold)
        raise SuccessRuleError(
            "success", f"must be {STRICT!r} or {RATIO_PREFIX}T with 0 <= T <= 1, not {text!r}"
        )

    def __call__(self, line: Mapping[str, Any]) -> bool:
        if line.get("strict_valid") is not True:
            return False
        if self.threshold is None:
            return True
        ratio = line.get("gu_ratio")
        return isinstance(ratio, int | float) and ratio >= self.threshold

    def describe(self) -> str:
        if self.threshold is None:
            return "a strict-valid plan"
        return f"a strict-valid plan with GU / GU* >= {self.threshold:g}"


STRICT_SUCCESS = SuccessRule()
"""The default success: a strict-valid plan."""


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate that k trials drawn from n (c successes) all succeed."""
    return comb(c, k) / comb(n, k)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate that at least one of k trials drawn from n (c successes) succeeds."""
    return (comb(n, k) - comb(n - c, k)) / comb(n, k)


def avg_k(n: int, c: int, k: int) -> float:
    """Expected share of successes among k trials drawn from n (c successes): c / n for every k."""
    del k  # the expectation of a draw's mean does not depend on its size
    return c / n


def task_counts(lines: Sequence[Mapping[str, Any]], rule: SuccessRule) -> dict[str, tuple[int, int]]:
    """(trials, successes) per task, in first-seen order; a repeated (task, trial) counts once, the
    last line winning."""
    trials: dict[str, dict[str, bool]] = {}
    for line in lines:
        task = str(line.get("task_id"))
        trials.setdefault(task, {})[str(line.get("trial", line.get("trial_id")))] = rule(line)
    return {task: (len(outcomes), sum(outcomes.values())) for task, outcomes in trials.items()}


def reliability(lines: Sequence[Mapping[str, Any]], rule: SuccessRule) -> dict[str, Any]:
    """`{success, tasks, rows: [{k, tasks, pass_hat_k, pass_at_k, avg_k}]}` for k = 1 … K, where K
    is the most trials any task has; each row averages the tasks with at least k trials (rounded 4)."""
    counts = task_counts(lines, rule)
    most = max((n for n, _ in counts.values()), default=0)
    rows = []
    for k in range(1, most + 1):
        eligible = [(n, c) for n, c in counts.values() if n >= k]
        rows.append(
            {
                "k": k,
                "tasks": len(eligible),
                "pass_hat_k": _mean([pass_hat_k(n, c, k) for n, c in eligible]),
                "pass_at_k": _mean([pass_at_k(n, c, k) for n, c in eligible]),
                "avg_k": _mean([avg_k(n, c, k) for n, c in eligible]),
            }
        )
    return {"success": rule.describe(), "tasks": len(counts), "rows": rows}


def _mean(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), DIGITS)
