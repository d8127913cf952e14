"""The group chat's shared vocabulary: history entries, and the agent and user contracts.

History entries are the official `conversation_history` items (docs/runner.md#the-protocol-as-implemented),
kept as plain dicts so a record is written exactly as the public evaluator reads it:

- message: `{"type": "message", "role": <user name | "Agent">, "content": str, "has_tool_calls": bool}`
  (the opening messages of Phase 1 carry no `has_tool_calls`);
- tool call: `{"type": "tool_call", "name": str, "arguments": <JSON text of the arguments>}`;
- tool result: `{"type": "tool_result", "name": str, "result": str, "error": bool}`.

An *agent* produces one model step at a time (`Agent.step`); the episode engine (`runner.episode`)
owns everything the protocol decides — the tool loop, its repetition guards, forced finishes,
interception, commits. A *user* produces one chat reply (`User.reply`); markers, passes and quotas
are likewise the engine's. So every protocol rule lives in the engine, once, whoever plays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, Protocol, TypedDict, runtime_checkable

AGENT = "Agent"


class MessageEntry(TypedDict, total=False):
    """A chat message; `has_tool_calls` is absent on the opening messages."""

    type: Literal["message"]
    role: str
    content: str
    has_tool_calls: bool


class ToolCallEntry(TypedDict):
    """A tool call the agent made; `arguments` is the JSON text it sent."""

    type: Literal["tool_call"]
    name: str
    arguments: str


class ToolResultEntry(TypedDict):
    """A tool's answer as the agent saw it."""

    type: Literal["tool_result"]
    name: str
    result: str
    error: bool


Entry = MessageEntry | ToolCallEntry | ToolResultEntry


def message(role: str, content: str, *, has_tool_calls: bool | None = None) -> MessageEntry:
    """A message entry; `has_tool_calls=None` leaves the key out (opening messages)."""
    entry: MessageEntry = {"type": "message", "role": role, "content": content}
    if has_tool_calls is not None:
        entry["has_tool_calls"] = has_tool_calls
    return entry


def is_outward(entry: Entry) -> bool:
    """Whether users see this entry: a message that issued no tool calls
    (docs/runner.md#the-protocol-as-implemented)."""
    return entry["type"] == "message" and not entry.get("has_tool_calls", False)


def outward(history: list[Entry]) -> list[MessageEntry]:
    """The messages every participant sees, in order."""
    return [entry for entry in history if is_outward(entry) and entry["type"] == "message"]


@dataclass(frozen=True)
class Usage:
    """Tokens one model call consumed (zero for agents and users that call no model)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens, self.completion_tokens + other.completion_tokens
        )


class Purpose(StrEnum):
    """Why the engine asks the agent for a step; prompts differ, the step's shape does not."""

    TURN = "turn"
    CONVERGENCE = "convergence"
    FINAL_PLAN = "final_plan"
    FORCE_FINISH = "force_finish"
    SUMMARY = "summary"


@dataclass(frozen=True)
class ToolCallRequest:
    """One function call in an agent step; `arguments` is raw JSON text, possibly malformed."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class AgentRequest:
    """What the agent is given for one step.

    `history` is the committed conversation (all entries); `turn` the entries of the current turn
    not yet committed (its earlier tool calls and results); `table` the agent's preference table ②;
    `tools` whether tool calls are allowed in this step (False for forced finishes and summaries);
    `mentioned` whether the agent was @-mentioned; `iteration` counts the steps of this turn from 1;
    `turn_purpose` the purpose of the turn the step belongs to — it differs from `purpose` only in
    a FORCE_FINISH step, so a forced finish of a final-plan turn still knows a plan is due (None
    when the caller does not say).
    """

    purpose: Purpose
    task: Any
    history: list[Entry]
    turn: list[Entry] = field(default_factory=list)
    table: dict[str, Any] = field(default_factory=dict)
    tools: bool = True
    mentioned: bool = False
    iteration: int = 1
    turn_purpose: Purpose | None = None


@dataclass(frozen=True)
class AgentStep:
    """One step's output: text and/or tool calls.

    `text_tool_calls` counts calls read from JSON written in the message text (small models do
    this) rather than from the API's function-calling field; `reasoning` is dropped before saving.
    """

    content: str
    tool_calls: tuple[ToolCallRequest, ...] = ()
    usage: Usage = Usage()
    text_tool_calls: int = 0
    reasoning: str | None = None


class Agent(Protocol):
    """A planning agent: one model step per call, deterministic for its seed where it can be."""

    name: str

    def step(self, request: AgentRequest) -> AgentStep:
        """The agent's next step for `request`."""
        ...

    def describe(self) -> dict[str, Any]:
        """What a record should say about the agent: name, model, endpoint, temperature, seed."""
        ...


@dataclass(frozen=True)
class UserRequest:
    """What a simulated user is given for one reply.

    `history` holds the outward messages only (users never see tools); `preference` the user's
    current effective preference slot (③, `{"role", "preference", "compromisable"}`);
    `compromisable` whether the user may still give ground (false once the quota is used);
    `compromises_left` how many compromises the quota still allows; `attempt` counts from 1 the
    tries the engine made for this event (pass retries, invalid-marker retries).
    """

    user: str
    task: Any
    history: list[MessageEntry]
    preference: dict[str, Any]
    compromisable: bool
    compromises_left: int
    mentioned: bool = False
    attempt: int = 1


@dataclass(frozen=True)
class UserReply:
    """A user's chat text (may be "[pass]" or end with a compromise marker) and its cost."""

    content: str
    usage: Usage = Usage()


class User(Protocol):
    """A simulated traveller."""

    name: str

    def reply(self, request: UserRequest) -> UserReply:
        """The user's next chat message."""
        ...

    def describe(self) -> dict[str, Any]:
        """What a record should say about the simulator: kind, model, temperature, seed."""
        ...


FailureReason = Literal["context_overflow", "connection_error", "rate_limit", "runtime_error"]
RETRYABLE: frozenset[str] = frozenset({"rate_limit", "connection_error"})


class ModelCallError(Exception):
    """A model call failed for good (after the client's own retries); ends the trial.

    `reason` is the official failure `completion_reason` (docs/runner.md#the-openai-agent,
    Failures); `transient` says the call failed on transport faults only (connection, 429, 5xx,
    an undecodable or choice-less reply) that outlasted the client's re-sends. Runs retry the
    trial with backoff when the reason is in `RETRYABLE` or the failure is transient, and record
    it as a failure otherwise.
    """

    def __init__(self, reason: FailureReason, detail: str, *, transient: bool = False) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason: FailureReason = reason
        self.detail = detail
        self.transient = transient


@runtime_checkable
class CountsFaults(Protocol):
    """An agent or user behind a model endpoint: it counts the transport faults its calls met."""

    def transport_faults(self) -> dict[str, int]:
        """Failed attempts so far, by fault kind (`runner.llm.failures.FAULT_KINDS`)."""
        ...
