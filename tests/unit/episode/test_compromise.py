"""Path normalisation, dotted set with the prefix retries, the tracker's cap and log
(docs/runner.md#the-protocol-as-implemented, Compromises)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from runner.episode.compromise import CompromiseTracker, candidate_paths, dotted_set, normalise_path
from runner.episode.settings import MAX_COMPROMISES_PER_USER

PREFS: dict[str, Any] = {
    "User1": {
        "role": "父亲",
        "preference": {
            "global_constraints": {"avg_budget": 3200, "transport": {"must": ["飞机"], "avoid": []}},
            "city_specific_preferences": {"西安市": {"attractions": {"must_visit": ["兵马俑"]}}},
        },
        "compromisable": True,
    },
    "User2": {"global_constraints": {"avg_budget": 1000}},
}


@pytest.mark.parametrize(
    ("path", "segments"),
    [
        ("global_constraints.avg_budget", ["global_constraints", "avg_budget"]),
        ("global_constraints_info.avg_budget_cny", ["global_constraints", "avg_budget"]),
        ("西安市.attractions.must_visit_list", ["西安市", "attractions", "must_visit"]),
        ("global_constraints.global_constraints.avg_budget", ["global_constraints", "avg_budget"]),
        ("must_visit_.x", ["must_visit_", "x"]),
        ("transport.must.must", ["transport", "must"]),
        ("a.b.a", ["a", "b", "a"]),
        ("max_poi_per_day_limit", ["max_poi_per_day"]),
    ],
)
def test_normalise_path(path: str, segments: list[str]) -> None:
    assert normalise_path(path) == segments


def test_dotted_set_needs_every_intermediate_key_and_creates_the_leaf() -> None:
    root: dict[str, Any] = {"a": {"b": 1}, "n": 5}
    assert dotted_set(root, ["a", "b"], 2) and root["a"] == {"b": 2}
    assert dotted_set(root, ["a", "typo"], 3) and root["a"] == {"b": 2, "typo": 3}
    assert not dotted_set(root, ["x", "b"], 4)
    assert not dotted_set(root, ["n", "b"], 4)
    assert dotted_set(root, ["top"], 0) and root["top"] == 0


def test_candidate_paths_add_each_prefix_only_when_missing() -> None:
    assert candidate_paths(["transport", "must"]) == [
        ["transport", "must"],
        ["global_constraints", "transport", "must"],
        ["city_specific_preferences", "transport", "must"],
    ]
    assert candidate_paths(["global_constraints", "x"]) == [
        ["global_constraints", "x"],
        ["city_specific_preferences", "global_constraints", "x"],
    ]


def test_apply_resolves_through_the_prefixes_and_logs() -> None:
    tracker = CompromiseTracker.start(PREFS)
    assert tracker.apply("User1", "transport.must", "高铁", 4)
    assert tracker.apply("User1", "西安市.attractions.must_visit_list", [], 7)
    preference = tracker.effective["User1"]["preference"]
    assert preference["global_constraints"]["transport"]["must"] == "高铁"
    assert preference["city_specific_preferences"]["西安市"]["attractions"]["must_visit"] == []
    assert tracker.log == [
        {
            "round": 4,
            "user": "User1",
            "field_path": "global_constraints.transport.must",
            "new_value": "高铁",
            "applied": True,
        },
        {
            "round": 7,
            "user": "User1",
            "field_path": "city_specific_preferences.西安市.attractions.must_visit",
            "new_value": [],
            "applied": True,
        },
    ]
    assert PREFS["User1"]["preference"]["global_constraints"]["transport"]["must"] == ["飞机"]


def test_unresolvable_path_is_logged_unapplied_and_not_counted() -> None:
    tracker = CompromiseTracker.start(PREFS)
    assert not tracker.apply("User1", "hotel.prefer", ["经济型"], 2)
    assert tracker.log == [
        {"round": 2, "user": "User1", "field_path": "hotel.prefer", "new_value": ["经济型"], "applied": False}
    ]
    assert tracker.left("User1") == MAX_COMPROMISES_PER_USER


def test_cap_refuses_without_a_log_entry() -> None:
    tracker = CompromiseTracker.start(PREFS)
    assert tracker.apply("User1", "avg_budget", 3000, 1)
    assert tracker.apply("User1", "global_constraints.avg_budget", 2800, 2)
    assert tracker.left("User1") == 0
    before = copy.deepcopy(tracker.effective)
    assert not tracker.apply("User1", "global_constraints.avg_budget", 2000, 3)
    assert len(tracker.log) == 2 and tracker.effective == before
    # a one-segment path lands at the top of the preference (the official quirk)
    assert tracker.effective["User1"]["preference"]["avg_budget"] == 3000


def test_unknown_user_is_refused_and_flat_slots_are_their_own_root() -> None:
    tracker = CompromiseTracker.start(PREFS)
    assert not tracker.apply("User9", "avg_budget", 1, 1)
    assert tracker.log == []
    assert tracker.apply("User2", "global_constraints.avg_budget", 1200, 1)
    assert tracker.effective["User2"] == {"global_constraints": {"avg_budget": 1200}}


def test_applied_values_are_copies() -> None:
    tracker = CompromiseTracker.start(PREFS)
    value = ["故宫"]
    tracker.apply("User1", "西安市.attractions.must_visit", value, 1)
    value.append("x")
    assert tracker.effective["User1"]["preference"]["city_specific_preferences"]["西安市"]["attractions"][
        "must_visit"
    ] == ["故宫"]
    assert tracker.log[0]["new_value"] == ["故宫"]
