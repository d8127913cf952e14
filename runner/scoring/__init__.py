"""Trials of a run scored against the oracle: `oracle_cache` (solves on disk), `figures` (the pure
per-trial figures), `trial` (one record scored), `summary` (rates and distributions), `score`
(a whole runs file)."""

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
