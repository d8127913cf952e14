"""`tripwright --help` and every command's help read cleanly: no metavar on flags, a value's type
as the metavar of an option (never `list[str]` or `int range`), option help in whole sentences,
each command listed with its first sentence whole (never cut at the column)."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from runner.cli.app import app, first_sentence

ROOT = typer.main.get_command(app)


def _subcommands(command: Any) -> list[tuple[str, Any]]:
    """(name, command) of a group's commands in listing order; none for a command."""
    if not hasattr(command, "list_commands"):
        return []
    context = typer.Context(command)
    return [(name, command.get_command(context, name)) for name in command.list_commands(context)]


def _commands(command: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    found = [(path, command)]
    for name, sub in _subcommands(command):
        found += _commands(sub, (*path, name))
    return found


COMMANDS = _commands(ROOT)


def _help(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "80"}, terminal_width=80)
    assert result.exit_code == 0, result.output
    return result.output


def test_the_tree_holds_every_command() -> None:
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {
        "",
        "verify",
        "verify-batch",
        "oracle",
        "certify",
        "run",
        "tasks infeasible",
        "tasks shifts",
        "world build",
        "tools call",
        "cache stats",
    } <= names
    assert len(COMMANDS) == 29


@pytest.mark.parametrize(
    ("path", "command"), COMMANDS, ids=[" ".join(p) or "tripwright" for p, _ in COMMANDS]
)
def test_help_has_no_flag_metavar_and_no_cut_sentence(path: tuple[str, ...], command: Any) -> None:
    text = _help(path)
    assert "<bool>" not in text
    assert "<list[" not in text and " range>" not in text  # a metavar names one value's type
    assert "..." not in text.replace("[ARGS]...", "")
    lines = text.splitlines()
    for param in command.params:
        if getattr(param, "is_flag", False):
            flag = param.opts[0]
            row = next(line for line in lines if line.strip().startswith(flag + " "))
            assert row.split(flag, 1)[1].lstrip()[:1] not in {"<", ""}, row
    listed = " ".join(text.split())
    for name, sub in _subcommands(command):
        assert f"{name} {first_sentence(sub.help)}" in listed


@pytest.mark.parametrize(
    ("path", "command"), COMMANDS, ids=[" ".join(p) or "tripwright" for p, _ in COMMANDS]
)
def test_every_help_is_whole_sentences(path: tuple[str, ...], command: Any) -> None:
    assert command.help, path
    helps = [" ".join(command.help.split())]
    helps += [" ".join(param.help.split()) for param in command.params if getattr(param, "help", None)]
    for text in helps:
        assert text[:1].isupper() or not text[:1].isalpha(), text
        assert text.endswith((".", ")")), text


def test_first_sentence_is_one_line_up_to_the_first_full_stop() -> None:
    assert first_sentence("Solve every task: one line each.\nExit 0 all solved.\n\nMore.") == (
        "Solve every task: one line each."
    )
    assert first_sentence("Read plans") == "Read plans"
    assert first_sentence("  Build a\n  world (docs/world.md).") == "Build a world (docs/world.md)."


@pytest.mark.parametrize("width", [60, 80, 100, 120])
def test_a_listing_never_cuts_a_word_at_its_hyphen(width: int) -> None:
    """Click's wrapper would write `--at-` at a line's end and `event` on the next."""
    result = CliRunner().invoke(app, ["tasks", "--help"], env={"COLUMNS": str(width)}, terminal_width=width)
    assert result.exit_code == 0
    assert all(not line.rstrip().endswith("-") for line in result.output.splitlines())
    assert "--at-event" in result.output
