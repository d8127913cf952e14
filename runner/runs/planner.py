"""The baselines' planner: the oracle through the run's disk cache, so every trial (and the
scoring after the run) solves a (task, table) once."""

from __future__ import annotations

from typing import Any

from runner.scoring.oracle_cache import OracleCache
from sandbox.world.world import World
from verifier.model.task import Task


class CachedOraclePlanner:
    """A `runner.agents.baselines.Planner` answering from `OracleCache.solve`."""

    def __init__(self, oracle: OracleCache, world: World) -> None:
        self.oracle, self.world = oracle, world

    def __call__(self, task: Task, table: dict[str, Any]) -> dict[str, Any] | None:
        return self.oracle.solve(task, self.world, table).plan

    def describe(self) -> dict[str, Any]:
        """The same description as the uncached oracle planner (where the cache lives is not part
        of a record)."""
        settings = self.oracle.settings
        return {"name": "oracle", "time_limit": settings.time_limit, "seed": settings.seed}
