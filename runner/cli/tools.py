"""CLI groups `tripwright tools` (list, schema, call) and `tripwright cache` (stats): thin
wrappers over `sandbox.tools` and `sandbox.cache` (docs/tools.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from runner.cli.support import EXIT_INVALID, EXIT_OK, err, out, print_json, user_errors
from runner.loading.files import InputError

if TYPE_CHECKING:
    from sandbox.cache.store import ToolCache
    from sandbox.tools import ToolAnswer

app = typer.Typer(help="The ten travel tools served from a world (docs/tools.md).", no_args_is_help=True)
cache_app = typer.Typer(help="The tool-call cache (docs/tools.md).", no_args_is_help=True)

OUTCOME_COLUMNS = ("calls", "cache", "memo", "world", "retrieved", "simulated", "error")
JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]


def _schema(name: str) -> dict[str, Any]:
    """The OpenAI function tool of `name`; an unknown name is an input error."""
    from sandbox.tools import tool_schema
    from sandbox.tools.registry import UnknownToolError

    try:
        return tool_schema(name)
    except UnknownToolError as exc:
        raise InputError(None, str(exc)) from exc


@app.command("list")
def list_command(json_out: JsonOpt = False) -> None:
    """The ten tool names with a one-line description each."""
    from runner.cli.tables import cli_table
    from sandbox.tools import list_tools

    rows = {name: _schema(name)["function"]["description"].splitlines()[0] for name in list_tools()}
    if json_out:
        print_json([{"name": name, "description": text} for name, text in rows.items()])
        raise typer.Exit(EXIT_OK)
    table = cli_table("tool", "description")
    for name, text in rows.items():
        table.add_row(name, text)
    out().print(table)


@app.command("schema")
def schema_command(
    name: Annotated[str | None, typer.Argument(help="One tool; default: all ten.")] = None,
    openai: Annotated[
        bool, typer.Option("--openai", help="OpenAI function-tool form {type, function: {…}}.")
    ] = False,
) -> None:
    """JSON Schema of a tool's parameters ({name: schema} for all), or the OpenAI tool form."""
    from sandbox.tools import openai_tools

    with user_errors():
        if name is not None:
            tool = _schema(name)
            print_json(tool if openai else tool["function"]["parameters"])
            raise typer.Exit(EXIT_OK)
    tools = openai_tools()
    print_json(tools if openai else {t["function"]["name"]: t["function"]["parameters"] for t in tools})


def _args(text: str) -> dict[str, Any]:
    """`--args` as a JSON object, or an input error saying what it is instead."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise InputError(None, f"not valid JSON ({exc})", where="--args") from exc
    if not isinstance(value, dict):
        raise InputError(None, f"must be a JSON object, got {type(value).__name__}", where="--args")
    return value


def _cache(directory: Path) -> ToolCache:
    from sandbox.cache.store import ToolCache

    if not directory.is_dir():
        raise InputError(directory, "cache directory not found")
    return ToolCache(directory)


@app.command("call")
def call_command(
    name: Annotated[str, typer.Argument(help="Tool name (see `tripwright tools list`).")],
    *,
    args: Annotated[
        str, typer.Option("--args", help='Arguments as a JSON object, e.g. \'{"city": "杭州"}\'.')
    ],
    world: Annotated[Path | None, typer.Option("--world", help="World directory to answer from.")] = None,
    cache: Annotated[
        Path | None, typer.Option("--cache", help="Cache directory (official caches, memo, stats).")
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Call one tool: exit 0 with an answer, 1 when the answer is an error, 2 for bad input."""
    from runner.loading.benchmark_data import load_sandbox_world
    from sandbox.tools import call_tool

    with user_errors():
        _schema(name)
        arguments = _args(args)
        if world is None and cache is None:
            raise InputError(None, "nothing to answer from: give --world DIR and/or --cache DIR")
        loaded = None if world is None else load_sandbox_world(world)
        tool_cache = None if cache is None else _cache(cache)
        answer = call_tool(name, arguments, loaded, tool_cache)
        if tool_cache is not None:
            _flush(tool_cache)
    _print_answer(answer, json_out)
    raise typer.Exit(EXIT_INVALID if answer.error else EXIT_OK)


def _flush(cache: ToolCache) -> None:
    try:
        cache.flush()
    except OSError as exc:
        raise InputError(
            cache.directory, f"cannot write the cache statistics: {exc.strerror or exc}"
        ) from exc


def _print_answer(answer: ToolAnswer, json_out: bool) -> None:
    document = {
        "provenance": answer.provenance,
        "error": answer.error,
        "source_key": answer.source_key,
        "text": answer.text,
    }
    if json_out:
        print_json(document)
        return
    source = f" (copied from {answer.source_key})" if answer.source_key else ""
    err().print(f"provenance: {answer.provenance}{source}", markup=False)
    sys.stdout.write(answer.text + "\n")


@cache_app.command("stats")
def stats_command(
    directory: Annotated[Path, typer.Argument(help="Cache directory (default: the current one).")] = Path(
        "."
    ),
    json_out: JsonOpt = False,
) -> None:
    """Hit/miss counters per tool and entries of every cache and memo file."""
    from sandbox.tools import cache_stats

    with user_errors():
        try:
            report = cache_stats(directory)
        except ValueError as exc:
            raise InputError(None, str(exc)) from exc
    if json_out:
        print_json(report)
        raise typer.Exit(EXIT_OK)
    _print_stats(directory, report)


def _print_stats(directory: Path, report: dict[str, Any]) -> None:
    from runner.cli.tables import cli_table

    console = out()
    total = report["total"]
    console.print(f"{directory}: {total['calls']} calls, hit rate {report['hit_rate']:.1%} (cache + memo)")
    calls = cli_table("tool", *OUTCOME_COLUMNS, title="calls by outcome")
    for tool, counts in report["tools"].items():
        calls.add_row(tool, *(str(counts[c]) for c in OUTCOME_COLUMNS))
    if report["tools"]:
        console.print(calls)
    entries = cli_table("tool", "cache entries", "memo entries", title="files")
    for tool, counts in report["entries"].items():
        entries.add_row(tool, str(counts["cache"]), str(counts["memo"]))
    if report["entries"]:
        console.print(entries)
