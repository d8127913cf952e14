"""The judge's model: `runner.llm.ChatClient` behind the judge's `Complete` shape.

The judge samples at two temperatures (docs/runner.md#llm-judge); a client per temperature is made on first
use from the same `LLMConfig`, so each keeps the config's retries, backoff and empty-reply
handling. Failures end as `ModelCallError` from the client.
"""

from __future__ import annotations

from dataclasses import replace

from runner.judge.prompts import Message
from runner.llm.client import ChatClient
from runner.llm.config import LLMConfig


class ClientCompletion:
    """`messages, temperature → text` over an OpenAI-compatible endpoint."""

    def __init__(self, config: LLMConfig) -> None:
        self.config = config
        self._clients: dict[float, ChatClient] = {}

    def __call__(self, messages: list[Message], temperature: float) -> str:
        client = self._clients.get(temperature)
        if client is None:
            client = self._clients[temperature] = ChatClient(replace(self.config, temperature=temperature))
        return client.complete(messages).content
