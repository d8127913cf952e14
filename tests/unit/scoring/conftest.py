"""Fixtures of the scoring tests: the sample world and plans, run records built around them, and
an instant fake oracle whose answers are chosen per preference table."""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import pytest

from runner.sample.plans import Sample, build_sample
from runner.scoring import oracle_cache
from runner.scoring.oracle_cache import canonical_hash
from solver.oracle.result import OracleResult, Status, Witness
from solver.oracle.solve import OracleInputError, OracleSettings
from verifier.model.task import Task
from verifier.referee import verify


@pytest.fixture(scope="session")
def sample() -> Sample:
    return build_sample()


@pytest.fixture(scope="session")
def world_dir(sample: Sample, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("scoring") / "world"
    sample.world.save(root)
    return root


def compromised(table: dict[str, Any]) -> dict[str, Any]:
    """③ after one compromise: User1 no longer insists on 珠海普陀寺."""
    edited = copy.deepcopy(table)
    city = edited["User1"]["preference"]["city_specific_preferences"]["珠海市"]
    city["attractions"]["must_visit"] = []
    return edited


def inferred(table: dict[str, Any]) -> dict[str, Any]:
    """② as an agent might write it: flat tables, User2's food preferences missed."""
    flat = {user: copy.deepcopy(slot["preference"]) for user, slot in table.items()}
    flat["User2"]["city_specific_preferences"]["珠海市"]["food"] = {}
    return flat


def plan_message(plan: Any) -> dict[str, Any]:
    return {"type": "message", "role": "Agent", "content": f"```json\n{json.dumps(plan)}\n```"}


def record(sample: Sample, trial: int, plan: Any | None, **extra: Any) -> dict[str, Any]:
    """A §7.8-shaped success record of the sample task whose last Agent message holds `plan`."""
    original = sample.task.preference_table()
    history = [{"type": "message", "role": "User1", "content": "你好"}]
    return {
        "conversation_history": history if plan is None else [*history, plan_message(plan)],
        "agent_preference_table": inferred(original),
        "effective_preferences": compromised(original),
        "completion_reason": "plan_generated" if plan is not None else "max_turn_reached",
        "plan_generated": plan is not None,
        "original_preferences": original,
        "task_index": 0,
        "task_id": sample.task.task_id,
        "trial_id": trial,
        "success": True,
        "termination_reason": "plan_generated" if plan is not None else "max_turn_reached",
        "trial": trial,
        **extra,
    }


def failed(sample: Sample, trial: int) -> dict[str, Any]:
    return {
        "task_index": 0,
        "task_id": sample.task.task_id,
        "trial_id": trial,
        "success": False,
        "error": "runtime_error: boom",
        "completion_reason": "runtime_error",
        "plan_generated": False,
        "trial": trial,
    }


def official_gu(sample: Sample, plan: Any, table: dict[str, Any]) -> float:
    """The official GU total of `plan` against `table`, through `verify` (an independent path)."""
    verdict = verify(sample.task, plan, profile="official", poi_db=sample.poi_db, effective=table)
    assert verdict.gu is not None
    return float(verdict.gu.total_score)


class FakeOracle:
    """`solve_task` stand-in: per table (by canonical hash) a plan, bound and status; counts calls.
    A table that is not registered is refused as bad input."""

    def __init__(self) -> None:
        self.answers: dict[str, tuple[dict[str, Any], float, int, Status]] = {}
        self.both: dict[str, tuple[dict[str, Any], float]] = {}
        """Per table, the both-valid plan and its GU (none: the record has no both-valid plan)."""
        self.calls: list[str] = []
        self.delay_s = 0.0

    def answer(
        self,
        table: dict[str, Any],
        plan: dict[str, Any],
        *,
        objective: float,
        bound: int,
        status: Status,
        both: tuple[dict[str, Any], float] | None = None,
    ) -> None:
        self.answers[canonical_hash(table)] = (plan, objective, bound, status)
        if both is not None:
            self.both[canonical_hash(table)] = both

    def __call__(
        self,
        task: Task,
        world: Any,
        settings: OracleSettings,
        *,
        table: dict[str, Any] | None = None,
        official: Any = None,
    ) -> OracleResult:
        key = canonical_hash(table)
        self.calls.append(key)
        if key not in self.answers:
            raise OracleInputError("table", "not a table this fake knows")
        plan, objective, bound, status = self.answers[key]
        time.sleep(self.delay_s)
        both = None
        if key in self.both:
            both_plan, gu = self.both[key]
            both = Witness(both_plan, int(gu), int(gu), {}, "fake", ("strict", "official"), 0, 0)
        return OracleResult(
            task_id=task.task_id,
            status=status,
            objective=int(objective),
            bound=bound,
            per_user={},
            plan=plan,
            seconds=0.0,
            seed=settings.seed,
            workers=settings.workers,
            time_limit=settings.time_limit,
            gap_limit=settings.gap_limit,
            splits=settings.splits,
            splits_used=0,
            source="fake",
            both_valid=both,
            both_valid_missing=None if both else "no plan found that both profiles accept",
        )


@pytest.fixture
def fake_oracle(monkeypatch: pytest.MonkeyPatch) -> FakeOracle:
    fake = FakeOracle()
    monkeypatch.setattr(oracle_cache, "solve_task", fake)
    return fake
