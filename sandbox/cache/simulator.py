"""An LLM tool simulator over an OpenAI-compatible chat API, for calls nothing else answers.

The prompt follows the official simulator's shape (docs/tools.md#cache): a system text naming the tool,
its description and parameter schema, the output rules and up to k real cached examples,
then a user text with the pretty-printed arguments. Temperature defaults to 0.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

EMPTY_REPLY = "没有找到相关信息，请确认输入参数是否正确；如无误，可能当前暂无相关数据"


class SimulatorError(RuntimeError):
    """The simulator could not produce an answer (network, server or reply error)."""


class Simulator(Protocol):
    """Produces a plausible raw tool result for a call."""

    def simulate(
        self,
        tool: str,
        description: str,
        schema: Mapping[str, Any],
        args: Mapping[str, Any],
        examples: Sequence[tuple[str, str]],
    ) -> str: ...


def system_prompt(
    tool: str, description: str, schema: Mapping[str, Any], examples: Sequence[tuple[str, str]]
) -> str:
    """The system text: tool, description, schema, rules and the examples."""
    lines = [
        f"你是工具 `{tool}` 的模拟器。工具说明：{description}",
        "参数 JSON Schema：" + json.dumps(schema, ensure_ascii=False, sort_keys=True),
        "规则：严格模仿示例的输出格式；只输出工具的原始返回内容；不要解释；不要用代码块或额外 JSON 包裹。",
    ]
    if examples:
        lines.append(f"以下是 {len(examples)} 个真实调用示例供参考：")
        for number, (params, result) in enumerate(examples, start=1):
            lines.append(f"示例 {number}：\n输入参数：{params}\n输出结果：{result}")
    else:
        lines.append("没有可参考的真实调用示例，请按该工具真实接口的常见格式输出。")
    return "\n".join(lines)


def user_prompt(args: Mapping[str, Any]) -> str:
    """The user text: the pretty-printed arguments and the requirements."""
    pretty = json.dumps(dict(args), ensure_ascii=False, indent=2, sort_keys=True)
    return (
        f"请模拟以下参数调用的返回结果：\n{pretty}\n要求：1. 参数相近的调用结果应相近；2. 数值真实合理；"
        "3. 遵守日期与时间约束；4. 与示例格式一致；5. 只输出结果本身；6. 不要任何包裹或说明。"
    )


class ChatSimulator:
    """`Simulator` backed by `chat.completions` of an OpenAI-compatible server."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str = "EMPTY",
        temperature: float = 0.0,
        timeout: float = 60.0,
    ) -> None:
        from openai import OpenAI

        self._client = OpenAI(base_url=base_url, api_key=api_key, timeout=timeout, max_retries=1)
        self._model = model
        self._temperature = temperature

    def simulate(
        self,
        tool: str,
        description: str,
        schema: Mapping[str, Any],
        args: Mapping[str, Any],
        examples: Sequence[tuple[str, str]],
    ) -> str:
        """The simulated raw result; an empty reply becomes the official "no data" text."""
        from openai import OpenAIError

        try:
            reply = self._client.chat.completions.create(
                model=self._model,
                temperature=self._temperature,
                messages=[
                    {"role": "system", "content": system_prompt(tool, description, schema, examples)},
                    {"role": "user", "content": user_prompt(args)},
                ],
            )
        except OpenAIError as exc:
            raise SimulatorError(f"{type(exc).__name__}: {exc}") from exc
        if not reply.choices:
            raise SimulatorError("the server returned no choices")
        text = reply.choices[0].message.content or ""
        return text if text.strip() else EMPTY_REPLY
