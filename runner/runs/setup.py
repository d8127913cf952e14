"""Setting a run up before any trial: the job from the command's options, a cast built once up
front so that a bad agent name, user kind or model option is one clear error naming the field
(not a failure record per trial), and the local pool that fits the work."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from runner.agents.registry import AgentSetupError
from runner.episode import EpisodeInputError, EpisodeSettings
from runner.llm.config import LLMConfigError
from runner.loading.benchmark_data import load_sandbox_world
from runner.loading.files import InputError
from runner.runs.config import RunConfig
from runner.runs.pool import PoolKind
from runner.runs.tasks import RunTask
from runner.runs.trial import RunJob, job_world
from runner.scoring.oracle_cache import OracleCache, world_hash
from runner.users.registry import UserSetupError
from solver.oracle.solve import OracleSettings

SETUP_ERRORS = (AgentSetupError, UserSetupError, LLMConfigError, EpisodeInputError)
OPTION_OF = {"kind": "users"}
"""Setup error fields whose command-line option has another name."""
OPTION_GROUPS = ("openai_options.", "llm_options.")
"""Prefixes of the registries' model-option fields; the option is the rest (`--base-url`)."""


def make_job(config: RunConfig, world_dir: Path, cache_dir: Path) -> RunJob:
    """The job of a run: the world checked and hashed into the config, the planner's oracle cache."""
    load_sandbox_world(world_dir)
    digest = world_hash(world_dir)
    oracle = OracleCache(cache_dir, digest, OracleSettings(time_limit=config.oracle_time_limit))
    return RunJob(dataclasses.replace(config, world_hash=digest), str(world_dir), oracle)


def check_setup(job: RunJob, tasks: list[RunTask]) -> None:
    """Build the cast of the first task once (no model is called); InputError naming the field
    when the agent, the users, the model options or the protocol settings cannot be set up."""
    config = job.config
    try:
        EpisodeSettings(max_turn=config.max_turn, convergence_interval=config.convergence_interval)
        if tasks:
            job.cast(job, tasks[0].task, job_world(job), config.seed)
    except SETUP_ERRORS as exc:
        raise InputError(None, exc.problem, where=option_of(exc.field)) from exc


def option_of(field: str) -> str:
    """The command-line option a setup error's field stands for."""
    for prefix in OPTION_GROUPS:
        field = field.removeprefix(prefix)
    return "--" + OPTION_OF.get(field, field).replace("_", "-")


def default_pool(config: RunConfig) -> PoolKind:
    """Threads when trials wait on a model endpoint (a model is configured, or LLM users);
    processes for the CPU-bound baselines with rule users."""
    uses_model = config.model.base_url is not None or config.model.model is not None or config.users == "llm"
    return "threads" if uses_model else "processes"
