"""The world package's modules import each other without a circle (type-only imports included)."""

from __future__ import annotations

import ast
from pathlib import Path

WORLD = Path(__file__).resolve().parents[4] / "sandbox" / "world"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    return {name.removeprefix("sandbox.world.") for name in found if name.startswith("sandbox.world.")}


def test_no_import_circle() -> None:
    graph = {path.stem: _imports(path) for path in WORLD.glob("*.py")}
    done: set[str] = set()

    def visit(module: str, trail: tuple[str, ...]) -> None:
        assert module not in trail, " → ".join((*trail, module))
        if module in done:
            return
        for target in sorted(graph.get(module, ())):
            visit(target, (*trail, module))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())
    assert graph["official_caches"] == {"import_report", "model"}
