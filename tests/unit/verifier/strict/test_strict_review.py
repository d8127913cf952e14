"""Regressions found in the strict-profile correctness review (each pins the documented behaviour)."""

from __future__ import annotations

from tests.fixtures.strict_helpers import edited, found, put

B2 = "$.days[1].city_segments[0].activities"


def test_repeated_all_is_a_duplicate_not_all_mixed_with_names() -> None:
    """`["All", "All"]` names nobody besides "All": one duplicate, not "All" mixed with names."""
    plan = edited("plan_b", put(f"{B2}[6].participants", ["All", "All"]))
    assert found(plan, "plan_b") == [("strict.participants_duplicate", 9, f"{B2}[6].participants")]


def test_all_mixed_with_a_name_is_still_reported_once_with_its_duplicate() -> None:
    plan = edited("plan_b", put(f"{B2}[6].participants", ["All", "All", "User1"]))
    assert found(plan, "plan_b") == [
        ("strict.participants_all_mixed", 9, f"{B2}[6].participants"),
        ("strict.participants_duplicate", 9, f"{B2}[6].participants"),
    ]
