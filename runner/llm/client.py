"""One chat request to an OpenAI-compatible server, with bounded retries and failure reasons.

`ChatClient.complete(messages, tools)` returns a `ChatReply` (text, tool calls, usage,
reasoning). Transport faults (connection errors, timeouts, 429, 5xx, a body that does not decode,
a completion without choices; `runner.llm.failures.fault_kind`) are re-sent up to
`LLMConfig.retries` times with exponential backoff and counted in `faults`; replies with neither
text nor tool calls are asked again up to `LLMConfig.empty_attempts` times in all
(docs/runner.md#the-protocol-as-implemented, Agent turn), without waiting. A failure that
remains raises `ModelCallError` with its official reason (`runner.llm.failures.classify`),
`transient` when only transport faults caused it.
The API key is read from the environment when the client is built and is never logged: error
details that would contain it have it masked.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import openai

from runner.episode.conversation import ModelCallError, ToolCallRequest, Usage
from runner.llm.config import NO_KEY, LLMConfig
from runner.llm.failures import classify, fault_kind, retry_after
from runner.llm.text_calls import read_text_calls

Sleep = Callable[[float], None]
THINK_END = "</think>"
THINK_START = "<think>"


@dataclass(frozen=True)
class ChatReply:
    """What one call produced; `text_tool_calls` counts calls read from the text."""

    content: str
    tool_calls: tuple[ToolCallRequest, ...] = ()
    usage: Usage = field(default_factory=Usage)
    reasoning: str | None = None
    text_tool_calls: int = 0

    @property
    def empty(self) -> bool:
        """Neither text nor tool calls."""
        return not self.content and not self.tool_calls


class ChatClient:
    """Chat completions of one model; `sleep` is injectable so tests need not wait."""

    def __init__(self, config: LLMConfig, *, sleep: Sleep = time.sleep) -> None:
        self.config = config
        self._sleep = sleep
        self._key = config.api_key()
        self._client = openai.OpenAI(
            base_url=config.base_url, api_key=self._key, timeout=config.timeout_s, max_retries=0
        )
        self.faults: Counter[str] = Counter()

    def complete(self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]] = ()) -> ChatReply:
        """The model's reply to `messages`, offering `tools` (none when empty)."""
        params = self._params(messages, tools)
        names = {tool["function"]["name"] for tool in tools}
        usage = Usage()
        reply = ChatReply("")
        for _ in range(self.config.empty_attempts):
            response = self._send(params)
            reply = read_reply(response, names)
            usage = usage + reply.usage
            if not reply.empty:
                break
        return replace(reply, usage=usage)

    def _params(self, messages: Sequence[dict[str, Any]], tools: Sequence[dict[str, Any]]) -> dict[str, Any]:
        params: dict[str, Any] = {
            "model": self.config.model,
            "messages": list(messages),
            "temperature": self.config.temperature,
        }
        if self.config.seed is not None:
            params["seed"] = self.config.seed
        if self.config.max_tokens is not None:
            params["max_tokens"] = self.config.max_tokens
        if tools:
            params["tools"] = list(tools)
            params["tool_choice"] = "auto"
        return params

    def _send(self, params: dict[str, Any]) -> Any:
        """The raw completion with at least one choice, re-sending transport faults with backoff."""
        attempt = 0
        while True:
            attempt += 1
            waited: float | None = None
            cause: Exception
            try:
                response = self._client.chat.completions.create(**params)
            except openai.OpenAIError as error:
                kind, reason, cause = fault_kind(error), classify(error), error
                waited = retry_after(error)
            except ValueError as error:  # a 200 whose body is not JSON (cut short): json's own error
                kind, reason, cause = "undecodable_reply", "runtime_error", error
            else:
                if getattr(response, "choices", None):
                    return response
                kind, reason, cause = "no_choices", "runtime_error", ValueError("completion without choices")
            if kind is None:
                raise ModelCallError(reason, self._detail(cause, attempt)) from cause
            self.faults[kind] += 1
            if attempt > self.config.retries:
                raise ModelCallError(reason, self._detail(cause, attempt), transient=True) from cause
            self._sleep(self.config.backoff(attempt, waited))

    def _detail(self, error: BaseException, attempts: int) -> str:
        text = f"{type(error).__name__} after {attempts} attempt(s): {error}"
        return text.replace(self._key, "***") if self._key != NO_KEY else text


def read_reply(response: Any, tools: set[str]) -> ChatReply:
    """A `ChatReply` from a completion; text tool calls are read only when `tools` were offered."""
    usage = _usage(response)
    message = response.choices[0].message
    content, reasoning = split_thinking(message.content if isinstance(message.content, str) else "")
    extra = message.model_extra or {}
    reasoning = extra.get("reasoning_content") or extra.get("reasoning") or reasoning
    calls = tuple(
        ToolCallRequest(call.id or f"call_{number}", call.function.name, call.function.arguments)
        for number, call in enumerate(message.tool_calls or [], start=1)
        if getattr(call, "function", None) is not None
    )
    if calls or not tools or not content:
        return ChatReply(content, calls, usage, reasoning)
    found = read_text_calls(content, tools)
    if not found.calls:
        return ChatReply(content, (), usage, reasoning)
    return ChatReply(found.remainder, found.calls, usage, reasoning, text_tool_calls=len(found.calls))


def split_thinking(text: str) -> tuple[str, str | None]:
    """(answer, thinking) of a text that may hold a `<think>…</think>` part.

    The answer is what follows `</think>`; when nothing follows, the thinking itself is the
    answer (the model put its reply inside the tags).
    """
    text = text.strip()
    if THINK_END not in text:
        return text, None
    before, after = text.split(THINK_END, 1)
    thinking = before.removeprefix(THINK_START).strip()
    answer = after.strip()
    return (answer, thinking) if answer else (thinking, None)


def _usage(response: Any) -> Usage:
    usage = getattr(response, "usage", None)
    if usage is None:
        return Usage()
    return Usage(usage.prompt_tokens or 0, usage.completion_tokens or 0)
