"""A simulated traveller backed by an OpenAI-compatible chat model.

`LLMUser.reply` sends the simulator's system text (`runner.users.llm_prompts`: the user's effective
preference JSON, the compromise attitude and quota, the marker grammar; the @-mention reminder
when the user is named) and the outward chat from this user's seat: its own messages as
assistant turns, everyone else's merged into user turns (`runner.llm.history.user_messages`).
The reply text goes back as is: passes, markers and retries are the engine's business.
"""

from __future__ import annotations

from typing import Any

from runner.episode.conversation import UserReply, UserRequest
from runner.llm.client import ChatClient
from runner.llm.config import LLMConfig
from runner.llm.history import Message, user_messages
from runner.users import llm_prompts


class LLMUser:
    """A `User` whose every reply is one call to a chat model."""

    def __init__(self, name: str, config: LLMConfig, *, client: ChatClient | None = None) -> None:
        self.name = name
        self.config = config
        self.client = client if client is not None else ChatClient(config)

    def reply(self, request: UserRequest) -> UserReply:
        """The user's next chat message for `request`."""
        reply = self.client.complete(build_messages(request))
        return UserReply(reply.content, reply.usage)

    def transport_faults(self) -> dict[str, int]:
        """Failed attempts of this player's calls so far, by fault kind."""
        return dict(self.client.faults)

    def describe(self) -> dict[str, Any]:
        """Kind, model, endpoint, temperature and seed (never the key)."""
        return {"kind": "llm", **self.config.describe()}


def build_messages(request: UserRequest) -> list[Message]:
    """The chat messages of one user reply."""
    system = llm_prompts.system_prompt(
        request.task,
        request.user,
        request.preference,
        compromisable=request.compromisable,
        left=request.compromises_left,
    )
    if request.mentioned:
        system = f"{system}\n\n{llm_prompts.MENTION_REMINDER}"
    return [{"role": "system", "content": system}, *user_messages(request.history, request.user)]
