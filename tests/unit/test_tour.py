"""The newcomer's tour (docs/tour.md) names only what exists: every file or folder it cites, every
name it lists after a module, every dotted name of ours and every `tripwright` command."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import typer

ROOT = Path(__file__).resolve().parents[2]
TOUR = (ROOT / "docs" / "tour.md").read_text(encoding="utf-8")
PATH = re.compile(r"`((?:[\w.-]+/)+(?:[\w.-]+\.\w+)?|[\w-]+\.(?:py|toml|md))`")
NAMES_AFTER_MODULE = re.compile(r"`((?:[\w-]+/)+[\w-]+\.py)` \(((?:`\w+`(?:, )?)+)\)")
DOTTED = re.compile(r"`((?:verifier|sandbox|solver|runner)(?:\.\w+)+)`")
COMMAND = re.compile(r"`tripwright (\w[\w-]*)")


def _module(path: str) -> str:
    parts = Path(path).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolves(dotted: str) -> bool:
    """Whether a dotted name is a module of ours or a name reachable from one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            if not hasattr(value, name):
                return False
            value = getattr(value, name)
        return True
    return False


def _commands() -> set[str]:
    from runner.cli.app import app

    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    return set(group.commands)


def missing(text: str, commands: set[str]) -> list[str]:
    """Everything `text` cites that does not exist, as `kind: what`."""
    wrong = [f"path: {path}" for path in PATH.findall(text) if not (ROOT / path).exists()]
    for path, names in NAMES_AFTER_MODULE.findall(text):
        for name in re.findall(r"`(\w+)`", names):
            if (ROOT / path).is_file() and not _resolves(f"{_module(path)}.{name}"):
                wrong.append(f"name: {path} ({name})")
    wrong += [f"dotted: {name}" for name in DOTTED.findall(text) if not _resolves(name)]
    wrong += [f"command: {name}" for name in COMMAND.findall(text) if name not in commands]
    return wrong


def test_everything_the_tour_cites_exists() -> None:
    assert len(PATH.findall(TOUR)) >= 30
    assert sum(len(re.findall(r"`\w+`", names)) for _, names in NAMES_AFTER_MODULE.findall(TOUR)) >= 40
    assert len(DOTTED.findall(TOUR)) >= 4
    assert missing(TOUR, _commands()) == []


def test_the_checker_sees_what_is_missing() -> None:
    text = (
        "`runner/cli/verify.py` (`verify_command`, `no_such_name`), `runner/nowhere.py`, `docs/`,"
        " `solver.solve_task`, `solver.no_such_thing`, `tripwright verify`, `tripwright fly`"
    )
    assert missing(text, {"verify"}) == [
        "path: runner/nowhere.py",
        "name: runner/cli/verify.py (no_such_name)",
        "dotted: solver.no_such_thing",
        "command: fly",
    ]


def test_the_tour_is_linked_from_the_readme_layout() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme.split("## Layout", 1)[1].split("\n## ", 1)[0]
    assert "](docs/tour.md)" in layout
