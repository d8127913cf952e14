"""`tripwright normalize`: scored plans against the oracle — GU / GU*, regret, distributions.

Everything is in GU *totals* (Σ per-user utility − split penalty), the unit of the oracle's
`bound`: GU* is the bound, `ratio` = GU / GU* (only when GU* > 0), `regret` = GU* − GU and
`regret_vs_plan` = the oracle plan's objective − GU; `regret_per_user` divides the regret by the
oracle record's number of scored users (the per-user-average view of the same figure). The
oracle plan is the witness that fits the row's profile (`solver.oracle.result.witness_for`): the
best plan valid under both profiles for `official` rows, the strict-best otherwise; each row
names it (`witness`) and says why when it needs saying (`witness_note`).

Scored plans come from `verify-batch` output (one row per line; the task is the line's
`task_id`, else its `id`) or from a `rescore --json` document (one row per task, the trial
average of the chosen profile). Oracle lines: the last line of a task wins; a torn last line
(an interrupted run) is ignored. Nothing is dropped silently: rows without an oracle line,
oracle tasks without a row, oracle lines without a bound and rows without a GU are listed.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from runner.loading.files import InputError, iter_jsonl_bytes, read_bytes
from solver.oracle.result import WitnessChoice, witness_for

DIGITS = 4
FIGURES = ("ratio", "regret", "regret_vs_plan")


@dataclass(frozen=True, slots=True)
class Scored:
    """One scored plan: its row id, task, profile, validity and GU total (None: why not)."""

    id: str
    task_id: str
    profile: str | None
    valid: bool | float | None
    gu: float | None
    problem: str | None = None


@dataclass(frozen=True, slots=True)
class OracleLine:
    """What normalize reads of one oracle output line."""

    task_id: str
    status: str | None
    bound: float | None
    users: int
    witnesses: Mapping[str, WitnessChoice]
    """The oracle plan each profile is compared with (`strict`, `official`)."""
    problem: str | None = None

    def witness(self, profile: str | None) -> WitnessChoice:
        """The witness for rows of `profile` (the strict-best when the profile is unknown)."""
        return self.witnesses["official" if profile == "official" else "strict"]


@dataclass(frozen=True, slots=True)
class ScoredFile:
    source: str
    """`verify-batch` or `rescore`."""
    profile: str | None
    rows: list[Scored]


def read_scored(path: str | Path, profile: str | None) -> ScoredFile:
    """verify-batch lines or a rescore document (told apart by the document's `tasks` list)."""
    data = read_bytes(path)
    try:
        whole = orjson.loads(data)
    except orjson.JSONDecodeError:
        whole = None
    if isinstance(whole, dict) and isinstance(whole.get("tasks"), list):
        return _rescore_rows(path, whole, profile)
    rows = []
    for line in iter_jsonl_bytes(data):
        if line.error is not None or not isinstance(line.value, dict):
            raise InputError(path, "not a verify-batch output line (a JSON object)", f"line {line.number}")
        rows.append(_batch_row(line.value, line.number))
    if not rows:
        raise InputError(path, "no scored plan in the file")
    return ScoredFile("verify-batch", None, rows)


def _batch_row(value: dict[str, Any], number: int) -> Scored:
    task = value.get("task_id", value.get("id"))
    task_id = str(task) if task is not None else f"line {number}"
    row_id = str(value.get("id", task_id))
    if "error" in value:
        return Scored(row_id, task_id, None, None, None, f"verify-batch error: {value['error']}")
    gu = value.get("gu")
    total = gu.get("total_score") if isinstance(gu, dict) else None
    problem = None if isinstance(total, int | float) else "no group utility (scoring crashed)"
    return Scored(row_id, task_id, value.get("profile"), value.get("valid"), _number(total), problem)


def _rescore_rows(path: str | Path, document: dict[str, Any], profile: str | None) -> ScoredFile:
    scored = document.get("profiles", {})
    chosen = profile or ("strict" if "strict" in scored else "official")
    if chosen not in scored:
        problem = f"the rescore document has no {chosen!r} profile (rescore --world adds strict)"
        raise InputError(path, problem)
    rows = []
    for task in document["tasks"]:
        scores = task.get(chosen, {}) if isinstance(task, dict) else {}
        task_id = str(task.get("task_id")) if isinstance(task, dict) else "?"
        total = scores.get("group_utility_total_score")
        gu = _number(total)
        missing = None if gu is not None else "no trial with a group utility"
        rows.append(Scored(task_id, task_id, chosen, scores.get("plan_validity_valid_ratio"), gu, missing))
    return ScoredFile("rescore", chosen, rows)


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def read_oracle(path: str | Path) -> dict[str, OracleLine]:
    """Oracle lines by task_id (the last one of a task wins; lines without a task id are skipped)."""
    data = read_bytes(path)
    if not data.endswith(b"\n"):
        data = data[: data.rfind(b"\n") + 1]
    found: dict[str, OracleLine] = {}
    for line in iter_jsonl_bytes(data):
        value = line.value
        if line.error is not None or not isinstance(value, dict):
            raise InputError(path, "not a tripwright oracle output line", f"line {line.number}")
        task_id = value.get("task_id")
        if not isinstance(task_id, str):
            continue
        found[task_id] = _oracle_line(task_id, value)
    return found


def _oracle_line(task_id: str, value: dict[str, Any]) -> OracleLine:
    error = value.get("error")
    if isinstance(error, dict):
        problem = f"oracle error: {error.get('field')}: {error.get('problem')}"
        return OracleLine(task_id, None, None, 0, {}, problem)
    per_user = value.get("per_user")
    bound = _number(value.get("bound"))
    return OracleLine(
        task_id,
        value.get("status"),
        bound,
        len(per_user) if isinstance(per_user, dict) else 0,
        {profile: witness_for(value, profile) for profile in ("strict", "official")},
        None if bound is not None else f"no proven bound (status {value.get('status')})",
    )


def normalize(scored: ScoredFile, oracle: Mapping[str, OracleLine]) -> dict[str, Any]:
    """Per-row figures, their distributions and every row or task that could not be compared."""
    rows: list[dict[str, Any]] = []
    missing_oracle, no_gu = [], []
    no_bound: dict[str, str] = {}
    for row in scored.rows:
        line = oracle.get(row.task_id)
        if row.gu is None:
            no_gu.append({"id": row.id, "task_id": row.task_id, "reason": row.problem})
        elif line is None:
            missing_oracle.append(row.id)
        elif line.bound is None:
            no_bound[row.task_id] = line.problem or "no bound"
        else:
            rows.append(_figures(row, row.gu, line))
    seen = {row.task_id for row in scored.rows}
    return {
        "source": scored.source,
        "profile": scored.profile,
        "rows": rows,
        "distributions": {name: distribution([r[name] for r in rows]) for name in FIGURES},
        "missing": {
            "oracle": missing_oracle,
            "scored": [task_id for task_id in oracle if task_id not in seen],
            "no_bound": [{"task_id": task_id, "reason": reason} for task_id, reason in no_bound.items()],
            "no_gu": no_gu,
        },
    }


def _figures(row: Scored, gu: float, line: OracleLine) -> dict[str, Any]:
    bound = line.bound if line.bound is not None else 0.0
    regret = bound - gu
    witness = line.witness(row.profile)
    return {
        "id": row.id,
        "task_id": row.task_id,
        "profile": row.profile,
        "valid": row.valid,
        "status": line.status,
        "gu": gu,
        "gu_star": bound,
        "oracle_gu": witness.objective,
        "witness": witness.name,
        "witness_note": witness.note,
        "ratio": _round(gu / bound) if bound > 0 else None,
        "regret": _round(regret),
        "regret_vs_plan": None if witness.objective is None else _round(witness.objective - gu),
        "users": line.users,
        "regret_per_user": _round(regret / line.users) if line.users else None,
    }


def distribution(values: Sequence[float | None]) -> dict[str, float | int | None]:
    """count, min, p10, median, p90, max, mean of the non-null values (percentiles by linear
    interpolation between closest ranks; all null when there is none)."""
    data = sorted(value for value in values if value is not None)
    if not data:
        return {"count": 0, "min": None, "p10": None, "median": None, "p90": None, "max": None, "mean": None}
    return {
        "count": len(data),
        "min": data[0],
        "p10": _round(percentile(data, 0.1)),
        "median": _round(percentile(data, 0.5)),
        "p90": _round(percentile(data, 0.9)),
        "max": data[-1],
        "mean": _round(statistics.fmean(data)),
    }


def percentile(data: Sequence[float], q: float) -> float:
    """The q-quantile of sorted `data`: position q·(n−1), interpolated linearly."""
    position = q * (len(data) - 1)
    low = int(position)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (position - low)


def _round(value: float) -> float:
    return round(value, DIGITS)
