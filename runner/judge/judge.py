"""Judging one run record: the judge call with its retry schedule, then the meta-judge.

The model is reached through a `Complete` callable (`messages, temperature → text`), so tests
give a fake and `tripwright judge` gives the OpenAI-compatible client. An answer is read with
`runner.judge.parse`; while some dimension is unrated the judge is asked again, up to
`attempts` times, at temperature 0.1 and from the 8th attempt on at 0.7 (docs/runner.md#llm-judge). If no
attempt rates every dimension, the attempt that rated most is kept (the average is over the
rated ones); if none rated any, the trial is not judged. A trial whose inference crashed (no
conversation) is not sent to the model: it scores 0 with `inference_crashed: true`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from runner.episode.conversation import ModelCallError
from runner.judge.parse import Judgement, parse_judgement, parse_meta
from runner.judge.prompts import DIMENSIONS, Material, Message, judge_messages, meta_messages
from runner.judge.scores import crashed, scored
from runner.judge.transcript import format_conversation, format_preferences


class Complete(Protocol):
    """One chat completion: the reply text; raises `ModelCallError` when the call fails for good."""

    def __call__(self, messages: list[Message], temperature: float) -> str: ...


@dataclass(frozen=True)
class JudgeSettings:
    """How a trial is judged: `model` is recorded on every line; `meta` turns the meta-judge on."""

    model: str
    meta: bool = True
    attempts: int = 10
    temperature: float = 0.1
    retry_temperature: float = 0.7
    hot_from: int = 8
    """The first attempt made at `retry_temperature`."""

    def temperature_of(self, attempt: int) -> float:
        """The sampling temperature of attempt number `attempt` (1-based)."""
        return self.retry_temperature if attempt >= self.hot_from else self.temperature


def is_crashed(record: Mapping[str, Any]) -> bool:
    """Whether the trial's inference produced no conversation (e.g. `success: false`)."""
    history = record.get("conversation_history")
    return not isinstance(history, list) or not history


def material_of(record: Mapping[str, Any]) -> Material:
    """The episode as both prompts show it."""
    names = record.get("user_names")
    return Material(
        query=str(record.get("query") or ""),
        context=str(record.get("context") or ""),
        users="、".join(map(str, names)) if isinstance(names, list) else "",
        preferences=format_preferences(record.get("original_preferences")),
        conversation=format_conversation(record.get("conversation_history") or []),
    )


def record_key(record: Mapping[str, Any]) -> dict[str, Any]:
    """The fields naming the trial on its judged line."""
    key = {"task_id": record.get("task_id"), "trial_id": record.get("trial_id")}
    return key | ({"trial": record["trial"]} if "trial" in record else {})


def judge_record(record: Mapping[str, Any], complete: Complete, settings: JudgeSettings) -> dict[str, Any]:
    """The judged line of one run record (`judged: false` with an `error` when it could not be judged)."""
    base = record_key(record) | {"judge_model": settings.model}
    if is_crashed(record):
        return base | {"judged": True, "inference_crashed": True, **crashed(), "meta": None, "attempts": 0}
    material = material_of(record)
    try:
        judgement, attempts = _judge(material, complete, settings)
    except ModelCallError as exc:
        return base | {"judged": False, "inference_crashed": False, "error": f"judge call failed: {exc}"}
    if judgement is None:
        return base | {
            "judged": False,
            "inference_crashed": False,
            "error": f"no rating could be read in {attempts} answers",
        }
    line = base | {"judged": True, "inference_crashed": False, "attempts": attempts}
    meta, meta_error = _meta(material, judgement, complete, settings) if settings.meta else (None, None)
    line |= scored(judgement.ratings, None if meta is None else meta[0])
    line |= {
        "reasoning": judgement.reasoning,
        "fallback": list(judgement.fallback),
        "meta": None if meta is None else {"score": meta[0], "reasoning": meta[1]},
    }
    return line | ({"meta_error": meta_error} if meta_error else {})


def _judge(material: Material, complete: Complete, settings: JudgeSettings) -> tuple[Judgement | None, int]:
    messages = judge_messages(material)
    best: Judgement | None = None
    for attempt in range(1, settings.attempts + 1):
        judgement = parse_judgement(complete(messages, settings.temperature_of(attempt)))
        if best is None or len(judgement.ratings) > len(best.ratings):
            best = judgement
        if len(judgement.ratings) == len(DIMENSIONS):
            return judgement, attempt
    return (best if best is not None and best.ratings else None), settings.attempts


def _meta(
    material: Material, judgement: Judgement, complete: Complete, settings: JudgeSettings
) -> tuple[tuple[int, str] | None, str | None]:
    """The meta-judge's (rating, reasoning), or None and why not."""
    messages = meta_messages(material, judgement.ratings, judgement.reasoning)
    try:
        for attempt in range(1, settings.attempts + 1):
            meta = parse_meta(complete(messages, settings.temperature_of(attempt)))
            if meta is not None:
                return meta, None
    except ModelCallError as exc:
        return None, f"meta-judge call failed: {exc}"
    return None, f"no meta rating could be read in {settings.attempts} answers"
