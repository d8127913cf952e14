"""The optional LLM judge (docs/runner.md#llm-judge): five rated dimensions of an episode, and a meta-judge.

`transcript` formats a run record for the judge, `prompts` holds the rubric (Chinese, our own
wording), `parse` reads the judge's XML answer (tag repair, regex fallback), `scores` turns
ratings into 0–100 figures (meta weighting, crashed trials, statistics) and `judge` drives the
model calls with their retry schedule. Nothing here runs unless `tripwright judge` is called.

Imported on first use: the report reads judged files without loading the model client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import verifier.faces

if TYPE_CHECKING:
    from runner.judge.batch import judge_runs, read_judged
    from runner.judge.judge import JudgeSettings, judge_record

_HOMES = {
    "JudgeSettings": "runner.judge.judge",
    "judge_record": "runner.judge.judge",
    "judge_runs": "runner.judge.batch",
    "read_judged": "runner.judge.batch",
}
"""Each public name and the module it lives in."""

__all__ = [
    "JudgeSettings",
    "judge_record",
    "judge_runs",
    "read_judged",
]


__getattr__ = verifier.faces.lazy_names(__name__, _HOMES)
