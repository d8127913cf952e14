"""CLI command `sample`: the embedded task's world, three plans judged by both profiles, the
oracle on it, and the baseline agents against the oracle (`runner.sample`)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from runner.cli.support import EXIT_INVALID, out, print_json, user_errors

if TYPE_CHECKING:
    from runner.sample.bench import Bench
    from runner.sample.plans import Sample

SAMPLE_ORACLE_SECONDS = 20.0
"""The sample's oracle time limit per run: two runs keep the main job under a minute on two cores."""
BENCH_ORACLE_SECONDS = 5.0
"""The closing benchmark's oracle seconds a solve: its first three solves added 10–30 s to the main
job, by the machine's load, and the random agent's table adds a fourth (the figures are those of
10 s on the sample task)."""


JsonOpt = Annotated[bool, typer.Option("--json", help="Machine-readable JSON output.")]


def sample_command(
    *,
    out_dir: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Also write the task, world, POI file, plans and oracle records here (and the benchmark's "
            "runs and reports).",
        ),
    ] = None,
    oracle: Annotated[
        bool, typer.Option(help="Run the oracle on the sample task (splits on and off).")
    ] = True,
    time_limit: Annotated[
        float,
        typer.Option("--time-limit", min=0.1, metavar="<float>", help="Oracle seconds per run (two runs)."),
    ] = SAMPLE_ORACLE_SECONDS,
    bench: Annotated[
        bool, typer.Option(help="Close with the scripted and silent agents against the oracle.")
    ] = True,
    bench_time_limit: Annotated[
        float,
        typer.Option(
            "--bench-time-limit", min=0.1, metavar="<float>", help="The benchmark's oracle seconds a solve."
        ),
    ] = BENCH_ORACLE_SECONDS,
    json_out: JsonOpt = False,
) -> None:
    """Build the sample task's world, verify its three sample plans under both profiles, run the
    oracle on it (its plan verified and shown), and play the baseline agents against the oracle."""
    from runner.cli import render
    from runner.sample.oracle_splits import run_oracle, write_oracle  # OR-Tools: only here
    from runner.sample.plans import (  # world builder + planner: only here
        build_sample,
        run_samples,
        write_sample,
    )

    with user_errors():
        sample = build_sample()
        results = run_samples(sample)
        run = run_oracle(sample, time_limit) if oracle else None
        written = write_sample(sample, out_dir) if out_dir is not None else []
        if out_dir is not None and run is not None:
            written += write_oracle(run, out_dir)
        played = _bench(sample, out_dir, bench_time_limit) if bench else None
    if json_out:
        value = None if run is None else run.value_of_splitting
        print_json(
            {
                "plans": [{"plan": r.plan, "verdict": r.verdict.model_dump(mode="json")} for r in results],
                "oracle": None
                if run is None
                else {
                    "results": [run.with_splits.to_json(), run.without_splits.to_json()],
                    "value_of_splitting": None if value is None else value.to_json(),
                    "verdicts": {p: v.model_dump(mode="json") for p, v in run.verdicts.items()},
                },
                "bench": None if played is None else played.to_json(),
            }
        )
    else:
        console = out()
        render.sample_world(console, sample)
        render.samples(console, results)
        if run is not None:
            render.sample_oracle(console, sample, run)
        for path in written:
            console.print(f"wrote {path}", soft_wrap=True)
        if played is not None:
            render.sample_bench(console, played)
    if played is not None and played.failed:
        raise typer.Exit(EXIT_INVALID)


def _bench(sample: Sample, out_dir: Path | None, time_limit: float) -> Bench:
    """The closing benchmark, written into `out_dir`, else into a fresh folder."""
    from runner.loading.files import InputError
    from runner.sample.bench import BenchSettings, run_bench  # runs, scoring and report: only here
    from runner.scoring.oracle_cache import default_cache_dir

    try:
        directory = out_dir or Path(tempfile.mkdtemp(prefix="tripwright-sample-"))
        return run_bench(sample, directory, BenchSettings(time_limit, default_cache_dir()))
    except OSError as exc:
        raise InputError(exc.filename, f"cannot write: {exc.strerror}") from exc
