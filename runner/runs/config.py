"""What decides a run's records, and the config hash stored on every line.

The hash covers the agent and its model endpoint, the user simulators, the run seed, the
protocol settings, the planner's oracle settings, the world and the task's own content: two
lines with the same hash were made the same way. The number of trials, the concurrency and
the backend are not in it (they change how many records there are and when they are made,
not what they hold), so a run can be resumed with more trials or more workers.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from typing import Any

import orjson

from runner.scoring.oracle_cache import canonical_hash
from verifier.model.task import Task

HASH_VERSION = 1


@dataclass(frozen=True)
class ModelOptions:
    """An OpenAI-compatible endpoint: base URL, model, temperature (None: the client's default) and
    the name of the environment variable that holds the API key (the key never enters a record)."""

    base_url: str | None = None
    model: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float | None = None

    def identity(self) -> dict[str, Any]:
        """What of the options changes a record (not where the key is kept)."""
        return {"base_url": self.base_url, "model": self.model, "temperature": self.temperature}


@dataclass(frozen=True)
class RunConfig:
    """Everything a record depends on besides its task and trial number."""

    agent: str
    users: str = "rules"
    seed: int = 0
    model: ModelOptions = ModelOptions()
    max_turn: int | None = None
    convergence_interval: int | None = None
    oracle_time_limit: float = 60.0
    world_hash: str = ""
    tool_faults: str | None = None
    """`every:N` or `rate:P` (`runner.episode.faults`); None injects no fault."""

    def identity(self) -> dict[str, Any]:
        """What the hash covers (a run without injected faults hashes as before faults existed)."""
        fields = dataclasses.asdict(self)
        fields["model"] = self.model.identity()
        if self.tool_faults is None:
            del fields["tool_faults"]
        return {"version": HASH_VERSION, **fields}


def task_hash(task: Task) -> str:
    """The task's content hash: every field as loaded, preferences exactly as in the file."""
    content = task.model_dump(mode="json", exclude={"user_preferences"})
    return canonical_hash({"task": content, "user_preferences": task.preference_table()})


def config_hash(config: RunConfig, task: Task) -> str:
    """The hash stored on every line of `task` made under `config` (16 hex digits)."""
    identity = {**config.identity(), "task": task_hash(task)}
    return hashlib.sha256(orjson.dumps(identity, option=orjson.OPT_SORT_KEYS)).hexdigest()[:16]
