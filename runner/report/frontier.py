"""Where each trial sits against its task's GU–GF trade-off (the data of the frontier plot).

GU is the official GU total (the oracle's unit), GF the official fairness (0–100). The oracle's
side comes from `tripwright oracle` records: with `--objective frontier` a record carries the
points found under each GF floor (`extra["frontier"]`); otherwise its own plan gives one point
(`extra["gf"]`, `objective`). Without an oracle record only the scored line's `gu_best` (the GU
of the oracle's plan, GF unknown) is shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from runner.report.inputs import Inputs, Record

Point = tuple[float, float]
"""(GF, GU total)."""
TITLE_CHARS = 14


@dataclass(frozen=True)
class Panel:
    """One task: the oracle's frontier (or single point), the best GU alone, the trials' points."""

    task_id: str
    title: str
    frontier: list[Point]
    best_gu: float | None
    agent: list[Point]


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def oracle_points(record: Mapping[str, Any] | None) -> list[Point]:
    """The oracle record's frontier points (distinct, by GF), else its own plan's point."""
    if record is None:
        return []
    found = record.get("extra")
    extra: Mapping[str, Any] = found if isinstance(found, dict) else {}
    raw = extra.get("frontier") if isinstance(extra.get("frontier"), list) else None
    if raw is None:
        raw = [{"gf": extra.get("gf"), "gu": record.get("objective")}]
    points = {
        (gf, gu)
        for item in raw
        if isinstance(item, dict)
        and (gf := _num(item.get("gf"))) is not None
        and (gu := _num(item.get("gu"))) is not None
    }
    return sorted(points)


def has_frontier(oracle: Mapping[str, Record] | None) -> bool:
    """Whether any oracle record was solved with `objective="frontier"`."""
    return any(isinstance(r.get("extra"), dict) and "frontier" in r["extra"] for r in (oracle or {}).values())


def panels(inputs: Inputs, limit: int) -> tuple[list[Panel], int]:
    """Up to `limit` task panels (tasks in scored-file order) and how many tasks there were."""
    by_task: dict[str, list[Record]] = {}
    for row in inputs.scored or []:
        by_task.setdefault(str(row["task_id"]), []).append(row)
    out = [_panel(inputs, task_id, rows) for task_id, rows in list(by_task.items())[:limit]]
    return out, len(by_task)


def _panel(inputs: Inputs, task_id: str, rows: Sequence[Record]) -> Panel:
    task = inputs.tasks.get(task_id)
    query = task.query if task is not None and task.query else ""
    best = [gu for row in rows if (gu := _num(row.get("gu_best"))) is not None]
    agent = [
        (gf, gu)
        for row in rows
        if (gf := _num(row.get("gf"))) is not None and (gu := _num(row.get("gu"))) is not None
    ]
    return Panel(
        task_id=task_id,
        title=f"{task_id} {query[:TITLE_CHARS]}".strip(),
        frontier=oracle_points((inputs.oracle or {}).get(task_id)),
        best_gu=max(best) if best else None,
        agent=agent,
    )
