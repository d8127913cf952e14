"""`RulesUser`: a deterministic traveller that answers from its own preference slot.

What it says, for one `UserRequest` (the slot is the request's effective preference ③):

- @-mentioned by the agent's last message, which proposes a change to one of its fields
  (`runner.users.compromise`): with compromises left it agrees and ends the reply with the marker
  (`[global_constraints.avg_budget : 3500]`); otherwise it refuses politely and restates the field.
- @-mentioned with a question (`runner.users.topics.asked_fields`): it states every asked field
  (`runner.users.answers`, whose docstring is the phrasing contract the scripted agent reads).
- @-mentioned with neither: it volunteers the first field it has not stated yet, or says it has
  nothing to add.
- A wish of its own changed by an intent shift of the task (`runner.episode.shifts`) and not yet
  announced: its reply opens with the announcement ("我这边有个变化：" and the field as it is now),
  followed by whatever it would have said otherwise (nothing instead of a pass).
- Polled: a question the agent put to everyone (no @-mention, after the traveller last spoke) is
  answered; otherwise it volunteers one field it has not stated yet with probability
  `volunteer_rate`, and passes ("[pass]") otherwise — always when it has nothing left to say.

It never passes when mentioned and never writes a marker the engine would reject. Every choice
(volunteering, wordings) comes from a SHA-256 of the task id, the user name, the episode seed, the
length of the history and the attempt — the same request always gets the same reply.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from runner.episode.conversation import AGENT, MessageEntry, UserReply, UserRequest
from runner.episode.mentions import last_mention
from runner.episode.shifts import value_at
from runner.users.answers import already_said, has_content, say_field, say_fields
from runner.users.compromise import Change, proposed_change
from runner.users.topics import Field, all_fields, asked_fields, keys, path
from verifier.model.task import Task

PASS = "[pass]"
QUESTION_CUES = ("？", "?", "吗", "请", "说说", "告诉")
"""Words that make an agent message to everyone a question (a rule user answers it)."""
_VOLUNTEER_LEADS = ("另外，", "对了，", "补充一下，")
CHANGE_LEAD = "我这边有个变化："


def stable_int(*parts: object) -> int:
    """A 64-bit integer from the parts' text (SHA-256; unlike `hash()`, the same in every process)."""
    digest = hashlib.sha256("\x1f".join(str(part) for part in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


class RulesUser:
    """A rule-based traveller; see the module docstring for what it says when."""

    def __init__(self, name: str, task: Task, *, seed: int, volunteer_rate: float = 0.3) -> None:
        if not 0 <= volunteer_rate <= 1:
            raise ValueError(f"volunteer_rate: must be between 0 and 1, not {volunteer_rate}")
        self.name = name
        self.seed = seed
        self.volunteer_rate = volunteer_rate
        self._participants = [*task.user_names, AGENT]
        self._task_cities = list(task.metadata.cities)
        self._base = stable_int(task.task_id, name, seed)
        self._shift = _own_shift(task, name)

    def describe(self) -> dict[str, Any]:
        """Kind, seed and volunteering rate."""
        return {"kind": "rules", "seed": self.seed, "volunteer_rate": self.volunteer_rate}

    def reply(self, request: UserRequest) -> UserReply:
        """The traveller's next message (see the module docstring)."""
        slot = request.preference
        preference = slot.get("preference", slot) if isinstance(slot, dict) else {}
        salt = stable_int(self._base, len(request.history), request.attempt)
        text = self._reply_text(request, preference, salt)
        changed = self._changed(preference, request.history)
        if changed is None:
            return UserReply(text)
        announced = CHANGE_LEAD + say_fields(preference, [changed], salt)
        return UserReply(announced if text == PASS else announced + text)

    def _reply_text(self, request: UserRequest, preference: Any, salt: int) -> str:
        """What the traveller says before any announcement of a change."""
        cities = self._cities(preference)
        last = request.history[-1] if request.history else None
        if last is not None and last["role"] == AGENT and self._mentioned_last(last):
            return self._answer_mention(last["content"], request, preference, salt)
        question = self._open_question(request.history)
        if question is not None:
            return say_fields(preference, asked_fields(question, cities), salt)
        unsaid = self._unsaid(preference, request.history)
        if unsaid is not None and (salt % 1000) / 1000 < self.volunteer_rate:
            return _VOLUNTEER_LEADS[salt % 3] + say_fields(preference, [unsaid], salt)
        return PASS

    def _answer_mention(self, text: str, request: UserRequest, preference: Any, salt: int) -> str:
        cities = self._cities(preference)
        change = proposed_change(text, preference, cities)
        if change is not None:
            return _respond_to_change(change, request, preference, salt)
        fields = asked_fields(text, cities)
        if fields:
            return "好的，" + say_fields(preference, fields, salt)
        unsaid = self._unsaid(preference, request.history)
        if unsaid is None:
            return "我这边没有别的要求了，你安排就好。"
        return say_fields(preference, [unsaid], salt)

    def _mentioned_last(self, message: MessageEntry) -> bool:
        return last_mention(message["content"], self._participants) == self.name

    def _open_question(self, history: Sequence[MessageEntry]) -> str | None:
        """The agent's last message, when it came after this traveller last spoke, @-mentions
        nobody and asks about some field."""
        for message in reversed(history):
            if message["role"] == self.name:
                return None
            if message["role"] == AGENT:
                text = message["content"]
                if last_mention(text, self._participants) is not None:
                    return None
                asks = any(cue in text for cue in QUESTION_CUES) and asked_fields(text, self._task_cities)
                return text if asks else None
        return None

    def _unsaid(self, preference: Any, history: Sequence[MessageEntry]) -> Field | None:
        said = [message["content"] for message in history if message["role"] == self.name]
        return next(
            (
                field
                for field in all_fields(self._cities(preference))
                if has_content(preference, field) and not already_said(preference, field, said)
            ),
            None,
        )

    def _changed(self, preference: Any, history: Sequence[MessageEntry]) -> Field | None:
        """The field of this user's intent shift once ③ holds it and before the user announced it
        (a message of its own opening with `CHANGE_LEAD` that states the new value)."""
        if self._shift is None or value_at(preference, self._shift[0]) != self._shift[1]:
            return None
        said = [
            m["content"] for m in history if m["role"] == self.name and m["content"].startswith(CHANGE_LEAD)
        ]
        for field in all_fields(self._cities(preference)):
            if any(".".join(path(field, key)) == self._shift[0] for key in keys(field.topic)):
                shifted = has_content(preference, field) and not already_said(preference, field, said)
                return field if shifted else None
        return None

    def _cities(self, preference: Any) -> list[str]:
        """The task's cities, then any other city the slot has, in order."""
        own = preference.get("city_specific_preferences", {}) if isinstance(preference, dict) else {}
        return self._task_cities + [city for city in own if city not in self._task_cities]


def _own_shift(task: Task, name: str) -> tuple[str, Any] | None:
    """(field path, new value) of the task's intent shift when it is this user's
    (`runner.episode.shifts`); it has happened once ③ holds the new value there."""
    spec = (task.metadata.model_extra or {}).get("intent_shift")
    if isinstance(spec, dict) and spec.get("user") == name and isinstance(spec.get("field_path"), str):
        return str(spec["field_path"]), spec.get("value")
    return None


def _respond_to_change(change: Change, request: UserRequest, preference: Any, salt: int) -> str:
    if request.compromisable and request.compromises_left > 0 and change.markable:
        return f"好吧，为了大家我退一步，{change.said}。{change.marker()}"
    return "抱歉，这个我没法让步。" + say_field(preference, change.field, salt)
