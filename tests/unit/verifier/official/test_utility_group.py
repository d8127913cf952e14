"""Official group utility assembly (§3.1, §3.10): who is scored, totals, average, invariants."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fixtures.scoring_fixtures import (
    USERS,
    act,
    block,
    city,
    day,
    leg,
    plan,
    poi_db,
    profile,
    table,
    view,
)
from verifier.official.fairness import evaluate_group_fairness
from verifier.official.plan_view import build_view
from verifier.official.utility import evaluate_group_utility

SANYA = "三亚市"
COMPONENTS = ["attractions", "food", "transport", "hotel", "intensity", "budget"]


def _split_plan() -> dict[str, Any]:
    return plan(
        day(
            1,
            block(
                SANYA,
                act("attraction", "天涯海角", "14:00", "17:00", ["User1", "User2"]),
                act("attraction", "南山寺", "14:00", "17:00", ["User3"]),
            ),
        )
    )


def _mixed_table() -> dict[str, Any]:
    effective = table(User1=profile(cities={SANYA: city(must_visit=["天涯海角"])}))
    effective["User2"] = profile(cities={SANYA: city(must_visit=["南山寺"])})
    effective["User3"] = {"role": "孩子"}
    return effective


def test_users_without_a_profile_are_skipped_and_the_split_is_subtracted() -> None:
    result = evaluate_group_utility(view(_split_plan()), _mixed_table(), poi_db())
    assert list(result["per_user"]) == ["User1", "User2"]
    assert result["per_user"]["User1"] == {
        "total_score": 2,
        "details": [
            {"field": "must_visit", "item": "天涯海角", "city": SANYA, "satisfied": True, "score": 2}
        ],
        "breakdown": {"attractions": 2, "food": 0, "transport": 0, "hotel": 0, "intensity": 0, "budget": 0},
    }
    assert result["per_user"]["User2"]["total_score"] == 0
    assert {k: v for k, v in result.items() if k not in ("per_user", "split_penalty")} == {
        "total_score_before_penalty": 2,
        "total_score": 1,
        "num_users": 2,
        "per_user_average_score": 0.5,
    }
    assert result["split_penalty"]["total_penalty"] == 1


def test_fairness_scores_every_user_including_unprofiled_ones() -> None:
    fairness = evaluate_group_fairness(view(_split_plan()), _mixed_table(), poi_db())
    assert fairness == {
        "per_user_scores": {"User1": 2, "User2": 0, "User3": 0},
        "max_score": 2,
        "min_score": 0,
        "fairness_score": 0.0,
    }


def test_nobody_scored_counts_as_one_user() -> None:
    result = evaluate_group_utility(view(_split_plan()), {}, poi_db())
    assert (
        result["per_user"],
        result["num_users"],
        result["total_score"],
        result["per_user_average_score"],
    ) == (
        {},
        1,
        -1,
        -1.0,
    )


def test_structural_errors_raise_the_official_exception() -> None:
    broken = build_view({"days": ["第一天"]}, USERS)
    with pytest.raises(AttributeError, match="'str' object has no attribute 'get'"):
        evaluate_group_utility(broken, {}, poi_db())
    with pytest.raises(AttributeError, match="'str' object has no attribute 'get'"):
        evaluate_group_fairness(broken, {}, poi_db())


def test_a_null_preference_list_raises_like_the_official_code() -> None:
    effective = table(User1=profile(transport={"must": None}))
    with pytest.raises(TypeError, match="argument of type 'NoneType' is not iterable"):
        evaluate_group_utility(view(plan(day(1, leg(SANYA, "高铁")))), effective, poi_db())


PLACES = [
    "天涯海角",
    "南山寺",
    "三亚博物馆",
    "椰梦长廊",
    "老王火锅",
    "XX海鲜酒楼",
    "东北饺子馆",
    "海景度假酒店",
    "如家快捷",
]
WORDS = ["天涯", "南山寺", "公园", "寺庙", "博物馆", "火锅", "东北菜", "粤菜", "海鲜", "度假酒店", "快捷酒店"]
HOURS = ["09:00", "10:00", "10:30", "12:00", "14:00", "17:00", "20:00", "08:00", "9点"]
TEAMS = [None, ["All"], ["User1"], ["User2", "User3"], ["User1", "User2"], "User1", ["Guest"]]

activities = st.builds(
    act,
    st.sampled_from(["attraction", "food", "hotel", "rest", "intracity_transport"]),
    st.sampled_from(PLACES),
    st.sampled_from(HOURS),
    st.sampled_from(HOURS),
    st.sampled_from(TEAMS),
    avg_cost=st.sampled_from([0, 30, 120.5, None]),
)
segments = st.one_of(
    st.builds(block, st.sampled_from([SANYA, "三亚", ""]), activities, activities, activities),
    st.builds(
        leg,
        st.sampled_from([SANYA, "北京市"]),
        st.sampled_from(["高铁", "飞机", ""]),
        st.sampled_from([0, 400]),
    ),
)
plans = st.lists(st.lists(segments, min_size=1, max_size=3), min_size=1, max_size=3).map(
    lambda days: plan(*(day(n + 1, *segs) for n, segs in enumerate(days)))
)
word_lists = st.lists(st.sampled_from(WORDS), max_size=2)
profiles = st.builds(
    lambda must, positive, negative, eat, avoid, mode, hotel, budget, cap: profile(
        budget=budget,
        transport={"must": mode, "avoid": ["飞机"]},
        intensity={"max_poi_per_day": cap},
        hotel={"prefer": hotel},
        cities={
            SANYA: city(must_visit=must, positive=positive, negative=negative, must_eat=eat, avoid_eat=avoid)
        },
    ),
    word_lists,
    word_lists,
    word_lists,
    word_lists,
    word_lists,
    st.lists(st.sampled_from(["高铁", "飞机"]), max_size=1),
    word_lists,
    st.sampled_from([0, 300, 1000]),
    st.sampled_from([0, 1, 2]),
)
tables = st.fixed_dictionaries({user: profiles for user in USERS}).map(lambda by_user: table(**by_user))


@settings(max_examples=150, deadline=None)
@given(plans, tables)
def test_totals_add_up_and_fairness_agrees(raw_plan: dict[str, Any], effective: dict[str, Any]) -> None:
    result = evaluate_group_utility(view(raw_plan), effective, poi_db())
    for user_result in result["per_user"].values():
        assert list(user_result["breakdown"]) == COMPONENTS
        assert user_result["total_score"] == sum(d["score"] for d in user_result["details"])
        assert user_result["total_score"] == sum(user_result["breakdown"].values())
    before = sum(u["total_score"] for u in result["per_user"].values())
    assert result["total_score_before_penalty"] == before
    assert result["total_score"] == before - result["split_penalty"]["total_penalty"]
    assert result["per_user_average_score"] == round(result["total_score"] / result["num_users"], 2)
    fairness = evaluate_group_fairness(view(raw_plan), effective, poi_db())
    assert fairness["per_user_scores"] == {u: r["total_score"] for u, r in result["per_user"].items()}
    assert 0.0 <= fairness["fairness_score"] <= 100.0


@settings(max_examples=100, deadline=None)
@given(plans, tables, st.permutations(USERS))
def test_the_order_of_the_effective_table_does_not_matter(
    raw_plan: dict[str, Any], effective: dict[str, Any], order: list[str]
) -> None:
    reordered = {user: effective[user] for user in order}
    assert evaluate_group_utility(view(raw_plan), reordered, poi_db()) == evaluate_group_utility(
        view(raw_plan), effective, poi_db()
    )
