"""The strict rules routes do not carry by themselves, and the official group utility.

- Meals (`verifier.strict.meals`): in a block where lunch or dinner is due (its window lies in
  the block's city time and no leg of the day overlaps it or keeps it outside the trip), every
  team eats it; nobody has two meals of a kind on one date.
- Places (`verifier.strict.places`): a traveller visits an attraction at most once per trip
  (children go with team 0).
- Objective: the official GU total — per user, transport per leg, hotel per night, meal and
  attraction scores of the user's own team, must_visit +2 and reject_visit −2 once per list
  entry, −2 per day over each intensity cap, −2 over budget — minus the split penalty. A
  waivable user (the ceiling objective) also gains the losses of the two fields the user gives
  up (`waivers.py`): each losing field's loss is collected piece by piece beside the terms.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from ortools.sat.python import cp_model

from solver.greedy_prefs import Parts
from solver.oracle.model import (
    Block,
    TripModel,
    attraction_nodes,
    meal_nodes,
    meal_side_terms,
    required_meals,
)
from solver.oracle.scores import ScoredUser
from solver.oracle.waivers import Losses, add_waivers
from verifier.strict.costs import lowest_cost_fen
from verifier.strict.meals import MEALS


@dataclass(frozen=True)
class Goal:
    """What the model maximises: "gu" (the GU total), "ceiling" (the GU total with the gains of
    the waivable users' waivers: the compromise-aware ceiling), "maxmin" (the least user
    utility, GU as tie-break in primal models) — optionally with a fairness floor `gf_floor`: 100 × least ≥
    floor × greatest user utility, the official GF for non-negative utilities (plans with a
    negative user utility are left out)."""

    kind: str = "gu"
    gf_floor: float | None = None
    tie_break: bool = True


def add_rules_and_objective(
    trip: TripModel, users: tuple[ScoredUser, ...], goal: Goal = Goal()
) -> list[cp_model.LinearExpr]:
    """Add meals, places, intensity and budget, set the objective of `goal`; return every
    user's utility (with the gain of the user's waivers for a waivable user)."""
    model = trip.model
    _meals(trip)
    visits = _user_visits(trip)
    utilities = [_utility(trip, u, user, visits[u]) for u, user in enumerate(users)]
    penalties = [block.teams.penalty for block in trip.blocks.values()]
    gu = cp_model.LinearExpr.weighted_sum(
        [*utilities, *penalties], [1] * len(utilities) + [-1] * len(penalties)
    )
    least = model.new_int_var(-(10**6), 10**6, "least")
    for utility in utilities:
        model.add(least <= utility)
    if goal.gf_floor is not None:
        greatest = model.new_int_var(-(10**6), 10**6, "greatest")
        for utility in utilities:
            model.add(greatest >= utility)
        model.add(100 * least >= math.ceil(goal.gf_floor) * greatest)
    if goal.kind == "maxmin":
        model.maximize(MAXMIN_WEIGHT * least + gu if goal.tie_break else least)
    else:
        model.maximize(gu)
    return utilities


MAXMIN_WEIGHT = 10_000
"""Weight of the least utility over GU in a primal max–min model (GU only breaks ties)."""


def _utility(
    trip: TripModel, u: int, user: ScoredUser, visits: dict[tuple[int, int, int], cp_model.LinearExprT]
) -> cp_model.LinearExpr:
    """The user's official utility, plus the gain of the user's waivers when `waivable` (their
    variables go to `trip.waivers`)."""
    losses = Losses() if user.waivable else None
    utility = cp_model.LinearExpr.weighted_sum(
        [
            _trip_terms(trip, u, user, losses),
            _place_terms(trip, u, visits, losses),
            _day_terms(trip, u, user, visits, losses),
            _over_budget(trip, u, user, losses),
        ],
        [1, 1, 1, -2],
    )
    if losses is None:
        return utility
    gain, waivers = add_waivers(trip.model, u, losses)
    trip.waivers += waivers
    return utility + gain


def _meals(trip: TripModel) -> None:
    model = trip.model
    due = set(required_meals())
    by_day: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for (day, city), block in trip.blocks.items():
        by_day[day].append((day, city))
        exists = trip.skeleton.block[(day, city)]
        for meal in range(len(MEALS)):
            nodes = meal_nodes(block, meal)
            for route in block.routes:
                model.add(sum(route.visit[i] for i in nodes) <= 1)
            if meal not in due:
                continue
            need = model.new_bool_var(f"need{day}c{city}m{meal}")
            model.add(need >= exists - sum(meal_side_terms(trip, day, city, meal)))
            for route, active in zip(block.routes, block.teams.active, strict=True):
                model.add(sum(route.visit[i] for i in nodes) >= 1).only_enforce_if([need, active])
    for keys in by_day.values():
        if len(keys) < 2:
            continue
        for meal in range(len(MEALS)):
            for u in range(trip.users):
                model.add(sum(_meal_count(trip, key, meal, u) for key in keys) <= 1)
            if trip.children:
                model.add(sum(_team_meals(trip, key, meal, 0) for key in keys) <= 1)


def _team_meals(trip: TripModel, key: tuple[int, int], meal: int, team: int) -> cp_model.LinearExprT:
    block = trip.blocks[key]
    return sum(block.routes[team].visit[i] for i in meal_nodes(block, meal))


def _meal_count(trip: TripModel, key: tuple[int, int], meal: int, user: int) -> cp_model.LinearExprT:
    block = trip.blocks[key]
    per_team = [_team_meals(trip, key, meal, k) for k in range(len(block.routes))]
    return block.teams.of_user(trip.model, user, per_team, (0, 1))


def _user_visits(trip: TripModel) -> list[dict[tuple[int, int, int], cp_model.LinearExprT]]:
    """Per user: (day, city, node) → 1 when the user visits that attraction there; at most one
    visit of an attraction per traveller over the trip."""
    model = trip.model
    out: list[dict[tuple[int, int, int], cp_model.LinearExprT]] = [{} for _ in range(trip.users)]
    by_place: dict[tuple[int, str], list[tuple[int, int, int]]] = defaultdict(list)
    for (day, city), block in trip.blocks.items():
        for i in attraction_nodes(block):
            per_team = [route.visit[i] for route in block.routes]
            for u in range(trip.users):
                out[u][(day, city, i)] = block.teams.of_user(model, u, per_team, (0, 1))
            by_place[(city, block.nodes[i].place.place)].append((day, city, i))
    for keys in by_place.values():
        for u in range(trip.users):
            model.add(sum(out[u][key] for key in keys) <= 1)
        if trip.children:
            model.add(sum(trip.blocks[(d, c)].routes[0].visit[i] for d, c, i in keys) <= 1)
    return out


def _trip_terms(trip: TripModel, u: int, user: ScoredUser, losses: Losses | None) -> cp_model.LinearExprT:
    """Transport per leg and hotel per night (one leg a transition, one hotel a night)."""
    skeleton = trip.skeleton
    if losses is not None:
        legs_of: dict[int, list[tuple[Parts, cp_model.LinearExprT]]] = defaultdict(list)
        for (transition, _), options in skeleton.legs.items():
            legs_of[transition] += [
                (user.prefs.transport_fields(leg.option.mode), x) for leg, x, _ in options
            ]
        hotels_of: dict[int, list[tuple[Parts, cp_model.LinearExprT]]] = defaultdict(list)
        for (night, _), choices in skeleton.hotels.items():
            hotels_of[night] += [(place.fields[u], literal) for place, literal in choices]
        for exclusive in (*legs_of.values(), *hotels_of.values()):
            losses.add_exclusive(None, exclusive)
    legs = sum(
        user.prefs.transport(leg.option.mode) * literal
        for options in skeleton.legs.values()
        for leg, literal, _ in options
    )
    hotels = sum(
        place.scores[u] * literal for options in skeleton.hotels.values() for place, literal in options
    )
    return legs + hotels


def _place_terms(
    trip: TripModel,
    u: int,
    visits: dict[tuple[int, int, int], cp_model.LinearExprT],
    losses: Losses | None,
) -> cp_model.LinearExprT:
    """Attraction categories, must_visit and reject_visit items, and meals of the user's team."""
    model = trip.model
    if losses is not None:
        _visit_losses(trip, u, visits, losses)
    terms: list[cp_model.LinearExprT] = []
    musts: dict[tuple[int, int], list[cp_model.LinearExprT]] = defaultdict(list)
    rejects: dict[tuple[int, int], list[cp_model.LinearExprT]] = defaultdict(list)
    for (day, city, i), visit in visits.items():
        place = trip.blocks[(day, city)].nodes[i].place
        terms.append(place.scores[u] * visit)
        for item in place.musts[u]:
            musts[(city, item)].append(visit)
        for item in place.rejects[u]:
            rejects[(city, item)].append(visit)
    for key, hits in musts.items():
        satisfied = model.new_bool_var(f"must{u}_{key}")
        model.add(satisfied <= sum(hits))
        for visit in hits:
            model.add(satisfied >= visit)
        terms.append(2 * satisfied)
    for key, hits in rejects.items():
        hit = model.new_bool_var(f"reject{u}_{key}")
        for visit in hits:
            model.add(hit >= visit)
        model.add(hit <= sum(hits))
        terms.append(-2 * hit)
        if losses is not None:
            losses.add((_label(trip, key[0]), "reject_visit"), 2 * hit, 2)
    for block in trip.blocks.values():
        per_team = [
            sum(
                node.place.scores[u] * route.visit[i]
                for i, node in enumerate(block.nodes)
                if node.meal is not None
            )
            for route in block.routes
        ]
        terms.append(block.teams.of_user(model, u, per_team, (-2 * len(MEALS), 2 * len(MEALS))))
        if losses is not None:
            _meal_losses(trip, u, block, losses)
    return sum(terms)


