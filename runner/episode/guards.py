"""Repetition guards on the agent's tool calls (docs/runner.md#the-protocol-as-implemented, Agent turn;
docs/runner.md#termination-reasons).

A call's signature is its tool name and its arguments as canonical JSON (sorted keys). Within a
turn, guard A ("consecutive") fires when an iteration repeats any signature of the iteration just
before it. Over the whole episode, guard B ("multiple") counts every call's signature and fires
at the third identical call. A is checked first; when it fires, that iteration's calls are not
counted by B. Across turns, two consecutive flagged "consecutive" Agent turns end the episode, and
an unflagged Agent turn resets the count.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from runner.episode.settings import CONSECUTIVE_REPETITIONS_TO_STOP, IDENTICAL_CALLS_ALLOWED

Signature = tuple[str, str]
Repetition = Literal["consecutive", "multiple"]


def signature(name: str, arguments: Any) -> Signature:
    """A call's identity: its name and its arguments as canonical JSON."""
    return name, json.dumps(arguments, sort_keys=True, ensure_ascii=False)


@dataclass
class RepetitionGuard:
    """Guard B's episode-wide counts; `check` runs both guards on one iteration's calls."""

    counts: Counter[Signature] = field(default_factory=Counter)

    def check(self, calls: list[Signature], previous: set[Signature]) -> Repetition | None:
        """The guard that fires for this iteration's calls, given the previous iteration's set."""
        if previous & set(calls):
            return "consecutive"
        self.counts.update(calls)
        if any(self.counts[call] > IDENTICAL_CALLS_ALLOWED for call in calls):
            return "multiple"
        return None


@dataclass
class ConsecutiveCounter:
    """Consecutive Agent turns flagged "consecutive" (preempt and polling turns only)."""

    count: int = 0

    def after_turn(self, flag: Repetition | None) -> str | None:
        """The completion reason this turn ends the episode with, if any."""
        if flag == "multiple":
            return "multiple_repeated_tool_calls"
        if flag == "consecutive":
            self.count += 1
            if self.count >= CONSECUTIVE_REPETITIONS_TO_STOP:
                return "consecutive_repeated_tool_calls"
            return None
        self.count = 0
        return None
