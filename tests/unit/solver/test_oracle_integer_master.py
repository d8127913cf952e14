"""The integer master's intensity caps on days that span blocks (`integer_master._charge_days`):
a day cut by a transition is charged on the sum of its blocks, as the official rule charges it,
and no other day changes."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from ortools.sat.python import cp_model

from solver.oracle.blocks import trip_facts
from solver.oracle.clock import Clock
from solver.oracle.colgen import ColumnGeneration
from solver.oracle.integer_master import _charge_days, pool_master
from solver.oracle.pricing import Column
from solver.oracle.scores import ScoredUser, official_categories, scored_users
from solver.oracle.solve import city_catalogs, frame_facts
from tests.fixtures.preferences import city, prefs, with_prefs
from tests.fixtures.strict_world import TASK_A
from tests.fixtures.strict_world import WORLD as STRICT_WORLD


def _user(max_pois: int | None, max_minutes: int | None) -> ScoredUser:
    task = with_prefs(TASK_A, prefs())
    user = scored_users(task, task.preference_table())[0]
    return replace(user, max_pois=max_pois, max_minutes=max_minutes)


def _column(day: int, city: str, attractions: int, active: int, *, loose: bool, value: int = 0) -> Column:
    visits = tuple((f"{city}{k}", 600 + 60 * k, None) for k in range(attractions))
    return Column((day, city), (0,), loose, value, (), visits, active)


def _charged(users: list[ScoredUser], columns: list[Column], taken: list[bool]) -> tuple[list[int], int]:
    """`_charge_days`' column values, and the day charges when `taken` are the columns chosen."""
    model = cp_model.CpModel()
    literals = [model.new_bool_var("") for _ in columns]
    objective: list[tuple[Fraction, cp_model.IntVar]] = []
    worth, _ = _charge_days(model, users, columns, literals, objective)
    for literal, chosen in zip(literals, taken, strict=True):
        model.add(literal == int(chosen))
    model.maximize(sum(int(c) * v for c, v in objective))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(model) == cp_model.OPTIMAL
    return worth, round(solver.objective_value)


def test_a_transition_day_is_charged_on_the_sum_of_its_blocks() -> None:
    """Caps of 3 attractions and 240 minutes; day 2 moves from 海口 to 三亚. The two loose
    blocks together (4 attractions, 250 minutes) break both caps: −4; either alone breaks none."""
    users = [_user(3, 240)]
    morning = _column(2, "海口市", 2, 100, loose=True)
    evening = _column(2, "三亚市", 2, 150, loose=True)
    worth, charge = _charged(users, [morning, evening], [True, True])
    assert worth == [0, 0] and charge == -4
    assert _charged(users, [morning, evening], [True, False])[1] == 0
    assert _charged(users, [morning, evening], [False, True])[1] == 0


def test_a_block_that_charged_its_own_caps_gives_them_back_on_a_transition_day() -> None:
    """A column that is not loose charged what its block alone breaks (here the count: 4 > 3,
    value 5 − 2 = 3); on a day some loose column covers, it gives that back (worth 5) and the
    day is charged once on the sum (4 + 1 attractions: −2, not −2 twice)."""
    users = [_user(3, None)]
    whole = _column(2, "海口市", 4, 200, loose=False, value=3)
    after = _column(2, "三亚市", 1, 60, loose=True)
    worth, charge = _charged(users, [whole, after], [True, True])
    assert worth == [5, 0] and charge == -2


def test_days_without_a_loose_column_keep_their_own_charges() -> None:
    """Day 1 has no loose column: its column keeps the value it was priced at, and no day
    charge is added, whatever it breaks."""
    users = [_user(1, 60)]
    day_one = _column(1, "海口市", 3, 300, loose=False, value=-1)
    worth, charge = _charged(users, [day_one], [True])
    assert worth == [-1] and charge == 0


def test_the_integer_master_of_a_capped_two_city_task_stays_within_the_bound() -> None:
    """TASK_A (海口 and 三亚) with caps of one attraction and two hours a day for its first user:
    the pattern, its transition days charged on their sums, is worth no more than the decomposed
    bound."""
    table = prefs(
        海口市=city([], [], ["博物馆", "历史街区", "自然风光"], []),
        三亚市=city([], [], ["自然风光", "公园", "夜市"], []),
    )
    table["global_constraints"]["intensity"] = {"max_poi_per_day": 1, "max_active_hours": 2}
    task = with_prefs(TASK_A, table)
    days, start, home, keys = frame_facts(task, STRICT_WORLD)
    users = scored_users(task, task.preference_table())
    assert users[0].max_pois == 1 and users[0].max_minutes == 120
    cities = city_catalogs(task, STRICT_WORLD, keys, users, official_categories(STRICT_WORLD, keys))
    generation = ColumnGeneration(trip_facts(days, start, home, cities), cities, users, True)
    run = generation.run(Clock(2))
    assert any(column.loose for column in generation.columns)
    # the labelling gives every column its active minutes: travel and visits
    assert all(column.active > 0 for column in generation.columns if column.attractions)
    pattern, _ = pool_master(generation.master_skeleton, generation.columns, Clock(10), seconds=5, seed=0)
    assert pattern is not None and run.bound is not None
    assert pattern.value <= run.bound
