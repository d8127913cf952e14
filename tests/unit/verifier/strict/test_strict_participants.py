"""Check 9: participant lists, children with an adult, everyone accounted for during splits."""

from __future__ import annotations

from tests.fixtures.strict_helpers import edited, found, put, run

B1 = "$.days[0].city_segments[1].activities"
B2 = "$.days[1].city_segments[0].activities"


def test_participant_list_rules() -> None:
    plan = edited(
        "plan_b",
        put(f"{B2}[0].participants", ["User1", "User1"]),
        put(f"{B2}[1].participants", ["User3"]),
        put(f"{B2}[6].participants", ["All", "User1"]),
        put(f"{B1}[1].participants", ["User2"]),
    )
    assert found(plan, "plan_b") == [
        ("strict.transfer_missing", 6, f"{B2}[3]"),
        ("strict.participants_not_whole_group", 9, f"{B1}[1].participants"),
        ("strict.participants_duplicate", 9, f"{B2}[0].participants"),
        ("strict.child_unaccompanied", 9, f"{B2}[1].participants"),
        ("strict.participants_all_mixed", 9, f"{B2}[6].participants"),
        ("strict.whereabouts_unknown", 9, f"{B2}[0]"),
        ("strict.whereabouts_unknown", 9, f"{B2}[1]"),
    ]


def test_unknown_and_empty() -> None:
    plan = edited("plan_b", put(f"{B2}[6].participants", []), put(f"{B2}[4].participants", ["User1", "Bob"]))
    assert found(plan, "plan_b") == [
        ("strict.participant_unknown", 9, f"{B2}[4].participants"),
        ("strict.participants_empty", 9, f"{B2}[6].participants"),
    ]
    assert run(plan, "plan_b")[0].ctx == {"name": "Bob"}


def test_child_is_a_traveller_included_by_all() -> None:
    plan = edited("plan_b", put(f"{B2}[1].participants", ["User2"]), put(f"{B2}[3].participants", ["User2"]))
    violations = run(plan, "plan_b")
    assert [(v.code, v.loc) for v in violations] == [
        ("strict.transfer_origin_mismatch", f"{B2}[5].from"),
        ("strict.whereabouts_unknown", f"{B2}[0]"),
        ("strict.whereabouts_unknown", f"{B2}[1]"),
        ("strict.whereabouts_unknown", f"{B2}[2]"),
        ("strict.whereabouts_unknown", f"{B2}[3]"),
    ]
    assert violations[1].ctx == {"users": ["User3"], "gaps": {"User3": ["08:40-09:00"]}}


def test_idle_travellers_during_a_split_are_unaccounted() -> None:
    plan = edited("plan_b", put(f"{B2}[3].start_time", "09:30"))
    assert found(plan, "plan_b") == [("strict.whereabouts_unknown", 9, f"{B2}[2]")]
    assert run(plan, "plan_b")[0].ctx == {
        "users": ["User2", "User3"],
        "gaps": {"User2": ["09:00-09:30"], "User3": ["09:00-09:30"]},
    }


def test_a_team_written_once_per_traveller_inside_its_split_is_a_regroup() -> None:
    """The item-per-traveller dodge: the official penalty sees intersecting teams and charges 0.
    (User3 is a child of plan_b, so the solo item is also `strict.child_unaccompanied`.)"""
    day = B2
    solo = {
        "type": "intracity_transport",
        "transport_mode": "打车",
        "from": "观海舒适酒店",
        "to": "假日海滩",
        "start_time": "08:40",
        "end_time": "09:00",
        "participants": ["User3"],
        "avg_cost": 31,
    }
    plan = edited(
        "plan_b",
        put(f"{day}[0].end_time", "09:05"),
        put(f"{day}[2].start_time", "09:05"),
        put(f"{day}[1].participants", ["User2"]),
        {"op": "insert", "path": f"{day}[2]", "value": solo},
    )
    regroups = [v for v in run(plan, "plan_b") if v.code == "strict.split_regroup"]
    assert [(v.loc, v.ctx) for v in regroups] == [(f"{day}[4]", {"users": ["User2"], "other": f"{day}[1]"})]
