"""Report sections over trials: reliability (pass^k, pass@k, avg^k), strict vs loose validity,
and the tool-use penalty. Figures come from `runner.scoring.reliability`, `.strictness` and
`.tool_use`; groups are the report's (overall, then per difficulty)."""

from __future__ import annotations

from typing import Any

from runner.report.document import Block, Heading, Para, Table
from runner.report.figures import check_label
from runner.report.groups import by_group
from runner.report.inputs import Inputs, Record, trial_key
from runner.scoring.reliability import SuccessRule, reliability
from runner.scoring.strictness import strict_and_loose
from runner.scoring.tool_use import tool_use_summary

NONE = "-"
NO_SCORED = "Not computed: pass --scored FILE (the output of tripwright score)."


def _num(value: Any, digits: int = 4) -> str:
    return NONE if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return NONE if value is None else f"{value * 100:.1f}%"


def _groups(inputs: Inputs, rows: list[Record]) -> dict[str, list[Record]]:
    return by_group(rows, lambda row: inputs.difficulty(str(row["task_id"]), row))


def reliability_section(inputs: Inputs, rule: SuccessRule) -> list[Block]:
    """pass^k / pass@k / avg^k for k = 1 … K, overall and per difficulty."""
    blocks: list[Block] = [Heading("Reliability over trials (pass^k, pass@k, avg^k)")]
    if not inputs.scored:
        return [*blocks, Para(NO_SCORED)]
    blocks.append(
        Para(
            f"Success: {rule.describe()}. With n trials of a task and c successes: pass^k = C(c,k)/C(n,k), "
            "pass@k = 1 − C(n−c,k)/C(n,k), avg^k = c/n, averaged over the tasks with at least k trials."
        )
    )
    for name, rows in _groups(inputs, inputs.scored).items():
        figures = reliability(rows, rule)
        table = tuple(
            (str(r["k"]), str(r["tasks"]), _num(r["pass_hat_k"]), _num(r["pass_at_k"]), _num(r["avg_k"]))
            for r in figures["rows"]
        )
        blocks += [
            Heading(f"{name.capitalize()} ({figures['tasks']} task(s))", 3),
            Table(("k", "tasks", "pass^k", "pass@k", "avg^k"), table),
        ]
    return blocks


def strictness_section(inputs: Inputs) -> list[Block]:
    """Loose (official-valid) and strict (strict-valid) rates and the checks that separate them."""
    blocks: list[Block] = [Heading("Strict and loose validity")]
    if not inputs.scored:
        return [*blocks, Para(NO_SCORED)]
    groups = {name: strict_and_loose(rows) for name, rows in _groups(inputs, inputs.scored).items()}
    columns = ("", *(name.capitalize() for name in groups))
    rows: list[tuple[str, ...]] = [
        ("trials", *(str(g["trials"]) for g in groups.values())),
        ("loose rate (official-valid)", *(_pct(g["loose_rate"]) for g in groups.values())),
        ("strict rate (strict-valid)", *(_pct(g["strict_rate"]) for g in groups.values())),
        ("valid only loosely", *(str(g["loose_only"]) for g in groups.values())),
        ("valid only strictly", *(str(g["strict_only"]) for g in groups.values())),
    ]
    checks = groups["overall"]["separating_checks"]
    blocks.append(Table(columns, tuple(rows)))
    if checks:
        blocks += [
            Para("Strict checks failed by the plans only the official profile accepts (once per trial):"),
            Table(("check", "trials"), tuple((check_label(c), str(n)) for c, n in checks.items())),
        ]
    return blocks


def tool_use_section(inputs: Inputs) -> list[Block]:
    """Schema-error rate of the tool calls and the penalised score beside the raw one."""
    scored = {trial_key(row): row for row in inputs.scored or []}
    pairs = [(record, scored.get(trial_key(record))) for record in inputs.runs]
    groups = by_group(pairs, lambda pair: inputs.difficulty(str(pair[0]["task_id"]), pair[1]))
    figures = {name: tool_use_summary(members) for name, members in groups.items()}
    columns = ("", *(name.capitalize() for name in figures))
    labels = (
        ("trials", "trials", str),
        ("tool calls", "tool_calls", str),
        ("schema errors", "schema_errors", str),
        ("mean schema-error rate (trials with calls)", "mean_schema_error_rate", _pct),
        ("trials with a score", "scored", str),
        ("raw score: mean GU/GU* (strict-valid, else 0)", "raw_score", _num),
        ("penalised score: mean raw × (1 − rate)", "penalised_score", _num),
    )
    rows = tuple((label, *(render(g[key]) for g in figures.values())) for label, key, render in labels)
    blocks: list[Block] = [Heading("Tool-use penalty"), Table(columns, rows)]
    if not inputs.scored:
        blocks.append(Para("Scores need --scored FILE (the output of tripwright score)."))
    return blocks


def trial_sections(inputs: Inputs, rule: SuccessRule) -> list[Block]:
    """The three sections, in report order."""
    return [*reliability_section(inputs, rule), *strictness_section(inputs), *tool_use_section(inputs)]
