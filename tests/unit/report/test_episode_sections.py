"""The report's episode-measure sections: exact rows from hand-made scored lines and records."""

from __future__ import annotations

from typing import Any

from runner.episode.conversation import message
from runner.report.document import Heading, Para, Table
from runner.report.episode_sections import LLM_NOTE, episode_sections
from runner.report.inputs import Inputs


def _line(**fields: Any) -> dict[str, Any]:
    base = {"task_id": "t", "trial": 0, "gu": None, "gu_ratio": None, "strict_valid": None}
    return base | {"tool_faults": None, "unsolvable": None, "intent_shift": None} | fields


def _unsolvable(kind: str, when: str, **flags: bool) -> dict[str, Any]:
    item = {"kind": kind, "when": when, "reached": True, "planned": False, "refused": False}
    return item | {"reason_named": False, "correct": False} | flags


def _tables(inputs: Inputs) -> dict[str, Table]:
    blocks = episode_sections(inputs)
    found, heading = {}, ""
    for block in blocks:
        if isinstance(block, Heading):
            heading = block.text
        elif isinstance(block, Table):
            found[heading] = block
    return found


PREF = {
    "A": {
        "preference": {
            "global_constraints": {"avg_budget": 3000},
            "city_specific_preferences": {"珠海市": {"food": {"must_eat": ["海鲜"]}}},
        }
    }
}
RECORD = {
    "task_id": "t",
    "original_preferences": PREF,
    "effective_preferences": PREF,
    "users": {"A": {"kind": "rules"}},
    "conversation_history": [
        message("A", "想吃海鲜。"),
        message("Agent", "@A 你的人均预算大概多少？", has_tool_calls=False),
        message("A", "我这边人均不能超过3000元。", has_tool_calls=False),
    ],
}


def test_sections_with_exact_rows() -> None:
    scored = [
        _line(
            tool_faults={"spec": "every:2", "met": 2, "recovered": 1},
            gu=10.0,
            gu_ratio=0.5,
            strict_valid=True,
        ),
        _line(tool_faults={"spec": "every:2", "met": 0, "recovered": 0}),
        _line(gu=20.0, gu_ratio=1.0, strict_valid=True),
        _line(unsolvable=_unsolvable("budget", "start", refused=True, reason_named=True, correct=True)),
        _line(unsolvable=_unsolvable("budget", "start", planned=True)),
        _line(unsolvable=_unsolvable("budget", "transition", reached=False)),
        _line(intent_shift={"applied": True, "heard": True, "planned": True, "followed": True}),
        _line(intent_shift={"applied": True, "heard": False, "planned": True, "followed": False}),
        _line(intent_shift={"applied": False, "heard": None, "planned": True, "followed": None}),
    ]
    tables = _tables(Inputs(runs=[RECORD], scored=scored))
    assert tables["Elicitation: active vs passive (UserBench)"].rows == (
        ("all", "2", "50.0%", "50.0%", "50.0%", "0.0%"),
    )
    assert tables["By field kind"].rows == (
        ("budget", "1", "100.0%", "0.0%", "0.0%", "0.0%"),
        ("food", "1", "0.0%", "100.0%", "100.0%", "0.0%"),
    )
    assert tables["Tool faults (UserBench)"].rows == (
        ("every:2", "2", "2", "50.0%", "50.0%", "10", "0.5"),
        ("none", "7", "0", "-", "14.3%", "20", "1"),
    )
    assert tables["Unsolvable tasks (TravelBench, TRIP-Bench)"].rows == (
        ("budget", "start", "2", "2", "1", "1", "50.0%"),
        ("budget", "transition", "1", "0", "0", "0", "-"),
    )
    assert tables["Intent shifts (TRIP-Bench)"].rows == (("3", "2", "50.0%", "2", "50.0%"),)


def test_nothing_to_show_gives_no_section() -> None:
    assert episode_sections(Inputs(runs=[{"task_id": "t", "success": False}], scored=[_line()])) == []


def test_llm_users_get_the_reliability_note() -> None:
    rules = episode_sections(Inputs(runs=[RECORD]))
    llm = episode_sections(Inputs(runs=[RECORD | {"users": {"A": {"kind": "llm"}}}]))
    assert Para(LLM_NOTE) in llm and Para(LLM_NOTE) not in rules
