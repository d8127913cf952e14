"""`tripwright judge` against a local fake OpenAI-compatible server."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from runner.cli.app import app
from tests.fixtures.fake_openai import MODEL, fake_openai, text
from tests.fixtures.report_fixtures import JUDGE_FULL, JUDGE_META, runs, write_jsonl


def test_judge_command_judges_every_trial_and_resumes(tmp_path: Path) -> None:
    records = write_jsonl(tmp_path / "runs.jsonl", runs())
    out = tmp_path / "judged.jsonl"
    script = [text(JUDGE_FULL), text(JUDGE_META)] * 3
    with fake_openai(script) as server:
        args = [
            "judge",
            str(records),
            "--base-url",
            server.base_url,
            "--model",
            MODEL,
            "--out",
            str(out),
            "--json",
        ]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        assert [body["temperature"] for body in server.requests] == [0.1] * 6
        assert server.requests[0]["model"] == MODEL
        again = CliRunner().invoke(app, args)
        assert again.exit_code == 0
        assert len(server.requests) == 6
    stats = json.loads(result.output)
    assert stats["count"] == 4
    assert stats["final_average_0_100"] == 45.0
    assert stats["meta_judge"] == {"count": 3, "mean": 4.0, "distribution": {"4": 3}}
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [line["inference_crashed"] for line in lines] == [False, False, True, False]
    assert lines[0]["final_scores"]["average_score"] == 60.0
