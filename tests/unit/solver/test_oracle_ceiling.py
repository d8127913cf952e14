"""The oracle's compromise-aware ceiling: the definition on official results, and the model held to
it on tiny worlds by the exhaustive search (scored with the ceiling) and on the sample task."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model
from typer.testing import CliRunner

from runner.cli.app import app
from runner.loading.benchmark_data import sample_path
from sandbox.world.build import build_world
from solver.greedy_prefs import user_prefs as read_prefs
from solver.greedy_score import world_poi_db
from solver.oracle.ceiling import Waived, ceiling_value, compromisable_users, waived_fields
from solver.oracle.result import OracleResult
from solver.oracle.solve import OracleInputError, OracleSettings, solve_task
from solver.oracle.waivers import Losses, add_waivers, settle
from tests.fixtures.exhaustive import ExhaustiveResult, Matrix, exhaustive_optimum
from tests.fixtures.tiny_world import TinyWorld, city_prefs, tiny_cases, tiny_task, user_prefs
from tests.unit.solver.test_oracle_exhaustive import (
    HAND_MADE,
    MUSEUM_FAN,
    OLD_TOWN_FAN,
    THRIFTY,
    TIRED,
    WORLD,
    _perturbations,
)
from verifier.model.task import Task
from verifier.official.plan_view import build_view
from verifier.official.utility import evaluate_group_utility
from verifier.strict.profile import strict_violations
from verifier.world_facts import WorldFacts

SETTINGS = OracleSettings(time_limit=10, workers=1, seed=0, splits=False, objective="ceiling")

CONFLICTED = user_prefs(
    transport={"must": ["高铁"], "reject": ["高铁"]}, city=city_prefs(positive=["古镇"], negative=["古镇"])
)
"""Wants and rejects the train, likes and dislikes old towns: a train leg or an old-town visit
scores 0, so GU has no use for them (the old town is not even a node), while waiving
transport.reject and category_pref.negative makes them worth +2 and +1."""

COMPROMISING = {
    "opposed": tiny_task("opposed", [MUSEUM_FAN, OLD_TOWN_FAN], compromisable=["User2"]),
    "capped": tiny_task("capped", [TIRED, THRIFTY], compromisable=["User1", "User2"]),
    "trio": tiny_task("trio", [MUSEUM_FAN, OLD_TOWN_FAN, OLD_TOWN_FAN], compromisable=["User1", "User3"]),
    "conflicted": tiny_task("conflicted", [CONFLICTED, user_prefs()], compromisable=["User1"]),
}
"""Hand-made tasks of `WORLD` with compromisable users: opposed tastes, intensity and budget
caps, three users, and a user whose gains exist only once a field is waived."""


def _official(task: Task, plan: dict[str, Any], world: WorldFacts) -> dict[str, Any]:
    cities = tuple(c for name in task.metadata.cities if (c := world.city(name)))
    return evaluate_group_utility(
        build_view(plan, task.user_names), task.preference_table(), world_poi_db(world, cities)
    )


def _ceiling(task: Task, plan: dict[str, Any], world: WorldFacts) -> int:
    return ceiling_value(_official(task, plan, world), compromisable_users(task.preference_table()))


@dataclass(frozen=True)
class CeilingScoring:
    """The ceiling for the exhaustive search: a compromisable user's value is the sum of the
    user's field tables less the two most negative of them, pair by pair (restated from the
    definition, docs/runner.md#the-protocol-as-implemented: two compromises); a written plan is valued by
    `ceiling_value`."""

    compromisable: frozenset[str]

    def combine(self, user: str, fields: dict[str, Matrix]) -> Matrix | float:
        total = sum(fields.values(), start=0.0)
        if user not in self.compromisable or not fields:
            return total
        losing: Matrix = np.sort(np.minimum(np.stack(list(fields.values())), 0), axis=0)
        given_up: Matrix = losing[:2].sum(axis=0)
        return total - given_up

    def value(self, task: Task, plan: dict[str, Any], world: WorldFacts) -> int:
        return _ceiling(task, plan, world)


def _exhaustive_ceiling(task: Task, world: TinyWorld, *, splits: bool) -> ExhaustiveResult:
    scoring = CeilingScoring(compromisable_users(task.preference_table()))
    return exhaustive_optimum(task, world, splits=splits, tolerances=True, scoring=scoring)


def _check(task: Task, world: TinyWorld, result: OracleResult, *, splits: bool) -> None:
    """The ceiling record is consistent with its plan and with the exhaustive ceiling optimum; no
    greedy plan or perturbation of a plan found has a ceiling above the bound."""
    assert result.objective_kind == "ceiling"
    assert not [note for note in result.notes if "official ceiling" in note], result.notes
    if result.plan is not None:
        assert strict_violations(task, result.plan, world) == []
        official = _official(task, result.plan, world)
        compromisable = compromisable_users(task.preference_table())
        assert result.objective == ceiling_value(official, compromisable)
        assert result.extra["gu"] == official["total_score"]
        waived = waived_fields(official, compromisable)
        assert result.extra["waived"] == {u: [w.to_json() for w in ws] for u, ws in waived.items()}
    found = _exhaustive_ceiling(task, world, splits=splits)
    if found.value is not None:
        assert result.bound is not None and result.bound >= found.value, (result.bound, found.value)
    if result.status == "OPTIMAL" and found.exact and found.value is not None:
        assert result.objective == found.value, (result.objective, found.value, result.plan)
    for plan in _perturbations(task, world, [p for p in (result.plan, found.plan) if p]):
        assert result.bound is None or _ceiling(task, plan, world) <= result.bound, plan


@cache
def _solve(task_id: str, objective: str, splits: bool = False) -> OracleResult:
    task = COMPROMISING[task_id] if task_id in COMPROMISING else HAND_MADE[task_id]
    return solve_task(
        task, WORLD, OracleSettings(time_limit=10, workers=1, seed=0, splits=splits, objective=objective)
    )


def _details(*rows: tuple[str | None, str, int]) -> list[dict[str, Any]]:
    return [
        {"field": field, "score": score, **({} if city is None else {"city": city})}
        for city, field, score in rows
    ]


OFFICIAL = {
    "total_score": 3,
    "per_user": {
        "A": {
            "total_score": -9,
            "details": _details(
                ("深圳市", "must_visit", 2),
                ("深圳市", "reject_visit", -2),
                ("广州市", "reject_visit", -2),
                ("深圳市", "category_pref.negative", -1),
                ("深圳市", "category_pref.negative", -1),
                ("深圳市", "category_pref.negative", -1),
                (None, "intensity.max_poi_per_day", -2),
                (None, "intensity.max_poi_per_day", -2),
                (None, "transport.prefer", 1),
                (None, "avg_budget", -2),
            ),
        },
        "B": {
            "total_score": 9,
            "details": _details(
                (None, "avg_budget", -2), ("深圳市", "must_eat", 2), (None, "transport.must", 9)
            ),
        },
        "C": {"total_score": 3, "details": _details((None, "hotel_preference.prefer", 3))},
        "D": {"total_score": 0, "details": _details((None, "avg_budget", -2), ("深圳市", "reject_eat", -2))},
    },
}


def test_ceiling_value_gives_back_the_two_most_negative_fields_of_compromisable_users() -> None:
    """A: intensity −4 and category_pref.negative −3 in 深圳市 (reject_visit −2 in each city is a
    separate field); B is not compromisable; C loses nothing; D ties at −2, city-less first."""
    assert waived_fields(OFFICIAL, {"A", "C", "D"}) == {
        "A": (Waived(None, "intensity.max_poi_per_day", -4), Waived("深圳市", "category_pref.negative", -3)),
        "C": (),
        "D": (Waived(None, "avg_budget", -2), Waived("深圳市", "reject_eat", -2)),
    }
    assert ceiling_value(OFFICIAL, {"A", "C", "D"}) == 3 + 7 + 0 + 4
    assert ceiling_value(OFFICIAL, {"B"}) == 3 + 2
    assert ceiling_value(OFFICIAL, set()) == 3
    assert ceiling_value(OFFICIAL, {"nobody scored"}) == 3


def test_only_a_json_true_makes_a_user_compromisable() -> None:
    table = {"A": {"compromisable": True}, "B": {"compromisable": "true"}, "C": {}, "D": "x"}
    assert compromisable_users(table) == frozenset({"A"})
    assert compromisable_users([]) == frozenset()


def test_scores_split_by_field_sum_to_the_scores() -> None:
    """Both hard stages can fire (a meal category in must_eat and reject_eat, a mode in must and
    reject), prefer wins over avoid, and an item match leaves no category part."""
    prefs = read_prefs(
        user_prefs(
            transport={"must": ["高铁"], "reject": ["高铁"], "prefer": ["飞机"], "avoid": ["飞机"]},
            hotel_prefer=["舒适型"],
            hotel_avoid=["舒适型", "经济型"],
            city=city_prefs(
                reject=["老街"],
                positive=["古镇"],
                negative=["古镇"],
                food={"must_eat": ["火锅"], "reject_eat": ["火锅"], "avoid_eat": ["川菜"]},
            ),
        )
    )
    assert prefs.meal_fields("乙市", "蜀香楼", "火锅") == (("must_eat", 2), ("reject_eat", -2))
    assert prefs.meal_fields("乙市", "老川菜馆", "川菜") == (("avoid_eat", -1),)
    assert prefs.transport_fields("高铁") == (("transport.must", 2), ("transport.reject", -2))
    assert prefs.transport_fields("飞机") == (("transport.prefer", 1),)
    assert prefs.hotel_fields("舒适型") == (("hotel_preference.prefer", 1),)
    assert prefs.hotel_fields("经济型") == (("hotel_preference.avoid", -1),)
    assert prefs.attraction_fields("乙市", "古镇", "古镇") == (
        ("category_pref.positive", 1),
        ("category_pref.negative", -1),
    )
    assert prefs.attraction_fields("乙市", "古镇老街", "古镇") == ()
    assert (prefs.meal("乙市", "蜀香楼", "火锅"), prefs.transport("高铁"), prefs.hotel("经济型")) == (
        0,
        0,
        -1,
    )


def test_settle_waives_the_two_largest_losses_and_gains_them() -> None:
    model = cp_model.CpModel()
    x, y, z = (model.new_bool_var(name) for name in "xyz")
    losses = Losses()
    losses.add(("乙市", "reject_eat"), 2 * x, 2)
    losses.add((None, "avg_budget"), 2 * y, 2)
    losses.add((None, "transport.avoid"), z, 1)
    losses.add((None, "hotel_preference.avoid"), z, 0)
    gain, waivers = add_waivers(model, 0, losses)
    assert [w.key for w in waivers] == [
        (None, "avg_budget"),
        (None, "transport.avoid"),
        ("乙市", "reject_eat"),
    ]
    solution = [0] * len(model.proto.variables)
    for variable in (x, y, z):
        solution[variable.index] = 1
    for w in waivers:
        solution[w.loss.index] = {"avg_budget": 2, "transport.avoid": 1, "reject_eat": 2}[w.key[1]]
    settled = settle(waivers, solution)
    assert [(settled[w.waived.index], settled[w.gain.index]) for w in waivers] == [(1, 2), (0, 0), (1, 2)]
    model.add(gain == 4)
    for index, value in enumerate(settled):
        model.add(model.get_int_var_from_proto_index(index) == value)
    assert cp_model.CpSolver().solve(model) == cp_model.OPTIMAL


def test_a_fairness_floor_is_refused_with_the_ceiling() -> None:
    with pytest.raises(OracleInputError) as error:
        solve_task(COMPROMISING["opposed"], WORLD, OracleSettings(objective="ceiling", gf_floor=50))
    assert (error.value.field, error.value.problem) == (
        "gf_floor",
        "a fairness floor does not apply to the ceiling objective",
    )


@pytest.mark.parametrize("task_id", sorted(COMPROMISING))
def test_ceiling_matches_exhaustive_search_on_hand_made_tasks(task_id: str) -> None:
    result = _solve(task_id, "ceiling")
    assert result.status == "OPTIMAL"
    _check(COMPROMISING[task_id], WORLD, result, splits=False)


def test_ceiling_with_splits_is_consistent_and_bounded() -> None:
    _check(COMPROMISING["opposed"], WORLD, _solve("opposed", "ceiling", splits=True), splits=True)


def test_ceiling_is_at_least_gu_and_waivers_matter() -> None:
    """Per task the ceiling optimum is at least the GU optimum (the GU-optimal plan's ceiling
    is at least its GU), and strictly more here; the conflicted user's old town and trains only
    count once a field is waived."""
    values = {}
    for task_id in sorted(COMPROMISING):
        gu, ceiling = _solve(task_id, "gu"), _solve(task_id, "ceiling")
        assert gu.status == ceiling.status == "OPTIMAL" and gu.objective is not None
        values[task_id] = (gu.objective, ceiling.objective)
    assert values == {"capped": (9, 11), "conflicted": (0, 5), "opposed": (10, 17), "trio": (17, 18)}
    plan = json.dumps(_solve("conflicted", "ceiling").plan, ensure_ascii=False)
    assert "古镇老街" in plan and plan.count('"高铁"') == 2


@pytest.mark.parametrize("task_id", ["agree", "disagree", "tired_and_thrifty"])
def test_without_compromisable_users_the_ceiling_is_the_gu_optimum(task_id: str) -> None:
    gu, ceiling = _solve(task_id, "gu"), _solve(task_id, "ceiling")
    same = ("status", "objective", "bound", "per_user", "plan", "source")
    assert [getattr(ceiling, key) for key in same] == [getattr(gu, key) for key in same]
    assert ceiling.extra == {**gu.extra, "waived": {}}


@pytest.mark.parametrize("task_id", sorted(COMPROMISING))
def test_trivial_bound_alone_covers_the_exhaustive_ceiling(
    task_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no time for a relaxed model the bound is `bounds.trivial_bounds`, under waivers too."""
    monkeypatch.setattr("solver.oracle.solve.MIN_BOUND_SECONDS", 1e9)
    task = COMPROMISING[task_id]
    result = solve_task(task, WORLD, OracleSettings(time_limit=2, workers=1, seed=0, objective="ceiling"))
    found = _exhaustive_ceiling(task, WORLD, splits=True)
    assert result.bound is not None and found.value is not None and result.bound >= found.value