def _label(trip: TripModel, city: int) -> str:
    """The task's name of the model's city `city` (the city of its city-specific fields)."""
    return trip.place_sets[trip.frame.stops[city]].city.label


def _visit_losses(
    trip: TripModel, u: int, visits: dict[tuple[int, int, int], cp_model.LinearExprT], losses: Losses
) -> None:
    """Losing category fields of attraction visits (a place at most once per traveller)."""
    by_place: dict[tuple[int, str], list[tuple[Parts, cp_model.LinearExprT]]] = defaultdict(list)
    for (day, city, i), visit in visits.items():
        place = trip.blocks[(day, city)].nodes[i].place
        by_place[(city, place.place)].append((place.fields[u], visit))
    for (city, _), options in by_place.items():
        losses.add_exclusive(_label(trip, city), options)


def _meal_losses(trip: TripModel, u: int, block: Block, losses: Losses) -> None:
    """Losing meal fields of the user's team in one block (a meal of each kind at most)."""
    weights: dict[str, dict[int, int]] = defaultdict(dict)
    for i, node in enumerate(block.nodes):
        if node.meal is not None:
            for name, score in node.place.fields[u]:
                if score < 0:
                    weights[name][i] = -score
    for name, weight in weights.items():
        most = sum(
            max((weight.get(i, 0) for i in meal_nodes(block, meal)), default=0) for meal in range(len(MEALS))
        )
        per_team = [sum(w * route.visit[i] for i, w in weight.items()) for route in block.routes]
        loss = block.teams.of_user(trip.model, u, per_team, (0, most))
        losses.add((_label(trip, block.city), name), loss, most)


