"""Scoring saved plans and records: the engines of `verify-batch`, `rescore` and `normalize`.

`verify_cases` verifies a JSONL file of cases (`verify_batch`); `rescore` scores one saved
trial with both profiles, `rescore_report` aggregates a runs file (`aggregate`: the official averaging) on
forked workers (`ordered_pool`); `normalize` puts scored plans against the oracle. Imported
on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import verifier.faces

if TYPE_CHECKING:
    from runner.saved.rescore import TrialScores, score_trial
    from runner.saved.rescore_report import rescore_lines
    from runner.saved.verify_cases import BatchSettings, verify_batch

_HOMES = {
    "BatchSettings": "runner.saved.verify_cases",
    "TrialScores": "runner.saved.rescore",
    "rescore_lines": "runner.saved.rescore_report",
    "score_trial": "runner.saved.rescore",
    "verify_batch": "runner.saved.verify_cases",
}
"""Each public name and the module it lives in."""

__all__ = [
    "BatchSettings",
    "TrialScores",
    "rescore_lines",
    "score_trial",
    "verify_batch",
]


__getattr__ = verifier.faces.lazy_names(__name__, _HOMES)
