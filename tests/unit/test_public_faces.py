"""Public faces: every package's `__init__` exports names that resolve, `__all__` matches what it
imports, and the four top-level faces load nothing until a name is used."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("verifier", "sandbox", "solver", "runner")
WITHOUT_FACE = {"runner.cli", "sandbox.curation", "solver.oracle"}
"""Packages that export nothing: the CLI and the curation scripts (commands, not API), and the
oracle's engine, whose API is the `solver` face (`solve_task`, `certify_record`, …)."""


def _package_names() -> list[str]:
    inits = sorted(f for package in PACKAGES for f in (ROOT / package).rglob("__init__.py"))
    return [".".join(f.relative_to(ROOT).parent.parts) for f in inits]


FACES = [name for name in _package_names() if name not in WITHOUT_FACE]


def _imports(name: str) -> dict[str, str]:
    """Name → module of every `from M import N` in the package's `__init__` (TYPE_CHECKING too)."""
    source = (ROOT / name.replace(".", "/") / "__init__.py").read_text(encoding="utf-8")
    return {
        alias.asname or alias.name: node.module
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGES)
        for alias in node.names
    }


def test_the_faces_are_the_packages_listed() -> None:
    assert set(_package_names()) >= WITHOUT_FACE
    assert {"verifier", "sandbox", "solver", "runner", "verifier.model", "verifier.official"} <= set(FACES)
    assert {"runner.solving", "runner.loading", "runner.gym"} <= set(FACES)


@pytest.mark.parametrize("name", FACES)
def test_every_exported_name_resolves_and_all_matches_the_imports(name: str) -> None:
    face = importlib.import_module(name)
    exported = face.__all__
    assert len(set(exported)) == len(exported)
    assert set(exported) == set(_imports(name))
    for public, module in _imports(name).items():
        assert getattr(face, public) is getattr(importlib.import_module(module), public)


@pytest.mark.parametrize("name", [face for face in FACES if hasattr(importlib.import_module(face), "_HOMES")])
def test_a_lazy_face_names_each_home_once(name: str) -> None:
    face = importlib.import_module(name)
    assert _imports(name) == face._HOMES
    with pytest.raises(AttributeError, match="has no attribute 'nothing_here'"):
        _ = face.nothing_here


def test_the_top_level_faces_load_nothing_until_used() -> None:
    code = "import json, sys, verifier, sandbox, solver, runner; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = {m for m in json.loads(done.stdout) if m.split(".")[0] in PACKAGES}
    assert loaded == {"verifier", "sandbox", "solver", "runner", "verifier.faces"}


def test_the_api_page_lists_every_top_level_name() -> None:
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    missing = {
        package: [name for name in importlib.import_module(package).__all__ if f"`{name}`" not in page]
        for package in PACKAGES
    }
    assert missing == {package: [] for package in PACKAGES}
