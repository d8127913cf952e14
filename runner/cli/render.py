"""Human-readable output (rich) for verdicts, samples and rescoring; `--json` bypasses this module."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.table import Column

from runner.cli.tables import cli_table
from verifier.model.verdict import UserUtility, Verdict

if TYPE_CHECKING:
    from runner.sample.bench import Bench
    from runner.sample.oracle_splits import OracleRun
    from runner.sample.plans import Sample, SampleResult

MAX_VIOLATIONS = 50


def verdict(console: Console, result: Verdict, title: str) -> None:
    """Verdict summary, violations, and each user's score with the scored items."""
    status = "[green]VALID[/]" if result.valid else "[red]INVALID[/]"
    console.print(
        f"[bold]{title}[/] — profile {result.profile}: {status}, {len(result.violations)} violation(s)"
    )
    if result.violations:
        table = cli_table("code", "check", "loc", "message", title="violations")
        for item in result.violations[:MAX_VIOLATIONS]:
            table.add_row(item.code, str(item.check), item.loc, item.message)
        console.print(table)
        if len(result.violations) > MAX_VIOLATIONS:
            console.print(f"… {len(result.violations) - MAX_VIOLATIONS} more (use --json for all)")
    scores(console, result)


def scores(console: Console, result: Verdict) -> None:
    """GU with per-user explanations, GF and PC (or why they are missing)."""
    gu = result.gu
    if gu is None:
        console.print("group utility: unavailable (the official function crashes on this input)")
    else:
        console.print(
            f"group utility: total {gu.total_score} (before split penalty {gu.total_score_before_penalty}, "
            f"penalty {gu.split_penalty.total_penalty}), per-user average {gu.per_user_average_score}"
        )
        for user, utility in gu.per_user.items():
            _user_table(console, user, utility)
    if result.gf is None:
        console.print("group fairness: unavailable")
    else:
        console.print(f"group fairness: {result.gf.fairness_score} (per user {result.gf.per_user_scores})")
    if result.pc is not None:
        console.print(
            f"preference completeness: {result.pc.completeness_ratio} "
            f"({result.pc.total_collected}/{result.pc.total_possible})"
        )


def _user_table(console: Console, user: str, utility: UserUtility) -> None:
    parts = ", ".join(f"{name} {value}" for name, value in utility.breakdown.items())
    table = cli_table("field", "item", "where", "score", title=f"{user}: {utility.total_score} ({parts})")
    for detail in utility.details:
        where = detail.get("location") or detail.get("route") or detail.get("city") or ""
        table.add_row(
            str(detail.get("field", "")), _text(detail.get("item", "")), _text(where), _score(detail)
        )
    console.print(table)


def _score(detail: dict[str, Any]) -> str:
    score = detail.get("score", "")
    return f"+{score}" if isinstance(score, int | float) and score > 0 else str(score)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else str(value)


def sample_world(console: Console, sample: Sample) -> None:
    """What the sample plans are judged against."""
    world, task = sample.world, sample.task
    places = [poi.kind for city in task.metadata.cities for poi in world.pois(city)]
    console.print(
        f"task {task.task_id} ({task.query}); world built from this task alone, seed {sample.seed}: "
        f"{places.count('attraction')} attractions, {places.count('restaurant')} restaurants, "
        f"{places.count('hotel')} hotels in {'、'.join(task.metadata.cities)}, timetables from "
        f"{task.metadata.departure_city}; the official POI file is the world's export"
    )


def samples(console: Console, results: list[SampleResult]) -> None:
    """One row per sample plan and profile."""
    table = cli_table(
        "plan", "profile", "valid", "GU avg", "GU total", "GF", "violations", title="sample plans"
    )
    for item in results:
        result = item.verdict
        codes = "\n".join(f"{code} ×{n}" for code, n in result.issue_counts.items()) or "-"
        table.add_row(
            item.plan,
            item.profile,
            "[green]yes[/]" if result.valid else "[red]no[/]",
            "-" if result.gu is None else str(result.gu.per_user_average_score),
            "-" if result.gu is None else str(result.gu.total_score),
            "-" if result.gf is None else str(result.gf.fairness_score),
            codes,
        )
    console.print(table)


