"""docs/checks.md and docs/violations.md are true: every documented example produces its code, every
code the strict modules can emit is documented (with an example) and listed."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.strict_helpers import edited, run
from tests.fixtures.strict_world import TASKS, task
from verifier.model.task import Task

ROOT = Path(__file__).resolve().parents[4]
CHECKS_MD = (ROOT / "docs" / "checks.md").read_text(encoding="utf-8")
VIOLATIONS_MD = (ROOT / "docs" / "violations.md").read_text(encoding="utf-8")
EXAMPLES: list[dict[str, Any]] = [
    json.loads(block) for block in re.findall(r"```json strict-example\n(.*?)\n```", CHECKS_MD, re.DOTALL)
]
SOURCES = [
    *sorted((ROOT / "verifier" / "strict").glob("*.py")),
    ROOT / "verifier" / "model" / "plan_parse.py",
]
EMITTED = {
    code for path in SOURCES for code in re.findall(r"\"((?:strict|input)\.[a-z_]+)\"", path.read_text())
}


def example_task(example: dict[str, Any]) -> Task:
    base = TASKS[example["fixture"]]
    override = example.get("task", {})
    return task(
        "doc",
        override.get("cities", base.metadata.cities),
        override.get("days", base.metadata.date),
        base.time,
        users=base.user_names,
        children=tuple(base.child_names),
    )


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["expect"] for e in EXAMPLES])
def test_documented_example_produces_its_code(example: dict[str, Any]) -> None:
    plan = edited(example["fixture"], *example["edits"])
    assert example["expect"] in [v.code for v in run(plan, example_task(example))]


def test_every_strict_code_has_an_example() -> None:
    strict_codes = {code for code in EMITTED if code.startswith("strict.")}
    assert len(strict_codes) == 53
    assert strict_codes == {e["expect"] for e in EXAMPLES}


def test_every_emitted_code_is_listed_in_violations_md() -> None:
    listed = set(re.findall(r"`((?:strict|input)\.[a-z_]+)`", VIOLATIONS_MD))
    assert listed >= EMITTED
    assert "input.official_crash" in listed


def test_official_issue_types_are_listed() -> None:
    official = [
        "missing_intercity_transport",
        "missing_hotel",
        "hotel_not_last_activity",
        "invalid_time_format",
        "invalid_time_range",
        "time_overlap",
        "outside_opening_hours",
        "missing_intracity_transport",
        "intracity_transport_origin_mismatch",
        "timeline_order_violation",
        "missing_avg_cost",
        "invalid_participants",
    ]
    for code in official:
        assert f"| `{code}` |" in VIOLATIONS_MD
