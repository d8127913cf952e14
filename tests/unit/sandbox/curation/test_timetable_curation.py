"""Timetable curation rules: shared station positions undone, contradicting train segments dropped.

The examples mirror ChinaTravel's records (G124, G179, G368, G4362, 广州站 / 广州南站); the
curated package data (`sandbox/data/`) is checked for the outcome.
"""

from __future__ import annotations

import csv
from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox.curation.station_positions import named_after, unshare
from sandbox.curation.train_segments import ARRIVE, DEPART, Segment, consistent, dwell_ok
from sandbox.world.geography import DATA_DIR, haversine_km

SOUTH = (113.263266, 22.990208)
CENTRE = (113.264385, 23.129110)


def _rows(name: str) -> list[dict[str, str]]:
    with (DATA_DIR / name).open(encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_a_poi_names_a_station_by_its_name_or_as_its_railway_station() -> None:
    assert named_after("广州南站", "维也纳酒店(广州南站高铁站店)")
    assert not named_after("广州站", "维也纳酒店(广州南站高铁站店)")
    assert named_after("广州站", "广州火车站希尔顿欢朋酒店")
    assert not named_after("广州站", "广州站")


def test_a_shared_position_goes_to_the_station_its_named_pois_surround() -> None:
    pois = [
        ("广州站", SOUTH),
        ("广州南站", SOUTH),
        *[(f"广州南站酒店{i}", (lon, 22.985)) for i, lon in enumerate((113.276, 113.277, 113.278))],
        *[
            (f"广州火车站宾馆{i}", point)
            for i, point in enumerate(((113.255, 23.15), (113.256, 23.149), (113.257, 23.148)))
        ],
        ("府上酒店(火车站越秀公园店)", (113.2, 23.0)),
    ]
    placed = unshare({"广州站": SOUTH, "广州南站": SOUTH, "广州东站": (113.3, 23.15)}, pois, CENTRE, 80)
    assert placed == {"广州南站": SOUTH, "广州站": (113.256, 23.149), "广州东站": (113.3, 23.15)}
    few = [p for p in pois if not p[0].startswith("广州火车站宾馆1")]
    assert unshare({"广州站": SOUTH, "广州南站": SOUTH}, few, CENTRE, 80)["广州站"] is None
    far = [(name, (lon, lat + 0.1)) for name, (lon, lat) in pois if name.startswith("广州南站酒店")]
    moved = {"广州站": None, "广州南站": (113.277, 22.985 + 0.1)}
    assert unshare({"广州站": SOUTH, "广州南站": SOUTH}, far, CENTRE, 80) == moved, "11 km off: no owner"


def test_curated_guangzhou_station_is_not_at_guangzhou_south() -> None:
    where = {r["name"]: (float(r["lon"]), float(r["lat"])) for r in _rows("stations.csv") if r["lon"]}
    assert where["广州南站"] == SOUTH
    assert haversine_km(*where["广州站"], *where["广州南站"]) > 10
    assert haversine_km(*where["广州站"], 113.257, 23.149) < 1.0, "the real 广州站"
    shared = defaultdict(list)
    for name, point in where.items():
        shared[point].append(name)
    assert [names for names in shared.values() if len(names) > 1] == []


def _seg(code: str, a: str, b: str, times: tuple[str, str], minutes: int | None = None) -> Segment:
    """A segment between stations "<a>站" and "<b>站" (cities: the first two characters)."""
    depart, arrive = (int(t[:2]) * 60 + int(t[3:]) for t in times)
    span = minutes if minutes is not None else (arrive - depart) % 1440
    return Segment(code, f"{a}站", f"{b}站", a[:2], b[:2], depart, arrive, span, "1")


def test_the_time_most_segments_give_wins() -> None:
    segments = [
        _seg("G124", "上海虹桥", "南京南", ("10:44", "12:07")),
        _seg("G124", "苏州北", "南京南", ("11:09", "12:07")),
        _seg("G124", "苏州北", "南京南", ("11:09", "12:23")),
        _seg("G124", "南京南", "北京南", ("12:09", "16:43")),
    ]
    kept, report = consistent(segments, {})
    assert kept == [segments[0], segments[1], segments[3]] and report.dropped == [segments[2]]
    assert report.trains["two arrivals"] == {"G124"} and report.affected() == {"G124"}


def test_a_tie_goes_to_the_time_that_fits_the_stop_then_to_railwayvis() -> None:
    segments = [
        _seg("G179", "北京南", "南京南", ("08:29", "12:59")),
        _seg("G179", "北京南", "南京南", ("08:29", "13:08")),
        _seg("G179", "南京南", "杭州东", ("13:02", "14:13")),
    ]
    kept, _ = consistent(segments, {})
    assert kept == [segments[0], segments[2]], "13:08 would arrive after the 13:02 departure"
    twins = segments[:2]
    assert consistent(twins, {})[0] == [], "a tie no rule breaks keeps neither"
    rail = {"G179": {("南京", ARRIVE): 13 * 60 + 8, ("北京", DEPART): 8 * 60 + 29}}
    assert consistent(twins, rail)[0] == [twins[1]]


def test_self_contradicting_and_out_of_order_segments_are_dropped() -> None:
    wrong = _seg("G4362", "苏州南", "深圳东", ("07:22", "07:28"), minutes=606)
    right = _seg("G8387", "上海南", "苏州盛泽", ("08:45", "09:17"), minutes=32)
    kept, report = consistent([wrong, right], {})
    assert kept == [right] and report.trains["duration"] == {"G4362"}
    late = [
        _seg("G101", "北京南", "苏州北", ("06:10", "13:04")),
        _seg("G101", "苏州北", "上海虹桥", ("11:45", "12:09")),
    ]
    kept, report = consistent(late, {})
    assert kept == [] and report.trains["dwell"] == {"G101"}


STATIONS = ("上海虹桥", "苏州北", "南京南")


@st.composite
def train_segments(draw: st.DrawFn) -> list[Segment]:
    """Up to 8 segments of two trains over three stations, some with a duration 60 min off."""
    out = []
    for _ in range(draw(st.integers(1, 8))):
        a, b = draw(st.permutations(STATIONS))[:2]
        depart = draw(st.sampled_from([600, 610, 700]))
        arrive = draw(st.sampled_from([605, 640, 690, 720, 1430]))
        minutes = (arrive - depart) % 1440 + draw(st.sampled_from([0, 0, 0, 60]))
        code = draw(st.sampled_from(["G1", "G2"]))
        out.append(Segment(code, a, b, a[:2], b[:2], depart, arrive, minutes, "1"))
    return out


@settings(max_examples=150, deadline=None)
@given(segments=train_segments())
def test_kept_segments_are_consistent_and_the_rule_is_idempotent(segments: list[Segment]) -> None:
    kept, report = consistent(segments, {})
    assert len(kept) + len(report.dropped) == len(segments)
    rest = iter(segments)
    assert all(any(s is t for t in rest) for s in kept), "kept in input order"
    assert consistent(kept, {})[0] == kept
    _assert_consistent([(s.code, s.origin, s.depart, s.destination, s.arrive) for s in kept])


def _assert_consistent(rows: list[tuple[str, str, int, str, int]]) -> None:
    departs: dict[tuple[str, str], set[int]] = defaultdict(set)
    arrives: dict[tuple[str, str], set[int]] = defaultdict(set)
    for code, a, depart, b, arrive in rows:
        departs[(code, a)].add(depart % 1440)
        arrives[(code, b)].add(arrive % 1440)
    assert all(len(times) == 1 for times in (*departs.values(), *arrives.values()))
    for key, (arrive,) in arrives.items():
        if key in departs:
            assert dwell_ok(arrive, next(iter(departs[key])))


def test_curated_chinatravel_trains_agree_with_themselves() -> None:
    rows: list[tuple[str, str, int, str, int]] = []
    for row in _rows("trains.csv"):
        if row["source"] != "ChinaTravel":
            continue
        (a, _, _, depart), (b, _, arrive, _) = (stop.split("|") for stop in row["stops"].split(";"))
        rows.append((row["code"], a, int(depart), b, int(arrive)))
    _assert_consistent(rows)
    pairs: dict[str, set[tuple[str, str, int]]] = defaultdict(set)
    for code, a, _, b, arrive in rows:
        pairs[code].add((a, b, arrive % 1440))
    assert {(a, b) for a, b, _ in pairs["G368"]} & {("上海虹桥站", "南京南站")} == set()
    assert {arrive for a, b, arrive in pairs["G124"] if b == "南京南站"} == {727}
    assert ("苏州南站", "深圳东站") not in {(a, b) for a, b, _ in pairs["G4362"]}
