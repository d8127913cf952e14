"""The per-trial figures against the oracle, as pure functions of GU totals (docs/runner.md).

All inputs are official GU *totals* (Σ per-user utility − split penalty), the unit of the
oracle's bound. A figure whose inputs are missing is None.
"""

from __future__ import annotations

DIGITS = 4


def gu_ratio(gu: float | None, gu_star: float | None) -> float | None:
    """1 − regret / |GU*|: equals GU / GU* when GU* > 0; when GU* < 0 it keeps "1 is optimal, lower
    is worse" (a plain GU / GU* would reward a worse plan there); None when GU* = 0."""
    if gu is None or gu_star is None or gu_star == 0:
        return None
    # 1 − (GU* − GU) / |GU*| is GU / GU* for GU* > 0 and 2 − GU / GU* for GU* < 0; written so,
    # a ratio on a rounding tie (1 / 160) rounds as GU / GU* does, not off a float's residue
    ratio = gu / gu_star if gu_star > 0 else 2 - gu / gu_star
    return round(ratio, DIGITS)


def difference(high: float | None, low: float | None) -> float | None:
    """high − low (regret, the losses and the compromise effect are all differences)."""
    if high is None or low is None:
        return None
    return round(high - low, DIGITS)


def optimal(gu: float | None, *, status: str | None, objective: float | None, bound: float | None) -> bool:
    """Whether a strict-valid plan of GU `gu` is provably optimal: the oracle proved its own plan
    optimal and `gu` reaches that plan's GU, or `gu` reaches the proven bound itself. (The caller
    passes only strict-valid plans: the bound covers those alone.)"""
    if gu is None:
        return False
    proven = status == "OPTIMAL" and objective is not None and gu >= objective
    return proven or (bound is not None and gu >= bound)
