"""Human-readable `normalize` output (rich): per-row figures, distributions, what is missing."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from runner.saved.normalize import FIGURES

STATS = ("count", "min", "p10", "median", "p90", "max", "mean")


def normalized(console: Console, document: dict[str, Any]) -> None:
    profile = f", profile {document['profile']}" if document["profile"] else ""
    console.print(f"[bold]GU against the oracle's bound GU*[/] ({document['source']}{profile}; GU totals)")
    table = Table("id", "task", "valid", "GU", "GU*", "GU/GU*", "regret", "vs plan", "witness", "status")
    for row in document["rows"]:
        table.add_row(
            escape(row["id"]),
            escape(row["task_id"]),
            _fig(row["valid"]),
            _fig(row["gu"]),
            _fig(row["gu_star"]),
            _fig(row["ratio"]),
            _fig(row["regret"]),
            _fig(row["regret_vs_plan"]),
            _fig(row["witness"]),
            str(row["status"]),
        )
    console.print(table)
    notes = {note for row in document["rows"] if (note := row["witness_note"])}
    for note in sorted(notes):
        console.print(f"witness: {escape(note)}", soft_wrap=True)
    stats = Table("figure", *STATS, title="distributions")
    for name in FIGURES:
        figures = document["distributions"][name]
        stats.add_row(name, *(_fig(figures[key]) for key in STATS))
    console.print(stats)
    missing = document["missing"]
    for label, items in (
        ("scored plans without an oracle line", missing["oracle"]),
        ("oracle tasks without a scored plan", missing["scored"]),
    ):
        if items:
            console.print(f"{label} ({len(items)}): {escape(', '.join(items))}", soft_wrap=True)
    for item in missing["no_bound"]:
        console.print(f"no bound for {escape(item['task_id'])}: {escape(item['reason'])}", soft_wrap=True)
    for item in missing["no_gu"]:
        console.print(f"no GU for {escape(item['id'])}: {escape(str(item['reason']))}", soft_wrap=True)


def _fig(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
