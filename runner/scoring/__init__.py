"""Trials of a run scored against the oracle: `oracle_cache` (solves on disk), `figures` (the pure
per-trial figures), `trial` (one record scored), `summary` (rates and distributions), `score`
(a whole runs file)."""
