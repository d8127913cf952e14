"""The error base: one shape (field, problem, hint), one rendering, every package's errors on it."""

from __future__ import annotations

import ast
import importlib
import pickle
from pathlib import Path

import pytest

from runner.agents.registry import AgentSetupError
from runner.episode.errors import EpisodeInputError
from runner.episode.faults import FaultSpecError
from runner.gym import GymInputError
from runner.llm.config import LLMConfigError
from runner.loading.files import InputError
from runner.scoring.reliability import SuccessRuleError
from runner.solving.task_entries import TableError, TaskError
from runner.users.registry import UserSetupError
from sandbox.cache.store import CacheFileError
from sandbox.tools.registry import UnknownToolError
from sandbox.world.errors import WorldError
from solver.errors import TaskInputError
from solver.greedy import GreedyError
from solver.oracle.solve import OracleInputError
from verifier.errors import StructuredError
from verifier.official.poi_db import PoiDbError
from verifier.referee import WorldRequiredError


def test_message_is_field_then_problem() -> None:
    error = StructuredError("$.days[0].city", "unknown city")
    assert (str(error), error.field, error.problem, error.hint) == (
        "$.days[0].city: unknown city",
        "$.days[0].city",
        "unknown city",
        None,
    )
    assert error.render() == "$.days[0].city: unknown city"


def test_render_adds_the_hint_and_leaves_out_an_empty_field() -> None:
    assert StructuredError("seed", "must be 0 or more", "pass --seed 0").render() == (
        "seed: must be 0 or more; pass --seed 0"
    )
    assert StructuredError("", "no world").render() == "no world"
    assert str(StructuredError("", "no world")) == "no world"


def test_a_strict_run_without_a_world_says_what_to_do() -> None:
    error = WorldRequiredError("the strict profile needs a world (WorldFacts)")
    assert str(error) == "the strict profile needs a world (WorldFacts)"
    assert error.render() == (
        "the strict profile needs a world (WorldFacts); pass a world, or score with the official profile"
    )


@pytest.mark.parametrize(
    ("error", "builtin", "text"),
    [
        (TaskInputError("days", "none"), ValueError, "days: none"),
        (GreedyError("world", "no hotel"), ValueError, "world: no hotel"),
        (OracleInputError("metadata", "missing"), ValueError, "metadata: missing"),
        (WorldError("$.city", "unknown city"), ValueError, "$.city: unknown city"),
        (CacheFileError("x.json", "not an object"), ValueError, "x.json: not an object"),
        (UnknownToolError("fly"), ValueError, "unknown tool 'fly'; known tools: "),
        (PoiDbError("POI file p: not JSON"), ValueError, "POI file p: not JSON"),
        (WorldRequiredError("needs a world"), ValueError, "needs a world"),
        (AgentSetupError("planner", "none"), ValueError, "planner: none"),
        (UserSetupError("kind", "unknown"), ValueError, "kind: unknown"),
        (LLMConfigError("model", "empty"), ValueError, "model: empty"),
        (EpisodeInputError("users", "missing"), ValueError, "users: missing"),
        (InputError("a.json", "not JSON", where="line 3"), Exception, "a.json: line 3: not JSON"),
        (InputError(None, "nothing to answer"), Exception, "nothing to answer"),
        (TableError(TaskError("table", "no table")), Exception, "table: no table"),
        (GymInputError("action.content", "must be text"), ValueError, "action.content: must be text"),
        (FaultSpecError("every:0", "N must be 1 or more"), ValueError, "tool_faults: N must be 1 or more"),
        (SuccessRuleError("success", "must be 'strict'"), ValueError, "success: must be 'strict'"),
    ],
)
def test_every_package_error_is_structured_and_keeps_its_base(
    error: StructuredError, builtin: type[Exception], text: str
) -> None:
    assert isinstance(error, StructuredError)
    assert isinstance(error, builtin)
    assert str(error).startswith(text)
    assert error.render() == (f"{error}; {error.hint}" if error.hint else str(error))
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.field, copy.problem, copy.hint) == (
        type(error),
        str(error),
        error.field,
        error.problem,
        error.hint,
    )
    assert copy.__dict__ == error.__dict__


ROOT = Path(__file__).resolve().parents[3]
NOT_INPUT = {
    "runner.episode.conversation.ModelCallError": "a model call that failed for good",
    "runner.gym.environment._AbortedError": "the gym's own signal to its episode thread",
    "runner.runs.pool.WorkerLostError": "a worker process that died",
    "runner.saved.verify_cases.LineError": "one batch line's problem, written into its output line",
    "sandbox.cache.simulator.SimulatorError": "a tool simulator that could not answer",
}
"""Exception classes that are not on the error base, and why: failures, not bad input."""


def _exception_classes() -> dict[str, type[BaseException]]:
    """Every exception class of our packages whose name ends in `Error`, by dotted name."""
    found: dict[str, type[BaseException]] = {}
    for package in ("verifier", "sandbox", "solver", "runner"):
        for path in sorted((ROOT / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in tree.body:
                if isinstance(node, ast.ClassDef) and node.name.endswith("Error"):
                    value = getattr(importlib.import_module(module), node.name)
                    if issubclass(value, BaseException):
                        found[f"{module}.{node.name}"] = value
    return found


def test_every_input_error_of_ours_derives_from_the_base() -> None:
    classes = _exception_classes()
    assert len(classes) >= 25
    assert set(NOT_INPUT) <= set(classes)
    outside = sorted(name for name, value in classes.items() if not issubclass(value, StructuredError))
    assert outside == sorted(NOT_INPUT)