def sample_oracle(console: Console, sample: Sample, run: OracleRun) -> None:
    """The oracle's figures with splits on and off, its plan's verdicts, and the plan itself."""
    from runner.report.plan_text import render_plan  # `verify`'s tables load no report module

    first = run.with_splits
    table = cli_table(
        Column("task", no_wrap=True),
        "splits",
        "GU*",
        "bound",
        "gap",
        "status",
        "time",
        "splits\nused",
        "value of\nsplitting",
        title=f"oracle ({first.time_limit:g} s a run, {_count(first.workers, 'worker')}, seed {first.seed})",
    )
    for result in (run.with_splits, run.without_splits):
        value = run.value_of_splitting if result is first else None
        table.add_row(
            result.task_id,
            "on" if result.splits else "off",
            _fig(result.objective),
            _fig(result.bound),
            "-" if result.gap is None else f"{result.gap:.1%}",
            str(result.status),
            f"{result.seconds:.1f} s",
            str(result.splits_used),
            "" if value is None else str(value),
        )
    console.print(table)
    console.print("GU* is the best plan's GU total; bound: no strict-valid plan scores more.")
    console.print("value of splitting: best GU with splits - best without (proven range).")
    on, off = run.with_splits.objective, run.without_splits.objective
    if on is not None and off is not None and on < off:
        console.print(
            "the split run scored below the run without splits, whose plan it also allows: "
            "its search was cut short by the time limit (try a larger --time-limit)"
        )
    for note in dict.fromkeys((*run.with_splits.notes, *run.without_splits.notes)):
        console.print(f"note: {note}", style="dim", markup=False)
    best = run.best
    if best.plan is None:
        console.print("the oracle found no plan in the time limit")
        return
    console.print(
        f"\noracle plan (splits {'on' if best.splits else 'off'}, from {best.source}): " + _judged(run)
    )
    console.print(render_plan(best.plan, sample.task))


def _judged(run: OracleRun) -> str:
    """What both profiles say of the chosen plan, and whether the official GU is the objective."""
    parts = []
    for profile, verdict in run.verdicts.items():
        codes = ", ".join(verdict.issue_counts) if verdict.issue_counts else ""
        parts.append(f"{profile} accepts it" if verdict.valid else f"{profile} REJECTS it ({codes})")
    official = run.verdicts.get("official")
    if official is not None and official.gu is not None:
        same = "=" if official.gu.total_score == run.best.objective else "≠"
        parts.append(f"official GU {official.gu.total_score} {same} objective {run.best.objective}")
    return "; ".join(parts)


def sample_bench(console: Console, bench: Bench) -> None:
    """One row per baseline agent against the oracle, what the columns mean, and where the reports are."""
    table = cli_table(
        Column("agent", no_wrap=True),
        "plan?",
        "strict\nvalid",
        "GU",
        "GU*",
        "GU/GU*",
        "regret",
        "PC",
        "termination\nreason",
        title=f"baselines on {bench.task_id} against the oracle (rule users, {bench.time_limit:g} s a solve)",
    )
    for row in bench.rows:
        line = row.scored
        table.add_row(
            row.agent,
            _yes_no(line["plan_generated"]),
            _yes_no(line["strict_valid"]),
            _number(line["gu"]),
            _number(line["gu_star"]),
            _number(line["gu_ratio"]),
            _number(line["regret"]),
            "-" if line["pc"] is None else f"{line['pc']:.2f}",
            str(line["termination_reason"]),
        )
    console.print(table)
    scores = [_number(row.scored["gu_best"]) for row in bench.rows if row.scored["gu_best"] is not None]
    best = f"; the oracle's own plan scores {' / '.join(dict.fromkeys(scores))}" if scores else ""
    console.print(
        f"Trial 0 of {bench.trials}. GU: the agent's plan's GU total on the effective table ③; "
        "GU*: the oracle's proven bound there "
        f"(no strict-valid plan scores more{best}); regret = GU* − GU; "
        "PC: share of the preferences the agent collected."
    )
    _bench_reliability(console, bench)
    for row in bench.rows:
        problems = [f"the trial failed: {row.error}"] if row.error is not None else row.scored["problems"]
        for problem in problems:
            console.print(f"{row.agent}: {problem}", markup=False, soft_wrap=True)
    sample_elicitation(console, bench)
    for row in bench.rows:
        console.print(f"{row.agent} report: {row.report_html} (and report.md)", soft_wrap=True)


