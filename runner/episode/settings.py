"""Episode settings and the protocol's constants (docs/runner.md#episodes).

`EpisodeSettings` is what a caller chooses (seed, and optionally the round limit and the
convergence interval); `Limits` is what an episode runs with once the unset values are filled in
from the task's `difficulty_type` the way the official driver does (easy 15/3, medium 20/4,
hard 25/5). A task of any other difficulty runs with the medium values — the official driver
would use its command-line values there, which its scripts set to 15/3.

The client of a model (not the engine) retries empty replies up to `EMPTY_REPLY_RETRIES` times;
every other count below is the engine's.
"""

from __future__ import annotations

from dataclasses import dataclass

from runner.episode.errors import EpisodeInputError
from runner.episode.faults import FaultSpec
from verifier.model.task import Task

AGENT_TOOL_ITERATIONS = 20
"""Model steps with tools in one Agent turn before a forced finish."""
EVENTS_PER_ROUND_FACTOR = 5
"""A round closes after this many events per speaker in the polling order."""
MENTION_PASS_ATTEMPTS = 3
"""Replies asked of an @-mentioned user while the reply is exactly "[pass]"."""
MARKER_ATTEMPTS = 3
"""Replies asked of a user whose compromise marker is invalid; the third is force-applied."""
FINAL_PLAN_ATTEMPTS = 3
"""Forced final-plan turns after the round limit, until one emits a plan."""
MAX_COMPROMISES_PER_USER = 2
"""Compromises applied per user; a user at the cap is no longer compromisable."""
CONSECUTIVE_REPETITIONS_TO_STOP = 2
"""Consecutive Agent turns flagged "consecutive" that end the episode."""
IDENTICAL_CALLS_ALLOWED = 2
"""Identical tool calls (name and arguments) allowed over a whole episode; one more flags "multiple"."""
EMPTY_REPLY_RETRIES = 15
"""Retries of an empty model reply — done by the model client (`runner.llm`), not the engine."""

BY_DIFFICULTY: dict[str, tuple[int, int]] = {"easy": (15, 3), "medium": (20, 4), "hard": (25, 5)}
"""(max_turn, convergence_interval) by `difficulty_type`."""
DEFAULT_DIFFICULTY = "medium"


@dataclass(frozen=True)
class EpisodeSettings:
    """What a caller chooses for an episode; None means "by the task's difficulty".

    `tool_faults` makes tool calls fail as it says (`runner.episode.faults`); None injects none.
    """

    seed: int = 0
    max_turn: int | None = None
    convergence_interval: int | None = None
    tool_faults: FaultSpec | None = None

    def __post_init__(self) -> None:
        if self.max_turn is not None and self.max_turn < 0:
            raise EpisodeInputError("max_turn", f"must be 0 or more, got {self.max_turn}")
        if self.convergence_interval is not None and self.convergence_interval < 1:
            raise EpisodeInputError(
                "convergence_interval", f"must be 1 or more, got {self.convergence_interval}"
            )


@dataclass(frozen=True)
class Limits:
    """The round limit and convergence interval an episode runs with."""

    max_turn: int
    convergence_interval: int


def limits_for(task: Task, settings: EpisodeSettings) -> Limits:
    """Settings with unset values taken from the task's difficulty (unknown → medium)."""
    max_turn, interval = BY_DIFFICULTY.get(task.difficulty_type or "", BY_DIFFICULTY[DEFAULT_DIFFICULTY])
    return Limits(
        max_turn if settings.max_turn is None else settings.max_turn,
        interval if settings.convergence_interval is None else settings.convergence_interval,
    )


def event_cap(speakers: int) -> int:
    """Events after which a round is force-closed: 5 × the length of the polling order."""
    return EVENTS_PER_ROUND_FACTOR * speakers
