"""Injected tool faults (docs/runner.md, "Injected tool faults"): which calls fail, and how they end.

A `FaultSpec` is parsed from `every:N` (the N-th, 2N-th, … tool call of the episode fails) or
`rate:P` (each call fails with probability P, drawn from SHA-256 of the episode seed and the
call's number — never Python's `hash()` — so the same seed fails the same calls in any process).
A failed call is not executed: its result is the official sandbox's answer to an exception while
a tool runs, `Error executing tool: …` (docs/runner.md#injected-tool-faults), flagged
`error: true` and counted as the official runner counts such a call (a tool error and a cache
miss).

`FaultLog` follows one episode: `met` counts the injected faults, `recovered` those after which a
later call of the same tool succeeded (the agent tried again, with the same or other arguments,
and got an answer). The record carries `tool_faults {spec, met, recovered}`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

from verifier.errors import StructuredError

FAULT_TEXT = "Error executing tool: {name} 服务暂时不可用（503 Service Unavailable），请稍后重试"
"""The result text of a failed call; `{name}` is the tool's name."""


def fault_text(name: str) -> str:
    """The result text of a call of `name` failed by an injected fault."""
    return FAULT_TEXT.format(name=name)


class FaultSpecError(StructuredError, ValueError):
    """A `--tool-faults` value that is not `every:N` (N ≥ 1) or `rate:P` (0 ≤ P ≤ 1); `text` is
    the value as given."""

    def __init__(self, text: str, problem: str) -> None:
        super().__init__("tool_faults", problem)
        self.text = text


@dataclass(frozen=True)
class FaultSpec:
    """How calls fail: every `value`-th call (`every`) or each with probability `value` (`rate`)."""

    kind: Literal["every", "rate"]
    value: float

    @classmethod
    def parse(cls, text: str) -> FaultSpec:
        """`every:N` or `rate:P`; a `FaultSpecError` naming the problem otherwise."""
        kind, sep, raw = text.partition(":")
        if not sep or kind not in ("every", "rate"):
            raise FaultSpecError(text, "expected every:N or rate:P")
        try:
            value = float(raw) if kind == "rate" else int(raw)
        except ValueError:
            raise FaultSpecError(
                text, f"{raw!r} is not a {'number' if kind == 'rate' else 'whole number'}"
            ) from None
        if kind == "every" and value < 1:
            raise FaultSpecError(text, "N must be 1 or more")
        if kind == "rate" and not 0 <= value <= 1:
            raise FaultSpecError(text, "P must be between 0 and 1")
        return cls("every" if kind == "every" else "rate", value)

    def __str__(self) -> str:
        return f"{self.kind}:{int(self.value) if self.kind == 'every' else self.value}"

    def fails(self, seed: int, number: int) -> bool:
        """Whether the episode's `number`-th tool call (from 1) fails under `seed`."""
        if self.kind == "every":
            return number % int(self.value) == 0
        digest = hashlib.sha256(f"tool-fault\x1f{seed}\x1f{number}".encode()).digest()
        return int.from_bytes(digest[:8], "big") / 2**64 < self.value


@dataclass
class FaultLog:
    """One episode's faults: the spec, the seed, the calls seen, the faults met and recovered."""

    spec: FaultSpec
    seed: int
    calls: int = 0
    met: int = 0
    recovered: int = 0
    pending: dict[str, int] = field(default_factory=dict)

    def next_fails(self, name: str) -> bool:
        """Count the next call (of tool `name`); whether it is to fail (then it is counted as met)."""
        self.calls += 1
        if self.spec.fails(self.seed, self.calls):
            self.met += 1
            self.pending[name] = self.pending.get(name, 0) + 1
            return True
        return False

    def answered(self, name: str, *, error: bool) -> None:
        """A call of `name` was executed; a success recovers that tool's faults still pending."""
        if not error:
            self.recovered += self.pending.pop(name, 0)

    def signature(self) -> tuple[str, str]:
        """The last fault's repetition signature: its own, so a retry of the call is no repetition
        (no tool is named with a NUL)."""
        return "\x00fault", str(self.met)

    def as_dict(self) -> dict[str, object]:
        """The record's `tool_faults`."""
        return {"spec": str(self.spec), "met": self.met, "recovered": self.recovered}
