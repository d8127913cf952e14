"""Assembling the report and writing it: `report.md`, `report.html` and `plots/*.png` in one folder.

Same inputs give byte-identical files: every figure is computed in input order, plots are
rendered deterministically (`runner.report.plots`) and nothing carries a date or a path of the
output folder. Each file is written atomically.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from runner.loading.files import atomic_write_bytes
from runner.report import html, markdown
from runner.report.document import Block, Report
from runner.report.episode_sections import episode_sections
from runner.report.inputs import Inputs
from runner.report.sections import (
    inputs_section,
    judge_averages,
    judge_groups,
    judge_section,
    official_section,
    oracle_section,
    plots_section,
    runs_section,
)
from runner.report.trajectory import find_episode, trajectory
from runner.report.trial_measures import trial_sections
from runner.scoring.reliability import STRICT_SUCCESS, SuccessRule

TITLE = "tripwright run report"
MARKDOWN, HTML = "report.md", "report.html"


def build_report(
    inputs: Inputs,
    *,
    sources: Mapping[str, str],
    official: Mapping[str, Any] | None = None,
    episode: str | None = None,
    success: SuccessRule = STRICT_SUCCESS,
) -> Report:
    """The report of `inputs`; `sources` names the input files, `official` is the re-scoring
    document (`runner.report.official.official_document`, None when not re-scored), `episode`
    (`TASK_ID:TRIAL`, default the first record) picks the trajectory shown, `success` what a
    successful trial is for pass^k."""
    record = find_episode(inputs.runs, episode)
    judge = judge_groups(inputs)
    blocks: list[Block] = [
        *inputs_section(inputs, sources),
        *official_section(official, judge_averages(judge)),
        *oracle_section(inputs),
        *plots_section(inputs),
        *runs_section(inputs.runs),
        *episode_sections(inputs),
    ]
    blocks += trial_sections(inputs, success)
    if judge is not None:
        blocks += judge_section(inputs, judge)
    blocks += trajectory(record, inputs.tasks.get(str(record["task_id"])))
    return Report(TITLE, blocks)


def write_report(report: Report, out: Path) -> list[Path]:
    """Write the report's files into `out` (created if needed); returns their paths."""
    plots_dir = out / markdown.PLOTS_DIR
    plots_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for plot in report.plots:
        path = plots_dir / f"{plot.name}.png"
        atomic_write_bytes(path, plot.png)
        written.append(path)
    for name, text in ((MARKDOWN, markdown.render(report)), (HTML, html.render(report))):
        atomic_write_bytes(out / name, text.encode("utf-8"))
        written.append(out / name)
    return written
