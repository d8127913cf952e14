"""Every model and tool call of an episode goes through the ledger: tokens, steps, wall-clock.

The ledger is the only place an episode reads a clock (`time.perf_counter`), so every
wall-clock figure ends up under the record's `timings` (and `duration`) and the rest of the record
is deterministic for a seed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from runner.episode.conversation import Agent, AgentRequest, AgentStep, Usage, User, UserReply, UserRequest
from sandbox.cache.store import ToolCache
from sandbox.tools.call import ToolAnswer, call_tool
from sandbox.world.world import World


@dataclass
class Ledger:
    """Running totals: agent and user tokens, model steps, text tool calls, seconds by party."""

    agent_usage: Usage = field(default_factory=Usage)
    user_usage: Usage = field(default_factory=Usage)
    steps: int = 0
    text_tool_calls: int = 0
    seconds: dict[str, float] = field(
        default_factory=lambda: {"agent_s": 0.0, "users_s": 0.0, "tools_s": 0.0}
    )
    started: float = field(default_factory=time.perf_counter)

    def agent_step(self, agent: Agent, request: AgentRequest) -> AgentStep:
        """One agent step, counted and timed."""
        start = time.perf_counter()
        step = agent.step(request)
        self.seconds["agent_s"] += time.perf_counter() - start
        self.steps += 1
        self.agent_usage += step.usage
        self.text_tool_calls += step.text_tool_calls
        return step

    def user_reply(self, user: User, request: UserRequest) -> UserReply:
        """One user reply, counted and timed."""
        start = time.perf_counter()
        reply = user.reply(request)
        self.seconds["users_s"] += time.perf_counter() - start
        self.steps += 1
        self.user_usage += reply.usage
        return reply

    def tool_call(
        self, name: str, arguments: str, world: World | None, cache: ToolCache | None
    ) -> ToolAnswer:
        """One tool call against the world and cache, timed."""
        start = time.perf_counter()
        answer = call_tool(name, arguments, world, cache)
        self.seconds["tools_s"] += time.perf_counter() - start
        return answer

    def tokens(self) -> dict[str, Any]:
        """Tokens by party: `{agent: {prompt, completion}, users: {prompt, completion}}`."""
        return {"agent": _tokens(self.agent_usage), "users": _tokens(self.user_usage)}

    def timings(self) -> dict[str, float]:
        """Seconds since the ledger started (`total_s`) and spent in agents, users and tools."""
        return {"total_s": time.perf_counter() - self.started, **self.seconds}


def _tokens(usage: Usage) -> dict[str, int]:
    return {"prompt": usage.prompt_tokens, "completion": usage.completion_tokens}
