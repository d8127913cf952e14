"""Official preference completeness (§5): recall, details, precision quirks and crashes."""

from __future__ import annotations

from typing import Any

import pytest

from verifier.official.completeness import evaluate_preference_completeness


def _ref(**global_constraints: Any) -> dict[str, Any]:
    return {"User1": {"role": "成员", "preference": {"global_constraints": global_constraints}}}


def test_list_and_missing_scalar_give_exact_details_and_totals() -> None:
    effective = _ref(avg_budget=3000, transport={"must": ["A", "B"], "prefer": []})
    agent = {"User1": {"global_constraints": {"transport": {"must": ["A", "C"], "prefer": ["X"]}}}}
    third = 1 / 3
    assert evaluate_preference_completeness(agent, effective) == {
        "per_user": {
            "User1": {
                "collected": 1,
                "possible": 3,
                "ratio": third,
                "precision": third,
                "f1": 0.3333333333333333,
                "details": [
                    {
                        "field_path": "global_constraints.avg_budget",
                        "collected": 0,
                        "possible": 1,
                        "agent_value": 0,
                        "ref_value": 3000,
                    },
                    {
                        "field_path": "global_constraints.transport.must",
                        "collected": 1,
                        "possible": 2,
                        "agent_total": 2,
                        "precision": 0.5,
                        "spurious": ["C"],
                        "matched": ["A"],
                        "missed": ["B"],
                    },
                ],
            }
        },
        "total_collected": 1,
        "total_possible": 3,
        "completeness_ratio": third,
        "precision": third,
        "f1": 0.3333333333333333,
    }


def test_a_string_agent_value_matches_by_substring_and_counts_characters() -> None:
    effective = _ref(transport={"must": ["A", "B"]})
    agent = {"User1": {"global_constraints": {"transport": {"must": "A,B"}}}}
    (detail,) = evaluate_preference_completeness(agent, effective)["per_user"]["User1"]["details"]
    assert (detail["collected"], detail["agent_total"], detail["spurious"], detail["precision"]) == (
        2,
        3,
        [","],
        2 / 3,
    )


def test_city_keys_must_match_exactly() -> None:
    effective = {
        "User1": {"preference": {"city_specific_preferences": {"西安市": {"food": {"must_eat": ["面"]}}}}}
    }
    agent = {"User1": {"city_specific_preferences": {"西安": {"food": {"must_eat": ["面"]}}}}}
    result = evaluate_preference_completeness(agent, effective)
    assert (result["total_collected"], result["total_possible"], result["completeness_ratio"]) == (0, 1, 0.0)
    assert result["per_user"]["User1"]["details"][0]["field_path"] == "city[西安市].food.must_eat"


def test_precision_truncates_like_int_of_a_float_product() -> None:
    ref_items = [f"r{i}" for i in range(15)]
    effective = _ref(transport={"must": ref_items})
    agent = {
        "User1": {"global_constraints": {"transport": {"must": ref_items + [f"x{i}" for i in range(7)]}}}
    }
    result = evaluate_preference_completeness(agent, effective)
    assert result["per_user"]["User1"]["details"][0]["precision"] == 15 / 22
    assert result["precision"] == 14 / 22
    assert result["completeness_ratio"] == 1.0


def test_empty_reference_and_null_or_odd_agent_sections() -> None:
    effective = {
        "User1": {
            "preference": {"city_specific_preferences": {"西安市": {"attractions": {"must_visit": ["碑林"]}}}}
        },
        "User2": {"role": "孩子"},
    }
    agent = {
        "User1": {
            "global_constraints": None,
            "city_specific_preferences": {"西安市": {"attractions": "碑林"}},
        }
    }
    result = evaluate_preference_completeness(agent, effective)
    assert result["per_user"]["User2"] == {
        "collected": 0,
        "possible": 0,
        "ratio": 1.0,
        "precision": 1.0,
        "f1": 1.0,
        "details": [],
    }
    assert (result["total_collected"], result["total_possible"]) == (0, 1)


@pytest.mark.parametrize(
    ("agent_global", "message"),
    [
        ({"transport": ["高铁"]}, "'list' object has no attribute 'get'"),
        ("预算3000", "'str' object has no attribute 'get'"),
    ],
)
def test_non_object_agent_sections_raise_attribute_error(agent_global: Any, message: str) -> None:
    effective = _ref(transport={"must": ["高铁"]})
    with pytest.raises(AttributeError, match=message):
        evaluate_preference_completeness({"User1": {"global_constraints": agent_global}}, effective)
