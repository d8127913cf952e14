"""`verify-batch --jobs 2` over the golden corpus writes the bytes of `--jobs 1`, line for line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from runner.cli.app import app

pytestmark = pytest.mark.shared


@pytest.mark.parametrize("corpus", ["cases.jsonl", "crash_cases.jsonl"])
def test_two_jobs_write_the_bytes_of_one(shared_dir: Path, tmp_path: Path, corpus: str) -> None:
    golden = shared_dir / "golden" / "official"
    written = {}
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}.jsonl"
        args = ["verify-batch", str(golden / corpus), "--poi-db", str(golden / "poi_db.json")]
        options = ["--profile", "official", "--tasks", str(golden / "tasks.jsonl"), "--jobs", jobs]
        result = CliRunner().invoke(app, [*args, *options, "--out", str(out)])
        assert result.exit_code == 1, result.output
        written[jobs] = out.read_bytes()
    lines = (golden / corpus).read_bytes().count(b"\n")
    assert written["1"].count(b"\n") == lines
    assert written["2"] == written["1"]
