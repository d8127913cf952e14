"""The official validity entry point: check order, report assembly and crash behaviour."""

from __future__ import annotations

import pytest

from tests.fixtures.official_plans import USERS, act, block, day, leg, move, plan
from verifier.official.plan_view import build_view
from verifier.official.poi_db import PoiDb
from verifier.official.validity import OfficialIssue, plan_validity_issues, validity_report

EMPTY_DB = PoiDb({})


def test_valid_plan_gives_the_empty_report() -> None:
    raw = plan(
        day(
            1,
            leg("A市", "B市", "08:00", "10:00"),
            block("B市", move("站", "H", "10:30", "11:00"), act("hotel", "H", "20:00", "08:00")),
        ),
        day(2, block("B市", act("attraction", "H", "09:00", "10:00"))),
    )
    issues = plan_validity_issues(build_view(raw, USERS), EMPTY_DB)
    assert validity_report(issues) == {"valid": True, "total_issues": 0, "issue_counts": {}, "issues": []}


def test_checks_run_in_official_order_and_counts_keep_first_seen_order() -> None:
    raw = plan(
        day(1, block("A市", act("food", "F", "12:00", "11:00", ["Bob"], avg_cost=None))),
        day(2, block("B市", act("attraction", "X", "09:00", "10:00"))),
    )
    issues = plan_validity_issues(build_view(raw, ["User1"]), EMPTY_DB)
    assert [(found.check, found.issue["type"]) for found in issues] == [
        (1, "missing_intercity_transport"),
        (2, "missing_hotel"),
        (3, "invalid_time_range"),
        (8, "missing_avg_cost"),
        (9, "invalid_participants"),
    ]
    report = validity_report(issues)
    assert report["valid"] is False
    assert report["total_issues"] == 5
    assert list(report["issue_counts"].items()) == [
        ("missing_intercity_transport", 1),
        ("missing_hotel", 1),
        ("invalid_time_range", 1),
        ("missing_avg_cost", 1),
        ("invalid_participants", 1),
    ]
    assert report["issues"] == [found.issue for found in issues]


def test_report_counts_repeated_types() -> None:
    issues = [
        OfficialIssue(4, "$", {"type": "time_overlap"}),
        OfficialIssue(2, "$", {"type": "missing_hotel"}),
        OfficialIssue(4, "$", {"type": "time_overlap"}),
    ]
    assert validity_report(issues)["issue_counts"] == {"time_overlap": 2, "missing_hotel": 1}


@pytest.mark.parametrize(
    ("raw", "kind", "message"),
    [
        ({"days": {"1": {}}}, AttributeError, "'str' object has no attribute 'get'"),
        ({"days": [{"city_segments": None}]}, TypeError, "'NoneType' object is not iterable"),
        ({"days": [{"city_segments": [["x"]]}]}, AttributeError, "'list' object has no attribute 'get'"),
        (
            {"days": [{"city_segments": [{"activities": {"a": 1}}]}]},
            AttributeError,
            "'str' object has no attribute 'get'",
        ),
    ],
)
def test_structural_errors_raise_the_official_exception(
    raw: object, kind: type[Exception], message: str
) -> None:
    view = build_view(raw, USERS)
    with pytest.raises(kind) as caught:
        plan_validity_issues(view, EMPTY_DB)
    assert str(caught.value) == message


def test_unhashable_participants_raise_type_error() -> None:
    raw = plan(day(1, block("A市", act("attraction", "X", "09:00", "10:00", [["User1"]]))))
    with pytest.raises(TypeError, match=r"^unhashable type: 'list'$"):
        plan_validity_issues(build_view(raw, USERS), EMPTY_DB)


def test_integer_participants_raise_in_the_overlap_check() -> None:
    raw = plan(day(1, block("A市", act("attraction", "X", "09:00", "10:00", 5))))
    with pytest.raises(TypeError, match=r"^argument of type 'int' is not iterable$"):
        plan_validity_issues(build_view(raw, USERS), EMPTY_DB)
