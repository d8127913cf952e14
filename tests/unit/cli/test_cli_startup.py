"""The CLI starts light: which modules `import runner.cli.app` and single commands load.

Each case runs in a fresh interpreter and asserts on `sys.modules` (deterministic, unlike a
time): the command modules import the engine inside their commands, so `tripwright --help` and
`tripwright verify` never load the numeric stack, the sandbox, the solver or the runs engine.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from runner.loading.benchmark_data import sample_path
from tests.fixtures.zhuhai import POI_PATH, plan_path

HEAVY = (
    "numpy",
    "pandas",
    "shapely",
    "faiss",
    "ortools",
    "matplotlib",
    "rich.table",
    "sandbox",
    "solver",
    "runner.episode",
    "runner.runs",
    "runner.scoring",
    "runner.report",
    "runner.judge",
    "runner.llm",
)
"""Modules (and their submodules) that no start-up path here may load."""

ERROR_BASE = {"verifier", "verifier.errors", "verifier.faces"}
"""The verifier modules every command loads: the package's lazy face, the error base and the
faces' shared lazy import (`verifier.faces`)."""

LOADED = """
import json, sys
from runner.cli.app import app
args = sys.argv[1:]
if args:
    try:
        app(args)
    except SystemExit:
        pass
print(json.dumps(sorted(sys.modules)))
"""
"""Imports the app, runs the command given in argv (if any), prints the loaded modules."""

VERIFY = [
    "verify",
    "--task",
    str(sample_path("task.json")),
    "--plan",
    str(plan_path("good")),
    "--poi-db",
    str(POI_PATH),
]


def _loaded(*args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *args], capture_output=True, text=True, check=True, timeout=120
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def _heavy(modules: set[str], allowed: tuple[str, ...] = ()) -> list[str]:
    return sorted(
        name
        for name in modules
        for heavy in HEAVY
        if heavy not in allowed and (name == heavy or name.startswith(heavy + "."))
    )


def test_importing_the_app_loads_no_engine() -> None:
    modules = _loaded()
    assert _heavy(modules) == []
    assert not {"pydantic", "rich"} & {name.split(".")[0] for name in modules}
    assert {name for name in modules if name.split(".")[0] == "verifier"} == ERROR_BASE


@pytest.mark.parametrize("extra", [["--json"], []], ids=["json", "tables"])
def test_verify_loads_only_the_verifier(extra: list[str]) -> None:
    modules = _loaded(*VERIFY, *extra)
    assert "verifier.referee" in modules
    assert _heavy(modules, allowed=() if extra else ("rich.table",)) == []
    assert "verifier.strict.profile" not in modules


def test_help_loads_no_engine() -> None:
    modules = _loaded("--help")
    assert "typer" in modules
    assert _heavy(modules, allowed=("rich.table",)) == []
    assert {name for name in modules if name.split(".")[0] == "verifier"} == ERROR_BASE


def test_engine_errors_are_recognised_once_their_modules_are_loaded() -> None:
    from concurrent.futures.process import BrokenProcessPool

    from runner.cli.support import WORKER_DIED, WORLD_HINT, structured_message
    from sandbox.cache.store import CacheFileError
    from sandbox.world.errors import WorldError
    from verifier.referee import WorldRequiredError

    assert structured_message(WorldError("$.city", "unknown city")) == "$.city: unknown city"
    assert structured_message(CacheFileError("x.json", "not an object")) == "x.json: not an object"
    assert structured_message(WorldRequiredError("no world")) == WORLD_HINT
    assert structured_message(BrokenProcessPool("gone")) == WORKER_DIED
    assert structured_message(ValueError("plain")) is None
