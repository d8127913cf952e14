"""Active and passive elicitation (UserBench): how each preference field of each traveller surfaced.

A *field* is one askable field of `runner.users.topics` (budget, transport, intensity, hotel, and
per city the places to visit or not, the kinds of attraction, food) that holds something in the
traveller's original table ① or final table ③. It *surfaces* in the first of the traveller's own
outward messages that states one of its values — an item of its lists named, or its budget or an
intensity cap given as a number (`runner.users.tones`) — and is then:

- `active` when the Agent asked for it: the Agent's last outward message before the traveller's
  (and after the traveller last spoke) asks about the field (`runner.users.topics.asked_fields`)
  and @-mentions this traveller last, or @-mentions nobody and is a question (`QUESTION_CUES`,
  as a rule user reads a question to everyone);
- `passive` otherwise — volunteered, or in the task's opening messages (`opening`, a part of
  `passive`: the task, not the agent, decides those);
- `never` when no message of the traveller states it.

Rule-based users say every value in the words this reads (`runner.users.answers`), so for them
the classification is exact. For LLM users it is the same lexical reading of free text: a value
paraphrased (a budget in words, a place by another name) is not seen, so `never` is an upper
bound and `active` + `passive` a lower bound; who asked is read from the messages and is exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

from runner.episode.conversation import AGENT, MessageEntry, is_outward
from runner.episode.mentions import last_mention
from runner.users.answers import has_content
from runner.users.rules import QUESTION_CUES
from runner.users.tones import budgets, hour_caps, poi_caps
from runner.users.topics import LISTS, Field, Topic, all_fields, asked_fields, read

Status = Literal["active", "passive", "never"]
STATUSES: tuple[Status, ...] = ("active", "passive", "never")
COUNTS = ("fields", "active", "passive", "opening", "never")
"""The counters of a group of fields; `opening` counts the passive fields of the opening messages."""


def states(preference: Any, field: Field, text: str) -> bool:
    """Whether `text` states one of the field's values in `preference`."""
    if field.topic is Topic.BUDGET:
        budget = read(preference, field, "avg_budget")
        return bool(budget) and budget in budgets(text)
    if field.topic is Topic.INTENSITY:
        pois, hours = read(preference, field, "max_poi_per_day"), read(preference, field, "max_active_hours")
        return bool(pois and pois in poi_caps(text)) or bool(hours and hours in hour_caps(text))
    return any(item in text for _, key in LISTS[field.topic] for item in read(preference, field, key))


def field_statuses(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every field of every traveller with content in ① or ③: `{user, topic, city, status,
    opening}`, travellers in ① order, fields in `all_fields` order (empty for a failed trial)."""
    original = record.get("original_preferences")
    effective = record.get("effective_preferences")
    if not isinstance(original, dict) or not isinstance(effective, dict):
        return []
    messages = [
        e for e in record.get("conversation_history") or [] if is_outward(e) and e["type"] == "message"
    ]
    participants = [*original, AGENT]
    rows = []
    for user in original:
        tables = [_preference(original.get(user)), _preference(effective.get(user))]
        cities = _cities(tables)
        for field in all_fields(cities):
            if any(has_content(table, field) for table in tables):
                status, opening = _surfacing(user, field, tables, messages, (participants, cities))
                row = {"user": user, "topic": str(field.topic), "city": field.city}
                rows.append(row | {"status": status, "opening": opening})
    return rows


def elicitation_counts(rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Counts overall, by topic (in `Topic` order) and by user (in first-seen order)."""
    rows = list(rows)
    by_topic = {str(t): [r for r in rows if r["topic"] == t] for t in Topic}
    users = dict.fromkeys(str(r["user"]) for r in rows)
    return {
        **_counts(rows),
        "by_topic": {topic: _counts(group) for topic, group in by_topic.items() if group},
        "by_user": {user: _counts([r for r in rows if r["user"] == user]) for user in users},
    }


def merge_counts(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The sum of several `elicitation_counts` (trials of a run), keeping first-seen order."""
    total: dict[str, Any] = dict.fromkeys(COUNTS, 0) | {"by_topic": {}, "by_user": {}}
    for part in parts:
        for key in COUNTS:
            total[key] += part[key]
        for group in ("by_topic", "by_user"):
            for name, counts in part[group].items():
                into = total[group].setdefault(name, dict.fromkeys(COUNTS, 0))
                for key in COUNTS:
                    into[key] += counts[key]
    return total


def rates(counts: Mapping[str, Any], digits: int = 4) -> dict[str, float | None]:
    """`active`, `passive`, `opening` and `never` as shares of the fields (None without fields)."""
    fields = counts["fields"]
    return {key: round(counts[key] / fields, digits) if fields else None for key in COUNTS[1:]}


def _counts(rows: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    tally = Counter(str(r["status"]) for r in rows)
    opening = sum(1 for r in rows if r["opening"])
    return {
        "fields": len(rows),
        "active": tally["active"],
        "passive": tally["passive"],
        "opening": opening,
        "never": tally["never"],
    }


def _surfacing(
    user: str,
    field: Field,
    tables: list[Any],
    messages: Sequence[MessageEntry],
    names: tuple[list[str], list[str]],
) -> tuple[Status, bool]:
    """How the field first surfaced in `user`'s messages, and whether in an opening message."""
    asked: MessageEntry | None = None
    for message in messages:
        role = message["role"]
        if role == AGENT:
            asked = message
        elif role == user:
            text = message["content"]
            if any(states(table, field, text) for table in tables):
                if "has_tool_calls" not in message:
                    return "passive", True
                return ("active" if _asks(asked, user, field, names) else "passive"), False
            asked = None
    return "never", False


def _asks(message: MessageEntry | None, user: str, field: Field, names: tuple[list[str], list[str]]) -> bool:
    """Whether the Agent's `message` asks `user` (or everyone) about `field`; `names` are the
    participants and the traveller's cities."""
    if message is None:
        return False
    participants, cities = names
    text = message["content"]
    target = last_mention(text, participants)
    if target not in (user, None) or (target is None and not any(cue in text for cue in QUESTION_CUES)):
        return False
    return field in asked_fields(text, cities)


def _preference(slot: Any) -> Any:
    return slot.get("preference", slot) if isinstance(slot, dict) else {}


def _cities(tables: Sequence[Any]) -> list[str]:
    found: dict[str, None] = {}
    for table in tables:
        own = table.get("city_specific_preferences") if isinstance(table, dict) else None
        found |= dict.fromkeys(own if isinstance(own, dict) else {})
    return list(found)
