"""Trials of a run scored against the oracle: `oracle_cache` (solves on disk), `figures` (the pure
per-trial figures), `trial` (one record scored), `summary` (rates and distributions), `score`
(a whole runs file), `elicitation` (how each preference field surfaced) and `episode_measures`
(elicitation, tool faults, refusals, intent shifts on a scored line)."""

from runner.scoring.oracle_cache import OracleCache
from runner.scoring.score import ScoredRun, ScoreJob, score_file
from runner.scoring.summary import summarize

__all__ = [
    "OracleCache",
    "ScoreJob",
    "ScoredRun",
    "score_file",
    "summarize",
]
