"""Imports point one way: verifier and sandbox import nothing of ours, solver only verifier."""

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


def _imported(source: str, package: str) -> set[str]:
    """Top-level packages of ours imported anywhere in a module of `package` (relative = own)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                found.add(package)
            elif node.module:
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
