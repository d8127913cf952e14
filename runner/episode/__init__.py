"""One episode of the official group-chat protocol (docs/runner.md#episodes): rules, scheduler, record.

Entry point: `run_episode(task, world, agent, users, *, trial, settings, cache=None)`. The
contracts every player implements (`Agent`, `User`) and the history entries are in
`conversation`, shared with `runner.agents`, `runner.users` and `runner.llm`.
"""

from runner.episode.engine import run_episode
from runner.episode.errors import EpisodeInputError
from runner.episode.record import OFFICIAL_KEYS, WALL_CLOCK_KEYS, without_wall_clock
from runner.episode.scheduler import COMPLETION_REASONS
from runner.episode.settings import EpisodeSettings, Limits, limits_for

__all__ = [
    "COMPLETION_REASONS",
    "OFFICIAL_KEYS",
    "WALL_CLOCK_KEYS",
    "EpisodeInputError",
    "EpisodeSettings",
    "Limits",
    "limits_for",
    "run_episode",
    "without_wall_clock",
]
