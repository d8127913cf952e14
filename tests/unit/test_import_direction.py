"""Imports point one way: verifier and sandbox import nothing of ours, solver only verifier;
the exceptions are the two verifier modules that import nothing of ours: the error base
`verifier.errors`, which every package's errors derive from, and `verifier.faces`, which every
package's lazy public face uses."""

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
SHARED = ("verifier.errors", "verifier.faces")
"""The modules of ours any package may import."""


def _imported(source: str, package: str) -> set[str]:
    """Top-level packages of ours imported anywhere in a module of `package` (relative = own),
    leaving out imports of `SHARED`."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names if alias.name not in SHARED)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                found.add(package)
            elif node.module and node.module not in SHARED:
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


def test_scanner_lets_every_package_import_the_shared_modules_only() -> None:
    source = "import verifier.errors\nfrom verifier.errors import StructuredError\nimport verifier.faces\n"
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


def test_the_runtime_world_never_imports_the_curation_scripts() -> None:
    curation = ROOT / "sandbox" / "curation"
    runtime = [f for f in sorted((ROOT / "sandbox").rglob("*.py")) if curation not in f.parents]
    assert runtime
    wrong = [
        str(f.relative_to(ROOT))
        for f in runtime
        if any(
            isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sandbox.curation")
            for node in ast.walk(ast.parse(f.read_text(encoding="utf-8")))
        )
    ]
    assert wrong == []


def test_engine_never_imports_the_cli() -> None:
    cli = ROOT / "runner" / "cli"
    engine = [f for f in sorted((ROOT / "runner").rglob("*.py")) if cli not in f.parents]
    assert engine
    assert [str(f.relative_to(ROOT)) for f in engine if _imports_cli(f.read_text(encoding="utf-8"))] == []


def test_cli_scanner_sees_every_form() -> None:
    assert _imports_cli("import runner.cli.app\n")
    assert _imports_cli("from runner.cli.support import out\n")
    assert _imports_cli("from runner import cli\n")
    assert not _imports_cli("from runner import aggregate\nimport runner.loading.files\n")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _targets(node: ast.Import | ast.ImportFrom, importer: str, is_package: bool, known: set[str]) -> set[str]:
    """The modules of ours one import statement names (`from p import m` names `p.m` when m is a
    module, else `p`; a relative import is resolved against the importer's package)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = importer if is_package else importer.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{base}" if base else package
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
    found: set[str] = set()
    for name in names:
        module = name
        while module and module not in known:
            module = module.rpartition(".")[0]
        if module:
            found.add(module)
    return found


def _import_graph(files: list[Path]) -> dict[str, set[str]]:
    """Module → the modules of ours it imports anywhere (TYPE_CHECKING and function bodies too)."""
    known = {_module_name(f) for f in files}
    graph: dict[str, set[str]] = {}
    for path in files:
        name = _module_name(path)
        nodes = ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        imports = [n for n in nodes if isinstance(n, ast.Import | ast.ImportFrom)]
        edges = set().union(*(_targets(n, name, path.name == "__init__.py", known) for n in imports))
        graph[name] = edges - {name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def test_no_import_circle() -> None:
    files = sorted(f for package in OURS for f in (ROOT / package).rglob("*.py"))
    assert _circles(_import_graph(files)) == []


def test_circle_finder_sees_a_circle_through_a_type_only_import() -> None:
    graph = {"a.x": {"a.y"}, "a.y": {"a.z"}, "a.z": {"a.x"}, "a.w": {"a.x"}}
    assert _circles(graph) == [["a.x", "a.y", "a.z"]]
    known = {"runner", "runner.runs", "runner.runs.trial", "runner.runs.cast"}
    node = ast.parse("if TYPE_CHECKING:\n    from runner.runs.trial import RunJob\n").body[0].body[0]  # type: ignore[attr-defined]
    assert _targets(node, "runner.runs.cast", False, known) == {"runner.runs.trial"}
    relative = ast.parse("from . import cast\n").body[0]
    assert isinstance(relative, ast.ImportFrom)
    assert _targets(relative, "runner.runs", True, known) == {"runner.runs.cast"}
