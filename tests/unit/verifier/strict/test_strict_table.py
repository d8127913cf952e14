"""`strict_table_violations`: the agent's preference table has the documented types."""

from __future__ import annotations

from typing import Any

from verifier.strict.profile import strict_table_violations


def summary(table: Any) -> list[tuple[str, str]]:
    return [(v.code, v.loc) for v in strict_table_violations(table)]


GOOD = {
    "User1": {
        "role": "男友",
        "preference": {
            "global_constraints": {
                "avg_budget": 6800,
                "transport": {"must": ["飞机"], "prefer": [], "avoid": ["火车"], "reject": []},
                "intensity": {"max_poi_per_day": 4, "max_active_hours": 9.5},
                "hotel_preference": {"prefer": ["舒适型"], "avoid": None},
            },
            "city_specific_preferences": {
                "海口市": {
                    "attractions": {"must_visit": ["898艺术村"], "category_pref": {"positive": ["博物馆"]}},
                    "food": {"must_eat": ["海南菜"]},
                }
            },
        },
    },
    "User2": {"global_constraints": {"avg_budget": 5000.5}, "notes": "flat format, unknown keys ignored"},
}


def test_well_typed_table_passes() -> None:
    assert strict_table_violations(GOOD) == []
    assert strict_table_violations({}) == []


def test_wrong_types_are_reported_with_paths() -> None:
    table = {
        "User1": {
            "preference": {
                "global_constraints": {
                    "avg_budget": "6800元",
                    "transport": {"must": "飞机", "prefer": ["高铁", 3]},
                    "intensity": [4, 9],
                    "hotel_preference": {"prefer": ["舒适型"]},
                },
                "city_specific_preferences": {
                    "海口市": "博物馆",
                    "三亚市": {"food": {"must_eat": "海鲜,火锅"}},
                },
            }
        },
        "User2": "likes museums",
        "User3": {
            "global_constraints": {"intensity": {"max_poi_per_day": True}},
            "city_specific_preferences": [],
        },
    }
    prefix = "$inferred.User1.preference"
    assert summary(table) == [
        ("input.number_type", f"{prefix}.global_constraints.avg_budget"),
        ("input.list_type", f"{prefix}.global_constraints.transport.must"),
        ("input.string_type", f"{prefix}.global_constraints.transport.prefer[1]"),
        ("input.not_object", f"{prefix}.global_constraints.intensity"),
        ("input.not_object", f"{prefix}.city_specific_preferences.海口市"),
        ("input.list_type", f"{prefix}.city_specific_preferences.三亚市.food.must_eat"),
        ("input.not_object", "$inferred.User2"),
        ("input.number_type", "$inferred.User3.global_constraints.intensity.max_poi_per_day"),
        ("input.not_object", "$inferred.User3.city_specific_preferences"),
    ]
    assert all(v.check == "input" for v in strict_table_violations(table))
    first = strict_table_violations(table)[0]
    assert (
        first.message == "User1.preference.global_constraints.avg_budget must be a number, got str '6800元'"
    )


def test_non_object_table_and_odd_keys() -> None:
    assert summary(["User1"]) == [("input.not_object", "$inferred")]
    assert summary({"User 1": 5}) == [("input.not_object", "$inferred['User 1']")]
