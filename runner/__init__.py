"""The runner: wires the verifier, the sandbox and the solver into episodes, benchmark runs,
scoring and reports (and the `tripwright` CLI in `runner.cli`).

An episode: `run_episode(task, world, agent, users, trial=…, settings=EpisodeSettings(…))` with
`make_agent` / `make_users`; a run: `make_job` then `run_trials`; scoring against the oracle:
`score_file` with a `ScoreJob`. The names below are imported on first use, so the CLI starts
light; docs/api.md lists them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import verifier.faces

if TYPE_CHECKING:
    from runner.agents.registry import AgentSetupError, make_agent
    from runner.episode import EpisodeInputError, EpisodeSettings, run_episode
    from runner.episode.conversation import Agent, User
    from runner.loading.files import InputError
    from runner.runs.config import RunConfig
    from runner.runs.run import Execution, run_trials
    from runner.runs.setup import make_job
    from runner.scoring.oracle_cache import OracleCache
    from runner.scoring.score import ScoreJob, score_file
    from runner.users.registry import UserSetupError, make_users

_HOMES = {
    "Agent": "runner.episode.conversation",
    "AgentSetupError": "runner.agents.registry",
    "EpisodeInputError": "runner.episode",
    "EpisodeSettings": "runner.episode",
    "Execution": "runner.runs.run",
    "InputError": "runner.loading.files",
    "OracleCache": "runner.scoring.oracle_cache",
    "RunConfig": "runner.runs.config",
    "ScoreJob": "runner.scoring.score",
    "User": "runner.episode.conversation",
    "UserSetupError": "runner.users.registry",
    "make_agent": "runner.agents.registry",
    "make_job": "runner.runs.setup",
    "make_users": "runner.users.registry",
    "run_episode": "runner.episode",
    "run_trials": "runner.runs.run",
    "score_file": "runner.scoring.score",
}
"""Each public name and the module it lives in."""

__all__ = [
    "Agent",
    "AgentSetupError",
    "EpisodeInputError",
    "EpisodeSettings",
    "Execution",
    "InputError",
    "OracleCache",
    "RunConfig",
    "ScoreJob",
    "User",
    "UserSetupError",
    "make_agent",
    "make_job",
    "make_users",
    "run_episode",
    "run_trials",
    "score_file",
]


__getattr__ = verifier.faces.lazy_names(__name__, _HOMES)
