"""The planning agent backed by an OpenAI-compatible chat model.

`OpenAIAgent.step` turns an `AgentRequest` into one chat call (docs/runner.md#the-openai-agent):

- turn / convergence / final plan: system text (participants, query, context, departure date,
  table ②; the @-mention reminder when named; the convergence or final-plan instruction), then
  the chat from the agent's seat (`runner.llm.history.agent_messages`) followed by the turn's
  own tool steps; a final-plan turn also closes the chat with the "[系统指令] …" user line;
- force finish: the same messages as the turn it closes (`turn_purpose`), the force-finish
  instruction appended to the system text, no tools;
- preference summary: system text and one user message holding the outward chat between
  "[聊天记录开始]" and "[聊天记录结束]" and the summary instructions, no tools.

The ten tools are offered only when `request.tools` is true.
"""

from __future__ import annotations

from typing import Any

from runner.agents import openai_prompts
from runner.episode.conversation import AgentRequest, AgentStep, Purpose
from runner.llm.client import ChatClient
from runner.llm.config import LLMConfig
from runner.llm.history import Message, agent_messages, transcript
from sandbox.tools.registry import openai_tools

_EXTRA: dict[Purpose, str] = {
    Purpose.CONVERGENCE: openai_prompts.CONVERGENCE,
    Purpose.FINAL_PLAN: openai_prompts.FINAL_PLAN,
}


class OpenAIAgent:
    """An `Agent` whose every step is one call to a chat model."""

    name = "openai"

    def __init__(self, config: LLMConfig, *, client: ChatClient | None = None) -> None:
        self.config = config
        self.client = client if client is not None else ChatClient(config)

    def step(self, request: AgentRequest) -> AgentStep:
        """One model call for `request`; tools offered only when the request allows them."""
        offer = request.tools and request.purpose not in {Purpose.FORCE_FINISH, Purpose.SUMMARY}
        reply = self.client.complete(build_messages(request), openai_tools() if offer else ())
        return AgentStep(
            content=reply.content,
            tool_calls=reply.tool_calls,
            usage=reply.usage,
            text_tool_calls=reply.text_tool_calls,
            reasoning=reply.reasoning,
        )

    def transport_faults(self) -> dict[str, int]:
        """Failed attempts of this player's calls so far, by fault kind."""
        return dict(self.client.faults)

    def describe(self) -> dict[str, Any]:
        """Name, model, endpoint, temperature and seed (never the key)."""
        return {"name": self.name, **self.config.describe()}


def build_messages(request: AgentRequest) -> list[Message]:
    """The chat messages of one agent step."""
    system = openai_prompts.system_prompt(request.task, request.table)
    if request.purpose is Purpose.SUMMARY:
        return [
            {"role": "system", "content": system},
            {"role": "user", "content": openai_prompts.summary_request(transcript(request.history))},
        ]
    purpose: Purpose = request.purpose
    if purpose is Purpose.FORCE_FINISH and request.turn_purpose is not None:
        purpose = request.turn_purpose
    parts = [system]
    if request.mentioned:
        parts.append(openai_prompts.MENTION_REMINDER)
    if purpose in _EXTRA:
        parts.append(_EXTRA[purpose])
    if request.purpose is Purpose.FORCE_FINISH:
        parts.append(openai_prompts.FORCE_FINISH)
    note = openai_prompts.directive() if purpose is Purpose.FINAL_PLAN else None
    chat = agent_messages(request.history, request.turn, note=note)
    return [{"role": "system", "content": "\n\n".join(parts)}, *chat]
