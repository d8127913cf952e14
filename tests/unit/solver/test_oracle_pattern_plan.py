"""How a pattern's route is re-timed on real places (`pattern_plan._schedule`, `_best`).

A team that would reach its destination late sheds its attractions, last first, and then the
meals no rule makes due (breakfast, and those its gates keep from being due); a due meal stays
whatever happens (strict judges the plan).
At a meal the team eats at the member of the class that finishes first, or — for a user the
first plan put over budget — at the cheapest, or — for a user it charged for an intensity cap —
at the one least travel away; once a user is over budget, every night at its hotel class's
cheapest member.
"""

from __future__ import annotations

from solver.oracle.catalog import CityCatalog, classes
from solver.oracle.improve import Assignment
from solver.oracle.model import Block, PlaceSet, build_model
from solver.oracle.pattern_plan import _best, _schedule, pattern_assignment
from solver.oracle.scores import official_categories, scored_users
from solver.oracle.skeleton import Frame
from solver.oracle.solve import frame_facts
from tests.unit.solver.test_oracle_decomposition import _pattern_search
from tests.unit.solver.test_oracle_exhaustive import HAND_MADE, WORLD
from verifier.strict.clock import NIGHT_END
from verifier.strict.costs import lowest_cost_fen
from verifier.strict.meals import MEALS

LUNCH = next(m for m, (name, _, _) in enumerate(MEALS) if name == "lunch")
BREAKFAST = next(m for m, (name, _, _) in enumerate(MEALS) if name == "breakfast")


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
