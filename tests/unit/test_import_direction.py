"""Imports point one way: verifier and sandbox import nothing of ours, solver only verifier;
the one exception is the error base `verifier.errors` (it imports nothing), which every package's
errors derive from."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OURS = ("verifier", "sandbox", "solver", "runner")
ALLOWED = {
    "verifier": {"verifier"},
    "sandbox": {"sandbox"},
    "solver": {"solver", "verifier"},
    "runner": set(OURS),
}
ERROR_BASE = "verifier.errors"
"""The one module of ours any package may import."""


def _imported(source: str, package: str) -> set[str]:
    """Top-level packages of ours imported anywhere in a module of `package` (relative = own),
    leaving out imports of `ERROR_BASE`."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names if alias.name != ERROR_BASE)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                found.add(package)
            elif node.module and node.module != ERROR_BASE:
                found.add(node.module.split(".")[0])
    return found & set(OURS)


def _imported_packages(path: Path) -> set[str]:
    return _imported(path.read_text(encoding="utf-8"), path.relative_to(ROOT).parts[0])


@pytest.mark.parametrize("package", OURS)
def test_package_imports_only_what_it_may(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files, f"package {package} has no modules"
    wrong = {
        str(f.relative_to(ROOT)): sorted(_imported_packages(f) - ALLOWED[package])
        for f in files
        if _imported_packages(f) - ALLOWED[package]
    }
    assert wrong == {}


def test_scanner_sees_nested_and_relative_imports() -> None:
    source = (
        "import json\ndef f():\n    import runner.cli\n    from sandbox.world import world\nfrom . import x\n"
    )
    assert _imported(source, "verifier") == {"runner", "sandbox", "verifier"}


def test_scanner_lets_every_package_import_the_error_base_only() -> None:
    source = "import verifier.errors\nfrom verifier.errors import StructuredError\n"
    assert _imported(source, "sandbox") == set()
    assert _imported("from verifier.model.task import Task\n", "sandbox") == {"verifier"}
    assert _imported("from verifier import errors\n", "sandbox") == {"verifier"}


def _imports_cli(source: str) -> bool:
    """Whether a module imports `runner.cli` or anything under it."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import) and any(a.name.startswith("runner.cli") for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("runner.cli"):
            return True
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "runner"
            and any(a.name == "cli" for a in node.names)
        ):
            return True
    return False


def test_engine_never_imports_the_cli() -> None:
    cli = ROOT / "runner" / "cli"
    engine = [f for f in sorted((ROOT / "runner").rglob("*.py")) if cli not in f.parents]
    assert engine
    assert [str(f.relative_to(ROOT)) for f in engine if _imports_cli(f.read_text(encoding="utf-8"))] == []


def test_cli_scanner_sees_every_form() -> None:
    assert _imports_cli("import runner.cli.app\n")
    assert _imports_cli("from runner.cli.support import out\n")
    assert _imports_cli("from runner import cli\n")
    assert not _imports_cli("from runner import aggregate\nimport runner.io\n")
