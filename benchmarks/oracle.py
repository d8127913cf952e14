"""Oracle over the gtb tasks: witnesses, proofs, gaps, times, value of splitting, greedy vs oracle.

Run: `.venv/bin/python benchmarks/oracle.py [--tasks FILE] [--time-limit S] [--jobs N]
[--every K] [--compare-splits] [--out FILE]`. The world is built from all the tasks (seed 1),
saved once and loaded by each worker process; each task is solved with splits on (and off with
`--compare-splits`, for the value of splitting), its plan re-checked by `strict` and its
official GU recomputed, beside the greedy plan's GU; both of its plans (strict-best and
both-valid) re-checked by the `official` validity checks, with their idle minutes; wall and
CPU seconds are both kept (on a shared machine the wall time measures the load, the CPU time
the oracle). Records go to `--out` (JSONL, one line a task, in task order, each with the run's
time limit); a run resumes after the tasks its `--out` already holds, and refuses a file of
another time limit. Each task runs in a fresh worker process, so the peak memory a row keeps
(`peak_mib`: imports, the world and the solve) is that task's own. The summary prints
distributions, peak memory included.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from runner.loading import task_poi_db
from sandbox.world import World
from sandbox.world.build import build_world
from solver.greedy import greedy_plan
from solver.greedy_score import world_poi_db
from solver.oracle.solve import OracleSettings, solve_task
from solver.oracle.splitting import splitting_value
from solver.oracle.tiebreak import idle_minutes
from verifier.model.task import Task
from verifier.official.plan_view import build_view
from verifier.official.poi_db import PoiDb
from verifier.official.utility import evaluate_group_utility
from verifier.official.validity import plan_validity_issues
from verifier.strict.profile import strict_violations

DEFAULT_TASKS = Path(__file__).resolve().parents[2] / "shared" / "gtb" / "tasks.jsonl"
_WORLD: dict[str, World] = {}


def _world(folder: str) -> World:
    if folder not in _WORLD:
        _WORLD[folder] = World.load(folder)
    return _WORLD[folder]


def solve_one(folder: str, raw: dict[str, Any], limit: float, compare: bool) -> dict[str, Any]:
    """One task's figures (run in a worker process)."""
    world = _world(folder)
    task = Task.model_validate(raw)
    started, cpu = time.monotonic(), time.process_time()
    official = task_poi_db(world, task)
    result = solve_task(task, world, OracleSettings(time_limit=limit, splits=True), official=official)
    wall, cpu = time.monotonic() - started, time.process_time() - cpu
    keys = tuple(world.city(city) or city for city in task.metadata.cities)
    db = world_poi_db(world, keys)
    table = task.preference_table()
    row: dict[str, Any] = {
        "task_id": task.task_id,
        "time_limit": limit,
        "compare_splits": compare,
        "users": len(task.user_names),
        "days": task.trip_days(),
        "cities": len(keys),
        "status": str(result.status),
        "objective": result.objective,
        "bound": result.bound,
        "gap": result.gap,
        "seconds": result.seconds,
        "wall": round(wall, 2),
        "cpu": round(cpu, 2),
        "source": result.source,
        "splits_used": result.splits_used,
        "notes": list(result.notes),
    }
    decomposition = result.extra.get("decomposition")
    if decomposition is not None:
        row["decomposition"] = {key: decomposition.get(key) for key in DECOMPOSITION_KEYS}
    if result.plan is not None:
        row["strict_valid"] = strict_violations(task, result.plan, world) == []
        row["official_gu"] = _gu(task, result.plan, table, db)
        row["official_issues"] = _issues(task, result.plan, official)
        row["idle_minutes"] = idle_minutes(result.plan, task.user_names)
    both = result.both_valid
    if both is not None:
        row["both_valid_gu"] = _gu(task, both.plan, table, db)
        row["both_valid_strict"] = strict_violations(task, both.plan, world) == []
        row["both_valid_issues"] = _issues(task, both.plan, official)
        row["both_valid_idle"] = idle_minutes(both.plan, task.user_names)
    greedy = greedy_plan(task, world)
    row["greedy_gu"] = _gu(task, greedy, table, db)
    if compare:
        together = solve_task(task, world, OracleSettings(time_limit=limit, splits=False))
        row["objective_no_splits"] = together.objective
        row["bound_no_splits"] = together.bound
        row["status_no_splits"] = str(together.status)
    row["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return row


def _gu(task: Task, plan: dict[str, Any], table: dict[str, Any], db: Any) -> int:
    return int(evaluate_group_utility(build_view(plan, task.user_names), table, db)["total_score"])


def _issues(task: Task, plan: dict[str, Any], official: PoiDb) -> list[str]:
    """The official issue types of a plan, sorted."""
    issues = plan_validity_issues(build_view(plan, task.user_names), official)
    return sorted({str(issue.issue["type"]) for issue in issues})


DECOMPOSITION_KEYS = (
    *("bound", "first", "lp", "rounds", "columns", "seeded", "split", "trips"),
    *("converged", "pattern", "closing"),
)
"""The fields of a record's `extra.decomposition` a row keeps (its multipliers are left out)."""


def _spread(values: list[float]) -> str:
    if not values:
        return "n/a"
    q = statistics.quantiles(values, n=10, method="inclusive") if len(values) > 1 else [values[0]] * 9
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"min {low:.3g} / p10 {q[0]:.3g} / median {mid:.3g} / p90 {q[8]:.3g} / max {high:.3g}"


def splitting_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The value of splitting (`--compare-splits`): per task the interval its two records prove
    (`solver.oracle.splitting`); exact where both runs are proven optimal."""
    values = []
    for r in rows:
        if "bound_no_splits" in r:
            on, off = (r["objective"], r["bound"]), (r["objective_no_splits"], r["bound_no_splits"])
            value = splitting_value(on, off)
            if value is not None:
                values.append(value)
    if not values:
        return []
    exact = [float(v.low) for v in values if v.exact]
    lows, highs = [float(v.low) for v in values], [float(v.high) for v in values]
    return [
        f"value of splitting, proven on {len(exact)}/{len(values)}: {_spread(exact)}; "
        f"positive on {sum(v > 0 for v in exact)}",
        f"value of splitting, proven intervals: helps on {sum(v.low > 0 for v in values)}, never helps "
        f"on {sum(v.high == 0 for v in values)}, open on {sum(v.low == 0 < v.high for v in values)}; "
        f"low ends {_spread(lows)}; high ends {_spread(highs)}",
    ]


def decomposition_lines(rows: list[dict[str, Any]]) -> list[str]:
    """The decomposition's figures: on how many tasks its bound is the record's (and of those,
    how many rest on its first pass, which no round beat), converged, gap closing, split seeds."""
    n = len(rows)
    runs = [r.get("decomposition") or {} for r in rows]
    record = [
        run
        for r, run in zip(rows, runs, strict=True)
        if run.get("bound") is not None and run["bound"] == r["bound"]
    ]
    first = [
        run for run in record if run.get("first") is not None and math.floor(run["first"]) == run["bound"]
    ]
    closings = [(run, run["closing"]) for run in runs if run.get("closing")]
    split = [run["split"] for run in runs if run.get("split")]
    trips = [run["trips"] for run in runs if run.get("trips")]
    return [
        f"decomposed bound is the record's: {len(record)}/{n}, its first pass's: {len(first)}",
        f"decomposition converged: {sum(bool(run.get('converged')) for run in runs)}/{n}; "
        f"gap closing ran on {len(closings)}, finished on "
        f"{sum(c.get('bound') is not None for _, c in closings)}, lowered the bound on "
        f"{sum(c.get('bound') is not None and c['bound'] < run['bound'] for run, c in closings)}",
        f"split seeds priced on {len(split)}/{n} tasks, columns a task: {_spread(split)}",
        f"trip seeds priced on {len(trips)}/{n} tasks, columns a task: {_spread(trips)}",
    ]


def summary(rows: list[dict[str, Any]]) -> list[str]:
    """The printed figures."""
    n = len(rows)
    witnessed = [r for r in rows if r.get("strict_valid")]
    optimal = [r for r in rows if r["status"] == "OPTIMAL"]
    consistent = [r for r in witnessed if r["official_gu"] == r["objective"]]
    gaps = [r["gap"] for r in rows if r["gap"] is not None]
    lines = [
        f"tasks: {n}",
        f"strict-valid plan: {len(witnessed)}/{n} ({100 * len(witnessed) / n:.1f}%)",
        f"official GU = objective: {len(consistent)}/{len(witnessed)}",
        f"proven optimal: {len(optimal)}/{n} ({100 * len(optimal) / n:.1f}%)",
        f"gap (bound − GU)/bound: {_spread(gaps)}",
        f"time per task, oracle (s): {_spread([r['seconds'] for r in rows])}",
        f"wall per task incl. checks (s): {_spread([r['wall'] for r in rows])}",
        f"CPU per task (s; what a loaded machine does not inflate): {_spread([r['cpu'] for r in rows])}",
        f"plans from cp-sat: {sum(r['source'] == 'cp-sat' for r in rows)}; "
        f"from greedy: {sum(r['source'] == 'greedy' for r in rows)}; "
        f"with a split: {sum(r['splits_used'] > 0 for r in rows)}",
    ]
    accepted = [r for r in witnessed if r["official_issues"] == []]
    kinds: dict[str, int] = {}
    for r in witnessed:
        for kind in r["official_issues"]:
            kinds[kind] = kinds.get(kind, 0) + 1
    both = [r for r in rows if "both_valid_gu" in r]
    rechecked = [r for r in both if r["both_valid_strict"] and r["both_valid_issues"] == []]
    lines += [
        f"strict-best plan official-valid: {len(accepted)}/{len(witnessed)}; rejected by: {kinds}",
        f"both-valid plan: {len(both)}/{n} (re-checked valid under both: {len(rechecked)})",
        f"strict-best GU − both-valid GU: {_spread([r['official_gu'] - r['both_valid_gu'] for r in both])}",
        f"idle minutes, strict-best plan: {_spread([r['idle_minutes'] for r in witnessed])}; "
        f"total {sum(r['idle_minutes'] for r in witnessed)}",
        f"idle minutes, both-valid plan: {_spread([r['both_valid_idle'] for r in both])}",
    ]
    better = [r["objective"] - r["greedy_gu"] for r in rows if r["objective"] is not None]
    lines.append(
        f"oracle GU − greedy GU: {_spread(better)}; improved on {sum(d > 0 for d in better)}/{len(better)}"
    )
    ratios = [r["greedy_gu"] / r["objective"] for r in rows if r["objective"]]
    lines.append(f"greedy GU / oracle GU: {_spread(ratios)}")
    lines += splitting_lines(rows)
    lines += decomposition_lines(rows)
    for key in ("users", "days", "cities"):
        groups = sorted({r[key] for r in rows})
        parts = []
        for g in groups:
            group = [r for r in rows if r[key] == g]
            parts.append(f"{g}: {sum(r['status'] == 'OPTIMAL' for r in group)}/{len(group)}")
        lines.append(f"proven optimal by {key}: " + ", ".join(parts))
    lines.append(f"peak memory per task (MiB): {_spread([r['peak_mib'] for r in rows])}")
    return lines


def _done(out: Path | None, limit: float, compare: bool) -> list[dict[str, Any]]:
    """The rows an earlier run of the same settings left in `out` (the run resumes after them);
    exits with a message when `out` holds rows of other settings, which must not be mixed."""
    if out is None or not out.exists():
        return []
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines() if line.strip()]
    for row in rows:
        if row.get("time_limit") != limit or row.get("compare_splits") != compare:
            raise SystemExit(
                f"{out}: holds {row.get('task_id')} of another run (time limit {row.get('time_limit')}, "
                f"compare splits {row.get('compare_splits')}); give another --out"
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", type=Path, default=DEFAULT_TASKS)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--every", type=int, default=1, help="take every K-th task")
    parser.add_argument("--compare-splits", action="store_true")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    raws = [json.loads(line) for line in args.tasks.read_text(encoding="utf-8").splitlines() if line.strip()]
    chosen = raws[:: args.every]
    rows = _done(args.out, args.time_limit, args.compare_splits)
    done = {row["task_id"] for row in rows}
    with tempfile.TemporaryDirectory() as folder:
        build_world(raws, 1).save(folder)
        with ProcessPoolExecutor(args.jobs, max_tasks_per_child=1) as pool:
            futures = [
                pool.submit(solve_one, folder, raw, args.time_limit, args.compare_splits)
                for raw in chosen
                if raw["task_id"] not in done
            ]
            for future in futures:
                rows.append(future.result())
                if args.out is not None:
                    with args.out.open("a", encoding="utf-8") as out:
                        out.write(json.dumps(rows[-1], ensure_ascii=False) + "\n")
    print(f"oracle benchmark: {len(chosen)} tasks, time limit {args.time_limit} s, {args.jobs} processes")
    for line in summary(rows):
        print(line)


if __name__ == "__main__":
    main()
