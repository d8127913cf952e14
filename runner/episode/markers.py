"""Compromise markers in user replies: the grammar and the value (docs/runner.md#the-protocol-as-implemented,
Compromises).

A reply gives ground by ENDING (trailing white space aside) with `[path : value]`: the path is
word characters (CJK included) and dots, the colon is ASCII (a full-width "：" is no marker), and
the value runs to the last "]" of that last line — so `[a.b : ["x"]]` carries `["x"]`. A marker
followed by more text ("[a.b : 1] 谢谢") is no marker.

The value is JSON. Text that is not JSON and does not look like it — not starting with "[", "{",
'"' or "-" and not a plain number — is taken as a string ("飞机", "1800元"). JSON-looking text is
repaired: a lone "[" is [], a lone "{" is {}, an unclosed list or object gets its closing bracket;
what still fails is malformed. JSON's NaN and Infinity are not numbers here (they read as text), so
a record never holds a non-finite float.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from runner.episode.conversation import AGENT, MessageEntry
from runner.episode.mentions import last_mention

_MARKER = re.compile(r"\[([\w.]+)[^\S\n]*:[^\S\n]*(.*?)\]\s*\Z")
_PLAIN_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_JSON_LOOKING = ("[", "{", '"', "-")


@dataclass(frozen=True)
class Marker:
    """A marker found at the end of a reply.

    `remainder` is the reply without the marker (trailing white space removed); `parsed` says
    whether the value could be read, `value` holds it when it could.
    """

    path: str
    raw: str
    remainder: str
    parsed: bool
    value: Any = None


def find_marker(text: str) -> Marker | None:
    """The compromise marker ending `text`, or None when the reply has none."""
    match = _MARKER.search(text)
    if match is None:
        return None
    raw = match.group(2).strip()
    parsed, value = parse_value(raw)
    return Marker(match.group(1), raw, text[: match.start()].rstrip(), parsed, value)


def parse_value(raw: str) -> tuple[bool, Any]:
    """(True, value) for a readable marker value, (False, None) for a malformed one."""
    parsed, value = _json(raw)
    if parsed:
        return True, value
    if not raw.startswith(_JSON_LOOKING) and _PLAIN_NUMBER.fullmatch(raw) is None:
        return True, raw
    if raw == "[":
        return True, []
    if raw == "{":
        return True, {}
    if raw.startswith("["):
        return _json(raw + "]")
    if raw.startswith("{"):
        return _json(raw + "}")
    return False, None


def _json(text: str) -> tuple[bool, Any]:
    try:
        return True, json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return False, None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def asked_by_agent(previous: MessageEntry | None, user: str, names: list[str]) -> bool:
    """Whether the previous outward message is the Agent's and its last @-mention is `user`.

    `names` are the participants a mention may name (the users and "Agent").
    """
    if previous is None or previous["role"] != AGENT:
        return False
    return last_mention(previous["content"], names) == user