def _day_terms(
    trip: TripModel,
    u: int,
    user: ScoredUser,
    visits: dict[tuple[int, int, int], cp_model.LinearExprT],
    losses: Losses | None,
) -> cp_model.LinearExprT:
    """−2 per day over the attraction cap and −2 per day over the active-hours cap."""
    model = trip.model
    terms: list[cp_model.LinearExprT] = []
    for day in range(1, trip.frame.days + 1):
        keys = [key for key in trip.blocks if key[0] == day]
        if user.max_pois is not None:
            count = sum(visit for (d, _, _), visit in visits.items() if d == day)
            over = model.new_bool_var(f"overpoi{u}d{day}")
            model.add(count <= user.max_pois).only_enforce_if(over.Not())
            model.add(count >= user.max_pois + 1).only_enforce_if(over)
            terms.append(-2 * over)
            if losses is not None:
                losses.add((None, "intensity.max_poi_per_day"), 2 * over, 2)
        if user.max_minutes is not None:
            minutes = []
            for key in keys:
                block = trip.blocks[key]
                minutes.append(
                    block.teams.of_user(model, u, [route.moving for route in block.routes], (0, 3 * 1440))
                )
                minutes += [
                    block.nodes[i].place.service * visit
                    for (d, c, i), visit in visits.items()
                    if (d, c) == key
                ]
            over = model.new_bool_var(f"overmin{u}d{day}")
            model.add(sum(minutes) <= user.max_minutes).only_enforce_if(over.Not())
            model.add(sum(minutes) >= user.max_minutes + 1).only_enforce_if(over)
            terms.append(-2 * over)
            if losses is not None:
                losses.add((None, "intensity.max_active_hours"), 2 * over, 2)
    return sum(terms)


def _over_budget(trip: TripModel, u: int, user: ScoredUser, losses: Losses | None) -> cp_model.LinearExprT:
    """1 when the user's spend (legs, hotel nights priced on their dates, the user's meals, each
    at the lowest cost strict lets a plan declare: `verifier.strict.costs.lowest_cost_fen`) is
    over budget."""
    if user.max_spend_fen is None:
        return 0
    model, skeleton = trip.model, trip.skeleton
    spend: list[cp_model.LinearExprT] = [
        lowest_cost_fen(leg.option.fare_fen) * literal
        for options in skeleton.legs.values()
        for leg, literal, _ in options
    ]
    spend += [
        lowest_cost_fen(trip.place_sets[trip.frame.stops[city]].city.price_on(place, trip.frame.date(night)))
        * literal
        for (night, city), options in skeleton.hotels.items()
        for place, literal in options
    ]
    for block in trip.blocks.values():
        per_team = [
            sum(
                lowest_cost_fen(node.place.price_fen) * route.visit[i]
                for i, node in enumerate(block.nodes)
                if node.meal is not None
            )
            for route in block.routes
        ]
        spend.append(block.teams.of_user(model, u, per_team, (0, 10**9)))
    over = model.new_bool_var(f"overbudget{u}")
    model.add(sum(spend) <= user.max_spend_fen).only_enforce_if(over.Not())
    model.add(sum(spend) >= user.max_spend_fen + 1).only_enforce_if(over)
    if losses is not None:
        losses.add((None, "avg_budget"), 2 * over, 2)
    return over
