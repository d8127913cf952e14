"""The scripted agent's interview: whom to ask next, the question, and table ② from the chat.

The agent asks each traveller once, in user order, about every field (`all_fields` of the task's
cities), in a message that @-mentions only that traveller — the protocol's preemption gives the
mentioned traveller the next word. A question is recognised again in the history as an agent
message whose last @-mention is a traveller and which asks about fields
(`runner.users.topics.asked_fields`), so the interview's state is read from the history alone.

Table ② is rebuilt from the history on every call: all travellers' messages (the opening ones,
answers and anything volunteered) add what they state (`runner.agents.extract`); a traveller's
reply right after a question to them is the answer, and replaces the asked fields wholesale (an
empty answer empties them); a message announcing a change of mind (`CHANGE_CUES`, e.g. a rule
user's "我这边有个变化：…") replaces the fields it states.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from runner.agents.extract import apply, clear, read_statements
from runner.agents.vocab import Vocabulary
from runner.episode.conversation import AGENT, Entry, outward
from runner.episode.mentions import last_mention
from runner.users.topics import Field, all_fields, asked_fields, empty_preference

_ASKING = {
    "budget": "人均预算",
    "transport": "交通方式",
    "intensity": "行程强度（每天最多几个景点、活动几个小时）",
    "hotel": "住宿偏好",
    "visit": "必去或不想去的景点",
    "category": "喜欢或不感兴趣的景点类型",
    "food": "想吃和不吃的东西",
}


CHANGE_CUES = ("有个变化", "改主意", "有变化")
"""Words of a traveller's message that restates fields as changed (they replace, not add)."""


def question(user: str, cities: Sequence[str]) -> str:
    """The question asking `user` about every field of these cities."""
    fields = all_fields(cities)
    general = "、".join(_ASKING[field.topic] for field in fields if not field.city)
    per_city = "、".join(dict.fromkeys(_ASKING[field.topic] for field in fields if field.city))
    where = f"，以及在{'、'.join(cities)}{per_city}" if cities else ""
    return f"@{user} 想请你说说你的偏好：{general}{where}。"


@dataclass(frozen=True)
class Interview:
    """The state of the interview: who has been asked (in user order) and the table so far."""

    asked: tuple[str, ...]
    table: dict[str, Any]

    def next_user(self, users: Sequence[str]) -> str | None:
        """The first traveller not asked yet, or None when everyone has been."""
        return next((user for user in users if user not in self.asked), None)


def interview(
    history: Sequence[Entry], users: Sequence[str], cities: Sequence[str], vocab: Vocabulary
) -> Interview:
    """Who has been asked and table ② as the outward messages of `history` tell."""
    participants = [*users, AGENT]
    table = {user: empty_preference(cities) for user in users}
    asked: list[str] = []
    pending: tuple[str, list[Field]] | None = None
    for message in outward(list(history)):
        role, text = message["role"], message["content"]
        if role == AGENT:
            target = last_mention(text, participants)
            fields = asked_fields(text, cities) if target in table else []
            pending = (target, fields) if target is not None and fields else None
            if pending is not None and pending[0] not in asked:
                asked.append(pending[0])
            continue
        scope = pending[1] if pending is not None and pending[0] == role else []
        pending = None
        if role not in table:
            continue
        statements = read_statements(text, vocab, cities, scope)
        changed = {s.field for s in statements} if any(cue in text for cue in CHANGE_CUES) else set()
        for field in [*scope, *changed]:
            clear(table[role], field)
        for statement in statements:
            apply(table[role], statement)
    return Interview(tuple(asked), table)
