"""The solver's per-user scores agree with the official component rules on the overlaps the
official loops resolve by order (docs/official.md#scoring)."""

from __future__ import annotations

from solver.greedy_prefs import user_prefs

TABLE = {
    "global_constraints": {
        "transport": {"must": ["飞机"], "prefer": ["高铁"], "avoid": ["高铁", "火车"], "reject": ["飞机"]},
        "hotel_preference": {"prefer": ["舒适型"], "avoid": ["舒适型", "豪华型"]},
    },
    "city_specific_preferences": {
        "乙市": {
            "attractions": {
                "must_visit": ["古镇", "古镇"],
                "reject_visit": ["老街"],
                "category_pref": {"positive": ["博物馆"], "negative": ["博物馆", "公园"]},
            },
            "food": {"must_eat": [], "prefer_eat": ["海鲜"], "avoid_eat": ["海鲜"], "reject_eat": ["火锅"]},
        }
    },
}


def test_prefer_wins_over_avoid_for_meals_transport_and_hotels() -> None:
    prefs = user_prefs(TABLE)
    assert prefs.meal("乙市", "老川菜馆", "海鲜") == 1
    assert prefs.meal("乙市", "山城火锅", "海鲜") == -2
    assert prefs.transport("高铁") == 1
    assert prefs.transport("火车") == -1
    assert prefs.transport("飞机") == 0
    assert prefs.hotel("舒适型") == 1
    assert prefs.hotel("豪华型") == -1


def test_attraction_categories_add_both_ways_and_items_count_per_entry() -> None:
    prefs = user_prefs(TABLE)
    assert prefs.attraction("乙市", "城市博物馆", "博物馆") == (0, frozenset(), frozenset())
    assert prefs.attraction("乙市", "湖心公园", "公园") == (-1, frozenset(), frozenset())
    assert prefs.attraction("乙市", "古镇老街", "博物馆") == (0, frozenset({0, 1}), frozenset({0}))
