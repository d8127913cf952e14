"""How a pattern's route is re-timed on real places (`pattern_plan._schedule`, `_best`).

A team that would reach its destination late sheds its attractions, last first, and then the
meals no rule makes due (breakfast, and those its gates keep from being due); a due meal stays
whatever happens (strict judges the plan).
At a meal the team eats at the member of the class that finishes first, or — for a user the
first plan put over budget — at the cheapest, or — for a user it charged for an intensity cap —
at the one least travel away; once a user is over budget, every night at its hotel class's
cheapest member. A self-drive leg departs as early as its leaving block's teams allow, and its
arriving block is timed from when the written leg arrives.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import pytest

from solver.oracle.blocks import GateKey, TripFacts, trip_facts
from solver.oracle.catalog import CityCatalog, classes
from solver.oracle.clock import Clock
from solver.oracle.colgen import ColumnGeneration
from solver.oracle.improve import Assignment
from solver.oracle.integer_master import Pattern, pool_master
from solver.oracle.legs import LegOption
from solver.oracle.model import Block, PlaceSet, build_model
from solver.oracle.pattern_plan import (
    SETTLE_STEP,
    _best,
    _blocks,
    _latest_departures,
    _Layout,
    _schedule,
    pattern_assignment,
)
from solver.oracle.pricing import Column
from solver.oracle.scores import official_categories, scored_users
from solver.oracle.skeleton import Frame
from solver.oracle.solve import _Search as _OracleSearch
from solver.oracle.solve import city_catalogs, frame_facts
from tests.fixtures.preferences import city, prefs, with_prefs
from tests.fixtures.strict_world import RAIL, TASK_A, FixtureWorld, Option
from tests.unit.solver.test_oracle_decomposition import _pattern_search, oracle_search
from tests.unit.solver.test_oracle_exhaustive import HAND_MADE, WORLD
from verifier.model.plan import hhmm
from verifier.model.task import Task
from verifier.strict.clock import DAY, NIGHT_END
from verifier.strict.costs import lowest_cost_fen
from verifier.strict.meals import MEALS
from verifier.strict.profile import strict_violations

LUNCH = next(m for m, (name, _, _) in enumerate(MEALS) if name == "lunch")
BREAKFAST = next(m for m, (name, _, _) in enumerate(MEALS) if name == "breakfast")
DINNER = next(m for m, (name, _, _) in enumerate(MEALS) if name == "dinner")


def _second_day(*, relaxed: bool) -> tuple[CityCatalog, Block]:
    """The city and the second day's block of the hand-made task "agree" (one team), its
    restaurants as classes when `relaxed`, else one by one."""
    task = HAND_MADE["agree"]
    days, start, home, keys = frame_facts(task, WORLD)
    users = scored_users(task, task.preference_table())
    city = CityCatalog(WORLD, keys[0], task.metadata.cities[0], users, official_categories(WORLD, keys))
    restaurants = classes(city, city.restaurants) if relaxed else city.restaurants
    place_set = PlaceSet(city, city.attractions, restaurants, classes(city, city.hotels))
    trip = build_model(
        Frame(days, start, (home, keys[0], home)),
        {keys[0]: place_set},
        users=len(users),
        children=False,
        teams=1,
        relaxed=relaxed,
    )
    return city, trip.blocks[(2, 1)]


def test_a_late_team_drops_a_meal_its_gates_keep_but_not_a_due_one() -> None:
    city, block = _second_day(relaxed=True)
    options = [i for i, node in enumerate(block.nodes) if node.meal == LUNCH]
    place = block.nodes[options[0]].place.members
    opens = MEALS[LUNCH][1]
    # from the restaurant itself, half an hour before lunch opens; back there 10 minutes after
    gates = ((place, opens - 30), (place, opens + 10))
    _, due, _ = _schedule(city, block, [options], gates, split=False, optional=frozenset(), choice="first")
    _, kept, back = _schedule(
        city, block, [options], gates, split=False, optional=frozenset({LUNCH}), choice="first"
    )
    assert [block.nodes[i].meal for i, _ in due] == [LUNCH]
    assert due[0][1] == opens
    assert kept == []
    assert back <= opens + 10


def test_a_late_team_drops_its_breakfast_which_no_rule_makes_due() -> None:
    """Breakfast then lunch at the same restaurant, from 06:00 there, due back there 15 minutes
    before lunch can end: the team drops its breakfast (strict never requires one) and keeps
    its lunch (due, whatever happens); given the time, it keeps both."""
    city, block = _second_day(relaxed=True)
    breakfast = [i for i, node in enumerate(block.nodes) if node.meal == BREAKFAST]
    lunch = [i for i, node in enumerate(block.nodes) if node.meal == LUNCH]
    place = block.nodes[breakfast[0]].place.members
    end = MEALS[LUNCH][1] + block.stops[lunch[0]].service
    for limit, meals in ((end - 15, [LUNCH]), (end, [BREAKFAST, LUNCH])):
        gates = ((place, NIGHT_END), (place, limit))
        _, kept, _ = _schedule(
            city, block, [breakfast, lunch], gates, split=False, optional=frozenset(), choice="first"
        )
        assert [block.nodes[i].meal for i, _ in kept] == meals


def test_a_breakfast_out_of_reach_is_dropped_a_lunch_is_written_whatever_happens() -> None:
    """From the restaurant itself at 09:50, five minutes after its last breakfast start: the
    breakfast (due by no rule) is dropped rather than written outside its window; a lunch out of
    reach stays, late (strict judges the plan)."""
    city, block = _second_day(relaxed=True)
    breakfast = [i for i, node in enumerate(block.nodes) if node.meal == BREAKFAST]
    lunch = [i for i, node in enumerate(block.nodes) if node.meal == LUNCH]
    place = block.nodes[breakfast[0]].place.members
    last = max(high for _, high in block.stops[breakfast[0]].starts)
    for start, meals in ((last + 5, [LUNCH]), (last, [BREAKFAST, LUNCH])):
        gates = ((place, start), (place, None))
        _, kept, _ = _schedule(
            city, block, [breakfast, lunch], gates, split=False, optional=frozenset(), choice="first"
        )
        assert [block.nodes[i].meal for i, _ in kept] == meals
    closes = max(high for i in lunch for _, high in block.stops[i].starts)
    gates = ((place, closes + 5), (place, None))
    _, kept, _ = _schedule(city, block, [lunch], gates, split=False, optional=frozenset(), choice="first")
    assert [(block.nodes[i].meal, start) for i, start in kept] == [(LUNCH, closes + 5)]


def test_a_thrifty_team_eats_at_the_cheapest_member_the_others_at_the_first_to_finish() -> None:
    """Three lunch places open together; standing at the dearest one, the team finishes there
    first, and a thrifty team walks to the cheapest."""
    city, block = _second_day(relaxed=False)
    options = [i for i, node in enumerate(block.nodes) if node.meal == LUNCH]
    cost = {i: lowest_cost_fen(block.nodes[i].place.price_fen) for i in options}
    assert len(options) == 3 and len(set(cost.values())) == 3
    dearest = max(options, key=cost.__getitem__)
    here = block.nodes[dearest].place.members
    opens = MEALS[LUNCH][1]
    assert _best(city, block, options, here, opens) == (dearest, opens)
    found = _best(city, block, options, here, opens, choice="cheap")
    assert found is not None and found[0] == min(options, key=cost.__getitem__)
    assert found[1] > opens  # it walks there


def test_among_meals_that_end_together_the_team_takes_the_nearest() -> None:
    """Two hours before lunch opens, at 山城火锅 (the last of three lunch places, 11 and 20
    minutes from the others): every lunch starts at 10:30 and ends together, and the team eats
    where it stands — the transfer would count against its intensity caps, the wait does not.
    The version before took the first in the model's order, 老川菜馆 (task_001059: a dinner
    class's member 125 minutes away instead of 11, a day over everyone's hours cap)."""
    city, block = _second_day(relaxed=False)
    options = [i for i, node in enumerate(block.nodes) if node.meal == LUNCH]
    assert [block.nodes[i].place.name for i in options] == ["老川菜馆", "渔港海鲜", "山城火锅"]
    here = block.nodes[options[2]].place.members
    assert [city.travel(here, block.nodes[i].place.members) for i in options] == [11, 20, 0]
    opens = MEALS[LUNCH][1]
    assert _best(city, block, options, here, opens - 120) == (options[2], opens)


def test_a_tired_team_eats_at_the_member_least_travel_away_from_here_and_to_its_next_stop() -> None:
    """Three lunch places open together; standing at the dearest and going on to the cheapest,
    the nearest member is the one that adds the least travel there and on, and with nowhere to
    go on it is the one the team stands at."""
    city, block = _second_day(relaxed=False)
    options = [i for i, node in enumerate(block.nodes) if node.meal == LUNCH]
    cost = {i: lowest_cost_fen(block.nodes[i].place.price_fen) for i in options}
    dearest, cheapest = max(options, key=cost.__getitem__), min(options, key=cost.__getitem__)
    here, then = block.nodes[dearest].place.members, block.nodes[cheapest].place.members
    opens = MEALS[LUNCH][1]

    def detour(i: int) -> int:
        places = block.nodes[i].place.members
        return (city.travel(here, places) or 0) + (city.travel(places, then) or 0)

    found = _best(city, block, options, here, opens, choice="near", then=then)
    assert found is not None and detour(found[0]) == min(detour(i) for i in options)
    assert _best(city, block, options, here, opens, choice="near") == (dearest, opens)


def test_once_a_user_is_over_budget_every_night_is_at_the_hotel_classs_cheapest_member() -> None:
    """On "budget_one_yuan_short" the pattern's night is a hotel class of two: written as it
    comes, at its first member (the dearer), a plan the budget charges; with a thrifty user, at
    the cheaper one, for every team (the night is the group's)."""
    generation, pattern, search = _pattern_search("budget_one_yuan_short")
    trip = search.pattern_model(pattern, generation.facts, dict(generation.cities))

    def nights(values: Assignment) -> set[str]:
        return {
            place.name
            for options in trip.skeleton.hotels.values()
            for place, literal in options
            if values.solution[literal.index]
        }

    options = [place for options in trip.skeleton.hotels.values() for place, _ in options]
    costs = {place.name: lowest_cost_fen(place.price_fen) for place in options}
    assert len(costs) == 2 and len(set(costs.values())) == 2
    first = nights(pattern_assignment(trip, generation.facts, pattern))
    cheap = nights(pattern_assignment(trip, generation.facts, pattern, thrifty=frozenset({0})))
    assert first == {max(costs, key=costs.__getitem__)}
    assert cheap == {min(costs, key=costs.__getitem__)}


class _DriveWorld(FixtureWorld):
    """The strict fixture world with its self-drives from station to station (door to door,
    hubless, in the fixture; the gtb worlds drive from city to city)."""

    def intercity_options(self, from_city: str, to_city: str, date: dt.date) -> Sequence[Option]:
        return tuple(
            replace(o, from_hub=RAIL[from_city], to_hub=RAIL[to_city]) if o.mode == "自驾" else o
            for o in super().intercity_options(from_city, to_city, date)
        )


STRICT_WORLD = _DriveWorld()


def _regated(pattern: Pattern, old: GateKey, new: GateKey) -> Pattern:
    """`pattern` with every row naming gate `old` naming `new` instead."""
    columns = tuple(
        replace(c, rows=tuple(((*key[:4], new) if key[4:] == (old,) else key, v) for key, v in c.rows))
        for c in pattern.columns
    )
    return replace(pattern, columns=columns)


def test_a_self_drive_leg_departs_when_its_leaving_teams_are_ready_and_its_arrival_times_the_next_city() -> (
    None
):
    """TASK_A (海口 → 三亚 on day 3) with its pattern's 海口 → 三亚 leg moved to the self-drive
    range departing 07:31–10:29 (three hours on the road): the master credits 三亚 from the
    range's earliest arrival, so the leg is written departing 07:31 — as soon as the 海口 team
    can be there — and the plan passes strict. (Written at the range's latest minute, 10:29, as
    versions up to this one did, its 三亚 lunch came before the car arrived: double booked.)"""
    task = with_prefs(
        TASK_A,
        prefs(海口市=city([], [], ["历史街区"], []), 三亚市=city(["南山文化旅游区"], [], ["自然风光"], [])),
    )
    days, start, home, keys = frame_facts(task, STRICT_WORLD)
    users = scored_users(task, task.preference_table())
    cities = city_catalogs(task, STRICT_WORLD, keys, users, official_categories(STRICT_WORLD, keys))
    generation = ColumnGeneration(trip_facts(days, start, home, cities), cities, users, True)
    generation.run(Clock(2))
    found = pool_master(generation.master_skeleton, generation.columns, Clock(10), seconds=5, seed=0)[0]
    assert found is not None
    options = generation.facts.legs[("海口市", "三亚市", 3)]
    drive = next(i for i, o in enumerate(options) if o.option.mode == "自驾" and o.depart == 451)
    assert options[drive].latest == 629 and options[drive].duration == 180
    leg = next(g for c in found.columns if (g := c.origin) is not None and g[0] == "leg" and g[2] == "三亚市")
    pattern = _regated(found, leg, ("leg", "海口市", "三亚市", 3, drive))
    search = oracle_search(task, STRICT_WORLD, generation.facts, generation.users)
    search.from_pattern(pattern, generation.facts, dict(generation.cities))
    assert search.pattern is not None and search.pattern["written"]
    plan: dict[str, Any] | None = search.best.plan
    assert plan is not None and strict_violations(task, plan, STRICT_WORLD) == []
    segments = plan["days"][2]["city_segments"]
    at = next(i for i, s in enumerate(segments) if s.get("to_city") == "三亚市")
    assert (segments[at]["transport_mode"], segments[at]["start_time"]) == ("自驾", hhmm(451))
    assert segments[at + 1]["activities"][0]["start_time"] >= segments[at]["end_time"]


def _through(
    day: int, city: str, gates: tuple[GateKey, GateKey], meals: tuple[int, ...], *, loose: bool = False
) -> Column:
    """The whole group of TASK_A in a block from one gate to the other, eating `meals` at the
    city's first restaurant class and visiting nothing."""
    restaurant = {"海口市": "老爸茶餐厅", "三亚市": "三亚海鲜大排档"}[city]
    rows = tuple(
        ((kind, day, city, u, gate), Fraction(1))
        for u in (0, 1)
        for kind, gate in zip(("orig", "dest"), gates, strict=True)
    )
    return Column((day, city), (0, 1), loose, 0, rows, tuple((restaurant, 0, meal) for meal in meals))


@dataclass(frozen=True)
class _DayTwoDrive:
    """TASK_A driving 海口 → 三亚 on day 2 in the self-drive range departing 15:00–20:59 and
    sleeping in 三亚: its facts, a pattern of the meals strict requires and nothing else (or,
    `lunch` false, without day 3's lunch), and an oracle search of it."""

    task: Task
    facts: TripFacts
    cities: dict[str, CityCatalog]
    leg: LegOption
    pattern: Pattern
    search: _OracleSearch


def _day_two_drive(*, lunch: bool = True) -> _DayTwoDrive:
    task = with_prefs(TASK_A, prefs())
    days, start, home, keys = frame_facts(task, STRICT_WORLD)
    users = scored_users(task, task.preference_table())
    cities = city_catalogs(task, STRICT_WORLD, keys, users, official_categories(STRICT_WORLD, keys))
    facts = trip_facts(days, start, home, cities)
    options = facts.legs[("海口市", "三亚市", 2)]
    drive = next(i for i, o in enumerate(options) if o.option.mode == "自驾" and o.depart == 900)
    road = ("leg", "海口市", "三亚市", 2, drive)
    pattern = Pattern(
        (
            _through(1, "海口市", (("leg", "长春市", "海口市", 1, 0), ("hotel", 1, "海口市", 0)), (DINNER,)),
            _through(2, "海口市", (("hotel", 1, "海口市", 0), road), (LUNCH,)),
            _through(2, "三亚市", (road, ("hotel", 2, "三亚市", 0)), (), loose=True),
            _through(
                3,
                "三亚市",
                (("hotel", 2, "三亚市", 0), ("leg", "三亚市", "长春市", 3, 0)),
                (LUNCH,) if lunch else (),
            ),
        ),
        Fraction(1),
    )
    search = oracle_search(task, STRICT_WORLD, facts, users)
    return _DayTwoDrive(task, facts, cities, options[drive], pattern, search)


def test_a_leaving_team_is_due_at_the_hub_in_time_for_the_arriving_team_to_reach_its_hotel() -> None:
    """On `_DayTwoDrive` the latest departure the arriving team allows is the one whose arrival,
    exit minutes and transfer to the hotel member written end by 23:59
    (`_latest_departures`, one per arrival at a hotel); the plan of the pattern drives at the
    range's first minute (15:00: the team has long eaten its lunch in 海口) and passes strict."""
    case = _day_two_drive()
    task, facts, cities = case.task, case.facts, case.cities
    leg, pattern, search = case.leg, case.pattern, case.search
    road = ("leg", "海口市", "三亚市", 2, facts.legs[("海口市", "三亚市", 2)].index(leg))
    trip = search.pattern_model(pattern, facts, cities)
    hotel = trip.skeleton.hotels[(2, 2)][0][0]
    transfer = cities["三亚市"].travel((leg.option.to_hub,), (hotel.name,))
    assert transfer is not None and transfer > 0
    latest = _latest_departures(trip, facts, list(_blocks(trip, pattern)), cheap=False)
    assert set(latest) == {(0, 1), (1, 2)}  # each arrival at a hotel: the flight in, the drive
    assert latest[(1, 2)] == DAY - 1 - transfer - leg.exit - leg.duration < leg.latest
    # the 海口 team's deadline at the hub: that departure less check-in, not the range's latest
    layout = _Layout(trip, facts, frozenset(), frozenset(), {}, latest)
    end = layout.gate(trip.blocks[(2, 1)], road, {}, arriving=False)
    assert end is not None and end[1] == latest[(1, 2)] - leg.check_in
    search.from_pattern(pattern, facts, cities)
    assert search.pattern is not None and search.pattern["written"]
    plan = search.best.plan
    assert plan is not None and strict_violations(task, plan, STRICT_WORLD) == []
    drives = [s for s in plan["days"][1]["city_segments"] if s.get("to_city") == "三亚市"]
    assert [(s["transport_mode"], s["start_time"]) for s in drives] == [("自驾", hhmm(900))]


def test_a_self_drive_departs_when_both_its_blocks_keep_the_most_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`_Layout.settle` on `_DayTwoDrive`, with stand-in counts of the stops kept: the 海口
    team keeps one more stop an hour later it may leave, the 三亚 team one more each 45 minutes
    earlier it arrives; of the range's departures every 30 minutes from the latest the
    arriving team allows, the one keeping the most over both (the latest among equals). A leg
    on a timetable is left alone."""
    case = _day_two_drive()
    trip = case.search.pattern_model(case.pattern, case.facts, case.cities)
    key = (1, 2)
    last = _latest_departures(trip, case.facts, list(_blocks(trip, case.pattern)), cheap=False)[key]

    def kept(self: _Layout, block: Block, columns: list[Column], values: dict[int, int]) -> int:
        minute = self.latest[key]
        return minute // 60 if block.city == 1 else (last - minute) // 45

    monkeypatch.setattr(_Layout, "lay", kept)
    columns = {c.block: [c] for c in case.pattern.columns}
    layout = _Layout(trip, case.facts, frozenset(), frozenset(), {}, {key: last})
    layout.settle(trip.blocks[(2, 1)], columns[(2, "海口市")], trip.blocks[(2, 2)], columns[(2, "三亚市")])
    tried = range(last, case.leg.depart - 1, -SETTLE_STEP)
    assert layout.latest[key] == max(tried, key=lambda m: (m // 60 + (last - m) // 45, m))
    assert layout.latest[key] not in (last, tried[-1])  # the stand-in counts trade the two off
    flight = _Layout(trip, case.facts, frozenset(), frozenset(), {}, {})
    flight.settle(trip.blocks[(3, 2)], columns[(3, "三亚市")], trip.blocks[(3, 2)], [])
    assert flight.latest == {}


def test_a_due_meal_the_pattern_leaves_out_is_written_at_the_blocks_restaurants() -> None:
    """`_DayTwoDrive` without day 3's lunch (the master forces no meal in a loose column, so a
    pattern may lack one): the writer adds the lunch its gates do not keep, and the plan passes
    strict; dinner, which the 22:00 flight keeps from being due, is not added."""
    case = _day_two_drive(lunch=False)
    case.search.from_pattern(case.pattern, case.facts, case.cities)
    assert case.search.pattern is not None and case.search.pattern["written"]
    plan = case.search.best.plan
    assert plan is not None and strict_violations(case.task, plan, STRICT_WORLD) == []
    foods = [
        a for s in plan["days"][2]["city_segments"] for a in s.get("activities", []) if a["type"] == "food"
    ]
    lunch = MEALS[LUNCH][1:]
    assert [hhmm(lunch[0]) <= a["start_time"] < hhmm(lunch[1]) for a in foods] == [True]
