"""Episode measures of the baselines on the gtb tasks: elicitation, tool faults, unsolvable variants, shifts.

    .venv/bin/python benchmarks/episode_measures_gtb.py [--tasks FILE] [--every K] [--time-limit S]
                                                        [--faults SPEC] [--concurrency N] [--work DIR]

The world is built from all the tasks (seed 1, as `benchmarks/baselines_gtb.py` builds it); every
K-th task (default 8) is played once by each of `scripted`, `silent` and `random` with rule users
through the runs API (run seed 0; the baselines plan with the cached oracle, `random` with the
greedy planner):

1. the tasks as they are, scored against the oracle (`--time-limit` seconds a solve, cached in the
   work folder): elicitation rates (active, passive, of which opening, never), plans, acceptable
   rate, mean GU and GU/GU*;
2. the same tasks with `--tool-faults` (default `every:2`), scored the same way: GU and GU/GU* with
   faults, faults met and recovered;
3. the certified-unsolvable variants of the tasks (`runner.tasks.variants.derive`, every kind, from
   the start and at event 3), scored by rule only (`runner.scoring.episode_measures`, no oracle):
   per kind and start/transition, reached and correctly refused;
4. the must-visit intent shifts at event 3, scored by rule: shift happened, the agent's table heard
   it, the plan followed it.

`--work DIR` keeps the world, runs, scored lines and oracle cache (a re-run resumes and solves
nothing); by default a temporary folder. Prints the figures and the wall time of each phase.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from baselines_gtb import DEFAULT_TASKS, WORLD_SEED, prepare  # this folder is on sys.path

from runner.loading.benchmark_data import load_sandbox_world
from runner.loading.files import atomic_write_bytes, dumps_line
from runner.runs.config import RunConfig
from runner.runs.run import Execution, run_trials
from runner.runs.setup import make_job
from runner.runs.tasks import read_run_tasks
from runner.saved.normalize import distribution
from runner.scoring.elicitation import elicitation_counts, field_statuses, merge_counts, rates
from runner.scoring.episode_measures import episode_measures
from runner.scoring.score import ScoreJob, score_file, write_scored
from runner.tasks.variants import derive
from sandbox.world.official_io import export_poi_db
from verifier.official.poi_db import PoiDb

AGENTS = ("scripted", "silent", "random")


def play(
    folder: Path, tasks: Path, agent: str, name: str, args: argparse.Namespace, *, faults: str | None
) -> Path:
    """One agent's runs of a tasks file (resumed when already there)."""
    config = RunConfig(
        agent=agent, users="rules", seed=0, oracle_time_limit=args.time_limit, tool_faults=faults
    )
    job = make_job(config, folder / "world", folder / "cache")
    out = folder / f"{agent}.{name}.runs.jsonl"
    read = read_run_tasks(tasks)
    execution = Execution(concurrency=args.concurrency, pool="processes")
    run_trials(job, read.runnable, trials=1, out=out, execution=execution)
    return out


def scored(folder: Path, runs: Path, tasks: Path, args: argparse.Namespace) -> list[dict[str, Any]]:
    config = RunConfig(agent="scripted", users="rules", seed=0, oracle_time_limit=args.time_limit)
    job = make_job(config, folder / "world", folder / "cache")
    by_id = {entry.task.task_id: entry.task for entry in read_run_tasks(tasks).runnable}
    result = score_file(runs, by_id, ScoreJob(folder / "world", job.oracle, args.concurrency))
    write_scored(result, runs.with_suffix(".scored.jsonl"))
    return result.lines


def by_rule(runs: Path, tasks: Path, world_dir: Path) -> list[dict[str, Any]]:
    """`episode_measures` of every record (no oracle)."""
    world = load_sandbox_world(world_dir)
    by_id = {entry.task.task_id: entry.task for entry in read_run_tasks(tasks).runnable}
    databases: dict[tuple[str, ...], PoiDb] = {}
    lines = []
    for line in runs.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        task = by_id[record["task_id"]]
        cities = (task.metadata.departure_city, *task.metadata.cities)
        if cities not in databases:
            databases[cities] = PoiDb(export_poi_db(world, cities))
        lines.append(episode_measures(record, task, databases[cities]))
    return lines


def _mean(values: Iterable[Any]) -> str:
    stats = distribution(list(values))
    return "—" if stats["mean"] is None else f"{stats['mean']:.4g} (n={stats['count']})"


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.1f}%"


