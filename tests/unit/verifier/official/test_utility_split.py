"""Split penalty (§3.9): teams of transitively overlapping sub-group activities in one block."""

from __future__ import annotations

from typing import Any

from tests.fixtures.scoring_fixtures import act, block, day, plan, view
from verifier.official.split import split_penalty

SANYA = "三亚市"


def _split(*activities: dict[str, Any]) -> dict[str, Any]:
    return split_penalty(view(plan(day(1, block(SANYA, *activities)))))


def test_two_disjoint_teams_cost_one() -> None:
    assert _split(
        act("attraction", "天涯海角", "14:00", "17:00", ["User1", "User2"]),
        act("attraction", "南山寺", "14:00", "17:00", ["User3"]),
    ) == {
        "total_penalty": 1,
        "split_events": [
            {
                "day": 1,
                "num_teams": 2,
                "penalty": 1,
                "activities": [
                    {"location": "天涯海角", "time": "14:00-17:00", "participants": ["User1", "User2"]},
                    {"location": "南山寺", "time": "14:00-17:00", "participants": ["User3"]},
                ],
            }
        ],
    }


def test_intersecting_teams_and_whole_group_activities_cost_nothing() -> None:
    intersecting = _split(
        act("attraction", "天涯海角", "14:00", "17:00", ["User1", "User2"]),
        act("attraction", "南山寺", "14:00", "17:00", ["User2", "User3"]),
    )
    assert intersecting == {"total_penalty": 0, "split_events": []}
    one_side_everyone = _split(
        act("attraction", "天涯海角", "14:00", "17:00", ["User1", "User2"]),
        act("attraction", "南山寺", "14:00", "17:00"),
        act("attraction", "椰梦长廊", "14:00", "17:00", ["All"]),
    )
    assert one_side_everyone == {"total_penalty": 0, "split_events": []}


def test_groups_are_transitive_and_list_members_in_discovery_order() -> None:
    result = _split(
        act("attraction", "A", "09:00", "09:30", ["User1"]),
        act("attraction", "B", "10:00", "11:00", ["User2"]),
        act("rest", "C", "09:15", "10:15", ["User3"]),
    )
    assert result["total_penalty"] == 2
    (event,) = result["split_events"]
    assert (event["num_teams"], [a["location"] for a in event["activities"]]) == (3, ["A", "C", "B"])


def test_touching_unparseable_and_hotel_activities_never_split() -> None:
    assert _split(
        act("attraction", "A", "09:00", "10:00", ["User1"]),
        act("attraction", "B", "10:00", "11:00", ["User2"]),
        act("attraction", "C", "9点", "11:00", ["User3"]),
        act("hotel", "D", "09:00", "11:00", ["User3"]),
    ) == {"total_penalty": 0, "split_events": []}


def test_a_team_string_is_a_set_of_characters() -> None:
    result = _split(
        act("attraction", "A", "09:00", "10:00", "User3"),
        act("attraction", "B", "09:00", "10:00", ["User1", "User2"]),
    )
    assert result["total_penalty"] == 1
    assert result["split_events"][0]["activities"][0]["participants"] == "User3"
