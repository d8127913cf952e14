"""The OpenAI-compatible chat client shared by the openai agent, the LLM users and the judge.

`LLMConfig` names the endpoint and sampling; `ChatClient.complete` sends one chat request with
bounded retries and returns a `ChatReply`; failures end as `runner.episode.conversation.ModelCallError`
with the official failure reason (docs/runner.md#the-openai-agent, Failures). Small models that write tool
calls as JSON text are read by `runner.llm.text_calls`; `runner.llm.history` renders the group chat as
messages.
"""

from runner.llm.client import ChatClient, ChatReply
from runner.llm.config import LLMConfig, LLMConfigError

__all__ = [
    "ChatClient",
    "ChatReply",
    "LLMConfig",
    "LLMConfigError",
]