def _bench_reliability(console: Console, bench: Bench) -> None:
    """pass^k for k = 1 … K and pass@K per agent over its trials (success: a strict-valid plan)."""
    most = max((len(row.reliability) for row in bench.rows), default=0)
    if not most:
        return
    columns = [f"pass^{k}" for k in range(1, most + 1)] + [f"pass@{most}", "avg"]
    table = cli_table(
        Column("agent", no_wrap=True),
        *columns,
        title=f"reliability over {most} trials",
    )
    for row in bench.rows:
        rows = list(row.reliability)
        hats = [f"{r['pass_hat_k']:.2f}" for r in rows] + ["-"] * (most - len(rows))
        last = rows[-1] if len(rows) == most else None
        table.add_row(
            row.agent,
            *hats,
            "-" if last is None else f"{last['pass_at_k']:.2f}",
            "-" if not rows else f"{rows[0]['avg_k']:.2f}",
        )
    console.print(table)
    console.print(
        "Success: a strict-valid plan. pass^k: k trials drawn from the agent's trials all succeed; "
        "pass@k: at least one does; avg: share of trials that succeed."
    )


def _yes_no(value: bool | None) -> str:
    return "-" if value is None else ("yes" if value else "no")


def _number(value: float | None) -> str:
    """A scored figure: "-" when missing, a whole number without ".0"."""
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def rescore(console: Console, document: dict[str, Any]) -> None:
    """Per-task figures, the official summaries per profile, and the profile disagreements."""
    table = cli_table(
        "task", "difficulty", "trials", "PC", "GU avg", "GF", "PV official", "PV strict", title="tasks"
    )
    for row in document["tasks"]:
        official, strict = row["official"], row.get("strict") or {}
        table.add_row(
            row["task_id"],
            row["difficulty_type"],
            str(row["num_trials"]),
            _fig(official.get("preference_completeness_ratio")),
            _fig(official.get("group_utility_per_user_average_score")),
            _fig(official.get("group_fairness_score")),
            _fig(official.get("plan_validity_valid_ratio")),
            _fig(strict.get("plan_validity_valid_ratio")),
        )
    console.print(table)
    for profile, block in document["profiles"].items():
        _summary_table(console, f"{profile}: overall", block["overall_summary"])
        for name, entry in block["difficulty_summaries"].items():
            _summary_table(console, f"{profile}: {name} ({entry['count']} tasks)", entry["summary"])
    if document.get("strict_note"):
        console.print(document["strict_note"])
    for item in document.get("disagreements", []):
        console.print(
            f"{item['task_id']} trial {item['trial_id']}: official valid={item['official_valid']}, "
            f"strict valid={item['strict_valid']}; strict codes {item['strict_codes']}, "
            f"official codes {item['official_codes']}"
        )


def _summary_table(console: Console, title: str, summary: dict[str, Any]) -> None:
    table = cli_table("metric", "figures", title=title)
    for metric, figures in summary.items():
        table.add_row(metric, ", ".join(f"{key} {value}" for key, value in figures.items()))
    console.print(table)


def _fig(value: Any) -> str:
    return "-" if value is None else str(value)


def _count(n: int, noun: str) -> str:
    """`1 worker`, `2 workers`."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def sample_elicitation(console: Console, bench: Bench) -> None:
    """Per agent of the closing benchmark, how the travellers' preference fields surfaced."""
    from runner.scoring.elicitation import rates

    table = cli_table(
        Column("agent", no_wrap=True),
        "fields",
        "active",
        "passive",
        "of which\nopening",
        "never",
        title="elicitation: how the preference fields surfaced",
    )
    for row in bench.rows:
        counts = row.scored["elicitation"]
        shares = rates(counts)
        cells = [_share(shares[key]) for key in ("active", "passive", "opening", "never")]
        table.add_row(row.agent, str(counts["fields"]), *cells)
    console.print(table)
    console.print(
        "active: first stated in answer to the Agent's question about it; passive: volunteered or in "
        "the opening messages; never: not stated (shares of the fields)."
    )


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value * 100:.0f}%"