@st.composite
def _compromising_cases(draw: st.DrawFn) -> tuple[Task, TinyWorld]:
    task, world = draw(tiny_cases())
    table = task.preference_table()
    chosen = draw(st.lists(st.sampled_from(sorted(table)), min_size=1, unique=True))
    prefs = [table[user]["preference"] for user in sorted(table)]
    return tiny_task("tiny_ceiling", prefs, task.time, compromisable=chosen), world


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking: each example solves a model
)
@given(case=_compromising_cases())
def test_ceiling_matches_exhaustive_search_on_generated_tasks(case: tuple[Task, TinyWorld]) -> None:
    task, world = case
    _check(task, world, solve_task(task, world, SETTINGS), splits=False)


def test_cli_ceiling_on_the_sample_task(tmp_path: Path) -> None:
    """`tripwright oracle --objective ceiling` on the sample task (User2 compromisable)."""
    raw = json.loads(sample_path("task.json").read_text(encoding="utf-8"))
    task, world = Task.model_validate(raw), build_world([raw], seed=1)
    world.save(tmp_path / "world")
    args = ["oracle", "--tasks", str(sample_path("task.json")), "--world", str(tmp_path / "world")]
    options = ["--time-limit", "3", "--workers", "1", "--no-splits", "--objective", "ceiling"]
    result = CliRunner().invoke(app, [*args, *options])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    assert record["objective_kind"] == "ceiling" and list(record["extra"]["waived"]) == ["User2"]
    plan = record["plan"]
    assert strict_violations(task, plan, world) == []
    assert record["objective"] == _ceiling(task, plan, world) and record["bound"] >= record["objective"]
    assert record["extra"]["gu"] == _official(task, plan, world)["total_score"]
    assert not [note for note in record["notes"] if "official ceiling" in note]