def report_plain(
    agent: str, lines: list[dict[str, Any]], faulted: list[dict[str, Any]], records: Path
) -> None:
    counts = merge_counts(
        [elicitation_counts(field_statuses(json.loads(r))) for r in records.read_text().splitlines()]
    )
    shares = rates(counts)
    plans = sum(1 for line in lines if line.get("plan_generated"))
    acceptable = sum(1 for line in lines if line.get("strict_valid") is True) / len(lines)
    print(f"{agent}: {len(lines)} trials, {plans} plans, acceptable {_pct(acceptable)}")
    print(
        f"  elicitation over {counts['fields']} fields: active {_pct(shares['active'])}, passive "
        f"{_pct(shares['passive'])} (opening {_pct(shares['opening'])}), never {_pct(shares['never'])}"
    )
    for topic, group in counts["by_topic"].items():
        part = rates(group)
        active, never = _pct(part["active"]), _pct(part["never"])
        print(f"    {topic:<9} {group['fields']:>4} fields: active {active}, never {never}")
    gu, ratio = _mean(x.get("gu") for x in lines), _mean(x.get("gu_ratio") for x in lines)
    print(f"  without faults: GU {gu}, GU/GU* {ratio}")
    met = sum(int((x.get("tool_faults") or {}).get("met", 0)) for x in faulted)
    recovered = sum(int((x.get("tool_faults") or {}).get("recovered", 0)) for x in faulted)
    gu, ratio = _mean(x.get("gu") for x in faulted), _mean(x.get("gu_ratio") for x in faulted)
    print(f"  with faults:    GU {gu}, GU/GU* {ratio}; faults met {met}, recovered {recovered}")


def report_variants(agent: str, unsolvable: list[dict[str, Any]], shifts: list[dict[str, Any]]) -> None:
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for line in unsolvable:
        item = line["unsolvable"]
        groups.setdefault((item["kind"], item["when"]), []).append(item)
    reached_all = [i for items in groups.values() for i in items if i["reached"]]
    correct_all = sum(1 for i in reached_all if i["correct"])
    share_all = correct_all / len(reached_all) if reached_all else None
    shown = _pct(share_all)
    print(f"  unsolvable variants: {len(unsolvable)}, reached {len(reached_all)}, correctly refused {shown}")
    for (kind, when), items in groups.items():
        reached = [i for i in items if i["reached"]]
        share = sum(1 for i in reached if i["correct"]) / len(reached) if reached else None
        refused = sum(1 for i in reached if i["refused"])
        counted = f"{len(items):>3} variants, {len(reached):>3} reached, {refused:>3} refused"
        print(f"    {kind:<10} {when:<10} {counted}, correct {_pct(share)}")
    items = [line["intent_shift"] for line in shifts]
    applied = [i for i in items if i["applied"]]
    heard = sum(1 for i in applied if i.get("heard"))
    judged = [i for i in applied if i["followed"] is not None]
    followed = sum(1 for i in judged if i["followed"])
    print(
        f"  intent shifts: {len(items)}, happened {len(applied)}, heard {heard}, "
        f"plan followed {followed} of {len(judged)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=Path, default=DEFAULT_TASKS)
    parser.add_argument("--every", type=int, default=8, help="play every K-th task (default 8)")
    parser.add_argument("--time-limit", type=float, default=5.0, help="oracle seconds a solve (default 5)")
    parser.add_argument("--faults", default="every:2", help="tool faults of phase 2 (default every:2)")
    parser.add_argument("--concurrency", type=int, default=1, help="trials and solves at once (default 1)")
    parser.add_argument("--work", type=Path, help="keep world, runs and cache here (default: a temp folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="episode-measures-") as tmp:
        folder = args.work or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        count = prepare(folder, args.tasks, args.every)
        tasks = folder / "tasks.jsonl"
        world = load_sandbox_world(folder / "world")
        chosen = [entry.task for entry in read_run_tasks(tasks).runnable]
        files = {}
        for name, shifts in (("unsolvable", False), ("shifts", True)):
            kinds = ["budget", "closed", "no_service"]
            variants, counts = derive(chosen, world, kinds=kinds, at_event=3, shifts=shifts)
            files[name] = folder / f"{name}.jsonl"
            atomic_write_bytes(files[name], b"".join(dumps_line(v) for v in variants))
            print(f"{name}: {len(variants)} variants {counts}")
        print(
            f"{count} tasks (every {args.every}th of {args.tasks.name}), world seed {WORLD_SEED}; oracle "
            f"{args.time_limit:g} s a solve; rule users, 1 trial, run seed 0; faults {args.faults}; "
            f"concurrency {args.concurrency}; ready in {time.monotonic() - started:.1f} s",
            flush=True,
        )
        for agent in AGENTS:
            phase = time.monotonic()
            plain_runs = play(folder, tasks, agent, "plain", args, faults=None)
            plain = scored(folder, plain_runs, tasks, args)
            fault_runs = play(folder, tasks, agent, "faults", args, faults=args.faults)
            faulted = scored(folder, fault_runs, tasks, args)
            unsolvable = by_rule(
                play(folder, files["unsolvable"], agent, "unsolvable", args, faults=None),
                files["unsolvable"],
                folder / "world",
            )
            shifts = by_rule(
                play(folder, files["shifts"], agent, "shifts", args, faults=None),
                files["shifts"],
                folder / "world",
            )
            print()
            report_plain(agent, plain, faulted, plain_runs)
            report_variants(agent, unsolvable, shifts)
            print(f"  ({time.monotonic() - phase:.0f} s)", flush=True)
        print(f"\nwall time {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
