"""The report's sections as blocks: inputs, official scores, the oracle, plots, checks, runs, judge."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runner.judge.prompts import DIMENSIONS, TITLES
from runner.judge.scores import AVERAGE
from runner.report import plots
from runner.report.document import Block, Heading, Image, Para, Table
from runner.report.figures import MEANS, check_label, failed_checks, oracle_figures, witness_note
from runner.report.frontier import has_frontier, panels
from runner.report.inputs import Inputs, Record, trial_key
from runner.report.judge_figures import judge_by_group, judge_summary
from runner.report.official import overview_tables
from runner.report.tool_stats import TIMINGS, run_extras, tool_stats

NONE = "-"
FRONTIER_PANELS = 12
NO_RESCORE = (
    "Not computed: pass --poi-db FILE (the official POI file) or --world DIR to re-score the trials "
    "with the official aggregation (and, with --world, the strict profile)."
)


def fmt(value: Any, digits: int = 2) -> str:
    """A figure as text: `-` for None, fixed decimals for floats."""
    if value is None:
        return NONE
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def pct(value: float | None) -> str:
    return NONE if value is None else f"{value * 100:.1f}%"


def task_ids(inputs: Inputs) -> list[str]:
    return list(dict.fromkeys(str(record["task_id"]) for record in inputs.runs))


def inputs_section(inputs: Inputs, sources: Mapping[str, str]) -> list[Block]:
    trials = len({trial_key(record) for record in inputs.runs})
    blocks: list[Block] = [
        Para(f"{len(inputs.runs)} run record(s), {trials} trial(s) of {len(task_ids(inputs))} task(s)."),
        Table(("input", "file"), tuple((name, path) for name, path in sources.items())),
    ]
    if inputs.skipped:
        rows = tuple((item.path, str(item.line), item.problem) for item in inputs.skipped)
        blocks += [Para(f"{len(rows)} line(s) skipped:"), Table(("file", "line", "problem"), rows)]
    return blocks


def official_section(document: Mapping[str, Any] | None, judge: Mapping[str, float] | None) -> list[Block]:
    blocks: list[Block] = [Heading("Scores (official aggregation)")]
    if document is None:
        return [*blocks, Para(NO_RESCORE)]
    for profile, summary in document["profiles"].items():
        overview, dimensions = overview_tables(summary, judge)
        blocks += [Heading(f"Profile {profile}", 3), overview, dimensions]
    if document.get("strict_note"):
        blocks.append(Para(document["strict_note"]))
    return blocks


ORACLE_ROWS = (
    ("trials", "trials", fmt),
    ("plans generated", "plans", fmt),
    ("acceptable rate (strict-valid plan)", "acceptable_rate", pct),
    ("official-valid rate", "official_valid_rate", pct),
    ("optimality rate (proven optimal)", "optimality_rate", pct),
)


def oracle_section(inputs: Inputs) -> list[Block]:
    blocks: list[Block] = [Heading("Against the oracle")]
    figures = oracle_figures(inputs)
    if not figures:
        return [*blocks, Para("Not computed: pass --scored FILE (the output of tripwright score).")]
    columns = ("", *(f"{name.capitalize()}" for name in figures))
    rows = [
        (label, *(render(group[key]) for group in figures.values())) for label, key, render in ORACLE_ROWS
    ]
    for key in MEANS:
        label = f"{key.replace('_', ' ')}: mean / median (n)"
        cells = (
            f"{fmt(g[key]['mean'], 4)} / {fmt(g[key]['median'], 4)} ({g[key]['count']})"
            for g in figures.values()
        )
        rows.append((label, *cells))
    return [*blocks, Para(witness_note(inputs.scored or [])), Table(columns, tuple(rows))]


def plots_section(inputs: Inputs) -> list[Block]:
    rows = inputs.scored or []
    if not rows:
        return []
    shown, total = panels(inputs, FRONTIER_PANELS)
    counts = failed_checks(rows)
    blocks: list[Block] = [
        Heading("Plots"),
        Image(plots.agent_vs_oracle(rows, lambda row: inputs.difficulty(str(row["task_id"]), row))),
        Image(plots.regret_histogram(rows)),
        Image(plots.frontier_plot(shown, total, has_frontier(inputs.oracle))),
    ]
    if not has_frontier(inputs.oracle):
        source = "the oracle records' own plans" if inputs.oracle else "only the scored lines' gu_best"
        blocks.append(
            Para(
                "No GU–GF frontier was given (run tripwright oracle --objective frontier, pass --oracle): "
                f"the frontier plot shows the trials' (GF, GU) against {source}."
            )
        )
    blocks += [
        Heading("Failed strict checks", 3),
        Image(plots.failed_checks_plot(counts, len(rows))),
        Table(("check", "trials failing"), tuple((check_label(c), str(n)) for c, n in counts.items())),
    ]
    return blocks


def runs_section(runs: list[Record]) -> list[Block]:
    stats = tool_stats(runs)
    extras = run_extras(runs)
    rows = (
        ("total tasks", str(len({str(r["task_id"]) for r in runs}))),
        ("total samples", str(stats["sample_count"])),
        ("plan-generated rate", pct(stats["plan_generated_rate"])),
        ("avg duration (s)", fmt(stats["avg_duration"])),
        ("avg tool calls", fmt(stats["avg_tool_calls"])),
        ("cache hit rate", pct(stats["cache_hit_rate"])),
        ("tool error rate", pct(stats["tool_error_rate"])),
        ("text tool calls", str(extras["text_tool_calls"])),
        *(
            (f"{party} tokens (prompt / completion)", f"{tokens['prompt']} / {tokens['completion']}")
            for party, tokens in extras["tokens"].items()
        ),
        *((f"mean {key} ({extras['records']} timed)", fmt(extras["mean_timings"][key])) for key in TIMINGS),
    )
    reasons = tuple(
        (reason, str(item["count"]), pct(item["ratio"]))
        for reason, item in stats["completion_reasons"].items()
    )
    return [
        Heading("Runs: tool use and completion"),
        Table(("figure", "value"), rows),
        Heading("Completion reasons", 3),
        Table(("reason", "count", "share of samples"), reasons),
    ]


def judge_section(inputs: Inputs, judge: Mapping[str, Mapping[str, float]]) -> list[Block]:
    judged = inputs.judged or []
    summary = judge_summary(judged)
    stats = summary["statistics"]
    columns = ("dimension", *(name.capitalize() for name in judge))
    rows = (
        *((f"{dim} {TITLES[dim]}", *(fmt(group[dim]) for group in judge.values())) for dim in DIMENSIONS),
        ("Average", *(fmt(group[AVERAGE]) for group in judge.values())),
    )
    meta = stats["meta_judge"]
    return [
        Heading("LLM judge"),
        Para(
            f"Model: {', '.join(summary['models']) or NONE} · evaluated: {stats['count']} "
            f"(not judged: {stats['failed']}) · meta-judge mean: {fmt(meta['mean'])}/5 over {meta['count']}. "
            "Final scores 0–100 (normalised, weighted by the meta rating); per task the mean of its "
            "judged trials, a task without one counting 0."
        ),
        Table(columns, rows),
    ]


def judge_groups(inputs: Inputs) -> dict[str, dict[str, float]] | None:
    """Final judge scores per group, or None without `--judged`."""
    if inputs.judged is None:
        return None
    return judge_by_group(inputs.judged, task_ids(inputs), inputs.difficulty)


def judge_averages(groups: Mapping[str, Mapping[str, float]] | None) -> dict[str, float] | None:
    return None if groups is None else {name: group[AVERAGE] for name, group in groups.items()}
