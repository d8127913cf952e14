"""The run report: `report.md` and a self-contained `report.html` from a runs file.

`inputs` reads the files; `official` re-scores the trials for the official aggregation;
`figures` (against the oracle), `frontier`, `tool_stats` and `judge_figures` compute the
figures; `plots` draws them with matplotlib (`fonts`: the CJK font); `trajectory` lays one
episode out; `episode_sections` shows elicitation, tool faults, unsolvable variants and intent
shifts; `sections` and `build` assemble the document (`document` blocks) that `markdown`
and `html` render.

Imported on first use: the judge command reads runs files through `inputs` without loading
the plots.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import verifier.faces

if TYPE_CHECKING:
    from runner.report.build import build_report, write_report
    from runner.report.document import Report
    from runner.report.inputs import load_inputs

_HOMES = {
    "Report": "runner.report.document",
    "build_report": "runner.report.build",
    "load_inputs": "runner.report.inputs",
    "write_report": "runner.report.build",
}
"""Each public name and the module it lives in."""

__all__ = [
    "Report",
    "build_report",
    "load_inputs",
    "write_report",
]


__getattr__ = verifier.faces.lazy_names(__name__, _HOMES)
