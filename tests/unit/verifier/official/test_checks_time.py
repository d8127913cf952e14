"""Official checks 3 (time order), 4 (overlap) and 7 (day timeline): exact issues and quirks."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.fixtures.official_plans import USERS, act, block, day, leg, move, plan
from verifier.official.checks_time import check_overlap, check_time_order, check_timeline
from verifier.official.overlap import block_overlaps
from verifier.official.plan_view import build_view
from verifier.official.primitives import ranges_overlap


def issues(check: Any, raw: dict[str, Any], users: list[str] = USERS) -> list[dict[str, Any]]:
    return [found.issue for found in check(build_view(raw, users))]


def test_format_errors_report_raw_values() -> None:
    raw = plan(
        day(
            3,
            leg("A市", "B市", "7点", "09:25"),
            block(
                "B市",
                act("attraction", "古城", "16:00", "24:00"),
                act("food", "F", 1200, "18:30"),
                {"type": "intracity_transport", "from": "F", "to": "站", "start_time": "12:20"},
                act("attraction", "G", "9:00", "9:45"),
                act("hotel", "H", "garbage", None),
            ),
        )
    )
    found = check_time_order(build_view(raw, USERS))

    def bad(kind: str, loc: str, start: Any, end: Any) -> dict[str, Any]:
        return {
            "type": "invalid_time_format",
            "day": 3,
            "activity_type": kind,
            "location": loc,
            "start_time": start,
            "end_time": end,
            "message": f"Day 3: {kind} '{loc}' 时间格式无效 ({start} - {end})",
        }

    assert [f.issue for f in found] == [
        bad("intercity_transport", "", "7点", "09:25"),
        bad("attraction", "古城", "16:00", "24:00"),
        bad("food", "F", 1200, "18:30"),
        bad("intracity_transport", "站", "12:20", ""),
    ]
    assert [f.loc for f in found] == [
        "$.days[0].city_segments[0].start_time",
        "$.days[0].city_segments[1].activities[0].end_time",
        "$.days[0].city_segments[1].activities[1].start_time",
        "$.days[0].city_segments[1].activities[2].end_time",
    ]


def test_range_errors_only_for_activities_equal_times_included() -> None:
    raw = plan(
        day(
            1,
            leg("A市", "B市", "21:20", "00:10"),
            block("B市", act("rest", "R", "14:05", "07:00"), act("food", "F", "11:30", "11:30")),
        )
    )
    assert [(i["type"], i["message"]) for i in issues(check_time_order, raw)] == [
        ("invalid_time_range", "Day 1: rest 'R' 结束时间不晚于开始时间 (14:05 - 07:00)"),
        ("invalid_time_range", "Day 1: food 'F' 结束时间不晚于开始时间 (11:30 - 11:30)"),
    ]


def test_overlap_of_two_all_attractions_is_one_issue_per_user() -> None:
    """Appendix B vector 2."""
    raw = plan(
        day(
            1,
            block(
                "A市", act("attraction", "甲", "10:00", "12:00"), act("attraction", "乙", "11:00", "13:00")
            ),
        )
    )
    found = check_overlap(build_view(raw, USERS))
    assert [f.issue for f in found] == [
        {
            "type": "time_overlap",
            "day": 1,
            "user": user,
            "activity_1": {"type": "attraction", "location": "甲", "time": "10:00-12:00"},
            "activity_2": {"type": "attraction", "location": "乙", "time": "11:00-13:00"},
            "message": f"Day 1: {user} 的活动时间冲突 - '甲' (10:00-12:00) 与 '乙' (11:00-13:00)",
        }
        for user in USERS
    ]
    assert found[0].loc == "$.days[0].city_segments[0].activities[1]"


def test_overlap_across_blocks_touching_overnight_and_hotels_not_found() -> None:
    """Appendix B vector 3 and the other blind spots."""
    separate = plan(
        day(
            1,
            block("A市", act("attraction", "甲", "10:00", "12:00")),
            block("A市", act("attraction", "乙", "11:00", "13:00")),
        )
    )
    assert issues(check_overlap, separate) == []
    blind = plan(
        day(
            1,
            block(
                "A市",
                act("attraction", "甲", "10:00", "12:00"),
                act("attraction", "乙", "12:00", "13:00"),
                act("rest", "夜", "22:00", "11:00"),
                act("hotel", "H", "10:30", "11:30"),
                act("food", "F", "10:00", "bad"),
            ),
        )
    )
    assert issues(check_overlap, blind) == []


def test_overlap_only_for_shared_members_and_substring_participants() -> None:
    raw = plan(
        day(
            1,
            block(
                "A市",
                act("attraction", "甲", "14:00", "17:00", ["User1", "User2"]),
                act("attraction", "乙", "14:00", "17:00", ["User2", "User3"]),
                act("food", "丙", "16:00", "18:00", "User3,User10"),
            ),
        )
    )
    assert [
        (i["user"], i["activity_1"]["location"], i["activity_2"]["location"])
        for i in issues(check_overlap, raw)
    ] == [
        ("User1", "甲", "丙"),
        ("User2", "甲", "乙"),
        ("User3", "乙", "丙"),
    ]


def test_overlap_pairs_follow_list_order_not_time_order() -> None:
    raw = plan(
        day(
            1,
            block(
                "A市",
                act("attraction", "晚", "14:00", "15:00"),
                act("attraction", "早", "10:00", "12:00"),
                act("attraction", "长", "11:00", "14:30"),
            ),
        )
    )
    pairs = [
        (i["activity_1"]["location"], i["activity_2"]["location"])
        for i in issues(check_overlap, raw, ["User1"])
    ]
    assert pairs == [("晚", "长"), ("早", "长")]


TIMES = st.one_of(
    st.none(),
    st.sampled_from(["", "9:00", "24:00", "x"]),
    st.builds(lambda h, m: f"{h:02d}:{m:02d}", st.integers(0, 23), st.sampled_from([0, 15, 30, 45])),
)


@given(st.lists(st.tuples(TIMES, TIMES), max_size=8))
def test_block_sweep_equals_the_naive_pair_loop(times: list[tuple[Any, Any]]) -> None:
    raw = plan(day(1, block("A市", *(act("attraction", str(k), s, e) for k, (s, e) in enumerate(times)))))
    acts = build_view(raw, USERS).days[0].blocks[0].activities
    naive = [
        (i, j)
        for i in range(len(times))
        for j in range(i + 1, len(times))
        if ranges_overlap(times[i][0], times[i][1], times[j][0], times[j][1])
    ]
    assert block_overlaps(acts) == naive


def test_timeline_backstep_after_leg_and_activity() -> None:
    raw = plan(
        day(
            5,
            block("A市", act("attraction", "甲", "9:00", "9:05")),
            leg("A市", "B市", "09:00", "10:00"),
            block(
                "B市",
                move("站", "乙", "10:00", "10:30", ["User1"]),
                act("food", "乙", "10:20", "11:00", ["User1"]),
            ),
        )
    )
    found = check_timeline(build_view(raw, ["User1"]))
    assert [f.issue for f in found] == [
        {
            "type": "timeline_order_violation",
            "day": 5,
            "user": "User1",
            "prev_activity": "attraction 甲",
            "curr_activity": "城际交通 A市→B市",
            "prev_end_time": "09:05",
            "curr_start_time": "09:00",
            "message": "Day 5: User1 的时间线倒流 - 'attraction 甲' 结束于 09:05，"
            "但 '城际交通 A市→B市' 开始于 09:00",
        },
        {
            "type": "timeline_order_violation",
            "day": 5,
            "user": "User1",
            "prev_activity": "城内交通 站→乙",
            "curr_activity": "food 乙",
            "prev_end_time": "10:30",
            "curr_start_time": "10:20",
            "message": "Day 5: User1 的时间线倒流 - '城内交通 站→乙' 结束于 10:30，但 'food 乙' 开始于 10:20",
        },
    ]
    assert found[0].loc == "$.days[0].city_segments[1].start_time"


def test_timeline_hotel_branch_has_empty_prev_end_time_but_real_message() -> None:
    raw = plan(day(1, block("A市", move("F", "H", "18:20", "18:40"), act("hotel", "H", "18:15", "08:00"))))
    assert issues(check_timeline, raw, ["User1"]) == [
        {
            "type": "timeline_order_violation",
            "day": 1,
            "user": "User1",
            "prev_activity": "城内交通 F→H",
            "curr_activity": "hotel H",
            "prev_end_time": "",
            "curr_start_time": "18:15",
            "message": "Day 1: User1 的时间线倒流 - '城内交通 F→H' 结束于 18:40，但 'hotel H' 开始于 18:15",
        }
    ]


def test_timeline_equal_times_overnight_hotels_and_other_users_do_not_advance() -> None:
    raw = plan(
        day(
            1,
            leg("A市", "B市", "21:20", "00:10"),
            block(
                "B市",
                act("hotel", "H", "23:00", "08:00"),
                act("attraction", "甲", "07:00", "08:00"),
                act("attraction", "乙", "08:00", "23:00", ["User2"]),
                act("food", "丙", "08:00", "09:00", ["User1"]),
            ),
        )
    )
    assert issues(check_timeline, raw, ["User1", "User2"]) == []
