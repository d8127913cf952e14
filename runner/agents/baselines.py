"""Built-in agents without a model: the ceiling, the no-questions floor and a scripted interviewer.

- `OracleAgent` knows the task's own preference table ① and answers its first turn (the opening
  convergence) with the plan for it: the ceiling of what a perfect elicitor could get from the
  same planner.
- `SilentAgent` reads table ② from the opening messages alone (`runner.agents.extract`) and
  emits the plan for it at its first turn.
- `ScriptedAgent` interviews each traveller once (`runner.agents.elicit`), then emits the plan
  for the table it heard; at the final-plan request it plans with what it has.

On a derived unsolvable variant (`runner.tasks.certificates.declares_unsolvable`) `scripted` and
`silent` first check the table they would plan for against the world (`check_table`): when a wish
in it is certifiably unmeetable (a budget below every strict-valid plan's spend, a required mode
with no service, a must-visit closed all trip), they say so with the facts instead of planning
(`refusal_message`). GroupTravelBench's own tasks score wishes as preferences, so there they plan.

All three plan through an injected `Planner` (task, table → plan JSON or None; the runs layer
can pass a cached oracle), read the world directly and make no tool calls; a summary request is
answered with table ② as JSON, and a plan is sent as the §1.1 JSON in a ```json fence, which
`verifier.official.extraction.check_is_travel_plan` detects. They call no model (`Usage()` zero)
and are deterministic; the seed is only recorded.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from runner.agents.elicit import interview, question
from runner.agents.vocab import Vocabulary
from runner.episode.conversation import AgentRequest, AgentStep, Purpose, message
from runner.tasks.certificates import check_table, declares_unsolvable, refusal_message
from sandbox.world.world import World
from solver.greedy import greedy_plan
from solver.oracle.solve import OracleSettings, solve_task
from verifier.model.task import Task
from verifier.world_facts import WorldFacts

Planner = Callable[[Task, dict[str, Any]], dict[str, Any] | None]
"""Plans a task for a preference table (② shape, or the task's own ①); None when it finds none."""

NO_PLAN = "抱歉，我没能排出一份可行的行程。"


class OraclePlanner:
    """A `Planner` running the CP-SAT oracle (`solve_task`) on the given table."""

    def __init__(self, world: WorldFacts, settings: OracleSettings) -> None:
        self.world, self.settings = world, settings

    def __call__(self, task: Task, table: dict[str, Any]) -> dict[str, Any] | None:
        return solve_task(task, self.world, self.settings, table=table).plan

    def describe(self) -> dict[str, Any]:
        """The planner's name and oracle settings."""
        return {"name": "oracle", "time_limit": self.settings.time_limit, "seed": self.settings.seed}


class GreedyPlanner:
    """A `Planner` running the greedy constructive planner (fast; the oracle's warm start)."""

    def __init__(self, world: WorldFacts) -> None:
        self.world = world

    def __call__(self, task: Task, table: dict[str, Any]) -> dict[str, Any] | None:
        return greedy_plan(task, self.world, effective=table)

    def describe(self) -> dict[str, Any]:
        """The planner's name."""
        return {"name": "greedy"}


def oracle_planner(world: WorldFacts, settings: OracleSettings) -> Planner:
    """A planner solving with the oracle under `settings` (its `.plan`)."""
    return OraclePlanner(world, settings)


def describe_planner(planner: Planner) -> dict[str, Any]:
    """What a record says about a planner: its own `describe()`, else its name."""
    describe = getattr(planner, "describe", None)
    if callable(describe):
        found: dict[str, Any] = describe()
        return found
    return {"name": getattr(planner, "__qualname__", type(planner).__name__)}


def plan_message(plan: dict[str, Any] | None) -> str:
    """The chat message carrying a plan in a ```json fence (or saying there is none)."""
    if plan is None:
        return NO_PLAN
    return f"这是为大家排好的行程：\n```json\n{json.dumps(plan, ensure_ascii=False)}\n```"


def table_message(table: dict[str, Any]) -> str:
    """A summary reply: table ② as JSON in a ```json fence."""
    return f"```json\n{json.dumps(table, ensure_ascii=False, indent=1)}\n```"


class _Baseline:
    """What the three share: the planner (run once per table), description and summaries."""

    name = "baseline"

    def __init__(self, task: Task, planner: Planner, *, seed: int) -> None:
        self.task, self.planner, self.seed = task, planner, seed
        self.world: World | None = None
        """Set by the agents that check a table against the world before planning for it."""
        self._plans: dict[str, dict[str, Any] | None] = {}

    def describe(self) -> dict[str, Any]:
        """Name, seed and planner; baselines call no model and no tool."""
        return {
            "name": self.name,
            "seed": self.seed,
            "tools": False,
            "planner": describe_planner(self.planner),
        }

    def plan_step(self, table: dict[str, Any]) -> AgentStep:
        """The step emitting the plan for `table` (planned once per distinct table), or the refusal
        naming the facts when the world certifies a wish of it unmeetable."""
        if self.world is not None and declares_unsolvable(self.task):
            certificate = check_table(self.task, self.world, table)
            if certificate is not None:
                return AgentStep(refusal_message(certificate))
        key = json.dumps(table, ensure_ascii=False, sort_keys=True)
        if key not in self._plans:
            self._plans[key] = self.planner(self.task, table)
        return AgentStep(plan_message(self._plans[key]))


class OracleAgent(_Baseline):
    """Plans for the task's own table at its first turn."""

    name = "oracle"

    def step(self, request: AgentRequest) -> AgentStep:
        """Table ① (as ②) for a summary, the plan for ① otherwise."""
        if request.purpose is Purpose.SUMMARY:
            truth = {user: slot.get("preference", {}) for user, slot in self.task.preference_table().items()}
            return AgentStep(table_message(truth))
        return self.plan_step(self.task.preference_table())


class SilentAgent(_Baseline):
    """Plans for what the opening messages say, at its first turn."""

    name = "silent"

    def __init__(self, task: Task, planner: Planner, world: World, *, seed: int) -> None:
        super().__init__(task, planner, seed=seed)
        self.world = world
        cities = list(task.metadata.cities)
        opening = [message(m.role, m.content) for m in task.initial_messages]
        self.table = interview(opening, task.user_names, cities, Vocabulary.of(world, cities)).table

    def step(self, request: AgentRequest) -> AgentStep:
        """Table ② for a summary, the plan for it otherwise."""
        if request.purpose is Purpose.SUMMARY:
            return AgentStep(table_message(self.table))
        return self.plan_step(self.table)


class ScriptedAgent(_Baseline):
    """Asks each traveller about every field, one @-mention a message, then plans."""

    name = "scripted"

    def __init__(self, task: Task, planner: Planner, world: World, *, seed: int) -> None:
        super().__init__(task, planner, seed=seed)
        self.world = world
        self.cities = list(task.metadata.cities)
        self.vocab = Vocabulary.of(world, self.cities)

    def step(self, request: AgentRequest) -> AgentStep:
        """Table ② for a summary; the next question while someone is unasked (except at the
        final-plan request); the plan for ② otherwise."""
        state = interview(request.history, self.task.user_names, self.cities, self.vocab)
        if request.purpose is Purpose.SUMMARY:
            return AgentStep(table_message(state.table))
        user = state.next_user(self.task.user_names)
        if user is not None and request.purpose is not Purpose.FINAL_PLAN:
            return AgentStep(question(user, self.cities))
        return self.plan_step(state.table)
