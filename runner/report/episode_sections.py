"""The report's sections on episode measures: elicitation, tool faults, unsolvable tasks, intent shifts.

Elicitation is read from the run records themselves (`runner.scoring.elicitation`); the other three
from the scored lines (`runner.scoring.episode_measures`), and each is shown only when the inputs
have something for it (records with faults, variants of `tripwright tasks`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from runner.report.document import Block, Heading, Para, Table
from runner.report.inputs import Inputs, Record
from runner.saved.normalize import distribution
from runner.scoring.elicitation import elicitation_counts, field_statuses, merge_counts, rates

NONE = "-"
RATE_COLUMNS = ("fields", "active", "passive", "of which opening", "never")
LLM_NOTE = (
    "Some users are LLM simulators: a field counts as surfaced only when a message names one of its "
    "values in the words of the table, so for them `never` is an upper bound and active + passive a "
    "lower bound (who asked is read exactly)."
)


def _pct(value: float | None) -> str:
    return NONE if value is None else f"{value * 100:.1f}%"


def _num(value: float | None) -> str:
    return NONE if value is None else f"{value:.4g}"


def elicitation_summary(runs: Sequence[Record]) -> dict[str, Any]:
    """The merged elicitation counts of every record (failed trials have no fields)."""
    return merge_counts([elicitation_counts(field_statuses(record)) for record in runs])


def _rate_row(name: str, counts: Mapping[str, Any]) -> tuple[str, ...]:
    shares = rates(counts)
    return (
        name,
        str(counts["fields"]),
        *(_pct(shares[key]) for key in ("active", "passive", "opening", "never")),
    )


def elicitation_section(runs: Sequence[Record]) -> list[Block]:
    total = elicitation_summary(runs)
    if not total["fields"]:
        return []
    blocks: list[Block] = [
        Heading("Elicitation: active vs passive (UserBench)"),
        Para(
            "Per preference field of each traveller (non-empty in ① or ③): active = first stated in "
            "answer to the Agent's question about it; passive = volunteered or in the opening messages; "
            "never = not stated. Shares of the fields."
        ),
        Table(("group", *RATE_COLUMNS), (_rate_row("all", total),)),
        Heading("By field kind", 3),
        Table(("kind", *RATE_COLUMNS), tuple(_rate_row(k, c) for k, c in total["by_topic"].items())),
        Heading("By user", 3),
        Table(("user", *RATE_COLUMNS), tuple(_rate_row(u, c) for u, c in total["by_user"].items())),
    ]
    kinds = {str(u.get("kind")) for r in runs for u in (r.get("users") or {}).values() if isinstance(u, dict)}
    return [*blocks, Para(LLM_NOTE)] if "llm" in kinds else blocks


def faults_section(inputs: Inputs) -> list[Block]:
    lines = inputs.scored or []
    if not any(line.get("tool_faults") for line in lines):
        return []
    groups: dict[str, list[Record]] = {}
    for line in lines:
        faults = line.get("tool_faults")
        spec = str(faults.get("spec")) if isinstance(faults, dict) else "none"
        groups.setdefault(spec, []).append(line)
    rows = []
    for spec, group in groups.items():
        met = sum(int((line.get("tool_faults") or {}).get("met", 0)) for line in group)
        recovered = sum(int((line.get("tool_faults") or {}).get("recovered", 0)) for line in group)
        rows.append(
            (
                spec,
                str(len(group)),
                str(met),
                _pct(recovered / met if met else None),
                _pct(sum(1 for line in group if line.get("strict_valid") is True) / len(group)),
                _num(distribution([line.get("gu") for line in group])["mean"]),
                _num(distribution([line.get("gu_ratio") for line in group])["mean"]),
            )
        )
    return [
        Heading("Tool faults (UserBench)"),
        Para(
            "Trials by injected-fault setting (`none`: run without faults). GU, GU/GU*: means over "
            "the trials with a plan."
        ),
        Table(("faults", "trials", "faults met", "recovered", "acceptable", "GU", "GU/GU*"), tuple(rows)),
    ]


def unsolvable_section(inputs: Inputs) -> list[Block]:
    lines = [line for line in inputs.scored or [] if isinstance(line.get("unsolvable"), dict)]
    if not lines:
        return []
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for line in lines:
        item = line["unsolvable"]
        groups.setdefault((str(item.get("kind")), str(item.get("when"))), []).append(item)
    rows = []
    for (kind, when), items in groups.items():
        reached = [item for item in items if item.get("reached")]
        share = sum(1 for item in reached if item.get("correct")) / len(reached) if reached else None
        rows.append(
            (
                kind,
                when,
                str(len(items)),
                str(len(reached)),
                str(sum(1 for item in reached if item.get("planned"))),
                str(sum(1 for item in reached if item.get("refused"))),
                _pct(share),
            )
        )
    return [
        Heading("Unsolvable tasks (TravelBench, TRIP-Bench)"),
        Para(
            "Variants no strict-valid plan satisfies (`tripwright tasks infeasible`). Reached: the wish was "
            "in force (a transition's change happened before the episode ended). Correct: no plan, and an "
            "Agent message says it cannot be done and names the reason; share of the reached trials."
        ),
        Table(("kind", "when", "trials", "reached", "planned", "refused", "correctly refused"), tuple(rows)),
    ]


def shifts_section(inputs: Inputs) -> list[Block]:
    items = [
        line["intent_shift"] for line in inputs.scored or [] if isinstance(line.get("intent_shift"), dict)
    ]
    if not items:
        return []
    applied = [item for item in items if item.get("applied")]
    heard = sum(1 for item in applied if item.get("heard"))
    judged = [item for item in applied if item.get("followed") is not None]
    followed = sum(1 for item in judged if item.get("followed"))
    row = (
        str(len(items)),
        str(len(applied)),
        _pct(heard / len(applied) if applied else None),
        str(len(judged)),
        _pct(followed / len(judged) if judged else None),
    )
    return [
        Heading("Intent shifts (TRIP-Bench)"),
        Para(
            "A traveller changes one wish mid-dialogue (`tripwright tasks shifts`); scoring uses the final "
            "table. Heard: the agent's table holds the new value. Followed: the plan serves the new wish "
            "(the user's official GU, docs/runner.md)."
        ),
        Table(("trials", "shift happened", "heard", "plan after it", "plan followed"), (row,)),
    ]


def episode_sections(inputs: Inputs) -> list[Block]:
    """Every episode-measure section that has data, in order."""
    return [
        *elicitation_section(inputs.runs),
        *faults_section(inputs),
        *unsolvable_section(inputs),
        *shifts_section(inputs),
    ]
