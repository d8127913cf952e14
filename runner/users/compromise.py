"""Giving ground: the change an agent's message proposes to a traveller's own fields, and the
compromise marker that accepts it (docs/runner.md#the-protocol-as-implemented, Compromises).

A message proposes a change when it asks for one ("能不能", "可以接受", "换成", or a question with
"取消", "不去", …) and names a concrete value the traveller holds against: a budget or a cap above
the traveller's own ("预算提高到3500元"), an item of a negative list to include ("豪华型也可以接受
吗"), an item of a positive list to drop ("取消长隆海洋王国", "把飞机换成高铁"), or another
transport mode than the traveller's must.
Lowering a budget or a cap is no concession and is not treated as one. The accepted change is
one leaf of the preference object, written as the marker `[<dotted path> : <JSON value>]`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from runner.users.answers import say_number
from runner.users.tones import budgets, hour_caps, poi_caps
from runner.users.topics import LISTS, SCALARS, Field, Topic, all_fields, path, read

PROPOSAL_CUES = (
    "能不能",
    "能否",
    "可不可以",
    "可以吗",
    "是否可以",
    "行不行",
    "行吗",
    "好吗",
    "接受",
    "调整",
    "改成",
    "改为",
    "换成",
    "改坐",
    "放宽",
    "提高",
    "妥协",
    "让步",
    "退一步",
    "通融",
)
_DROP_CUES = (
    "不去",
    "取消",
    "去掉",
    "放弃",
    "不安排",
    "换掉",
    "删掉",
    "别去",
    "不吃",
    "不坐",
    "不住",
    "拿掉",
)
_SWAP_CUES = ("换成", "改成", "改为", "换为", "改坐")
MODES = ("高铁", "飞机", "火车", "自驾")
_CLAUSE = re.compile(r"[，,。！!？?；;\n]")
_MARKER_PATH = re.compile(r"[\w.]+")

_FINDERS: dict[str, Callable[[str], list[int | float]]] = {
    "avg_budget": budgets,
    "max_poi_per_day": lambda text: poi_caps(text, cue=False),
    "max_active_hours": lambda text: hour_caps(text, cue=False),
}


@dataclass(frozen=True)
class Change:
    """A proposed new value for one key of a field; `said` is how the traveller words agreeing."""

    field: Field
    key: str
    value: Any
    said: str

    @property
    def path(self) -> str:
        """The dotted path of the changed leaf inside the preference object."""
        return ".".join(path(self.field, self.key))

    @property
    def markable(self) -> bool:
        """Whether the marker grammar can carry the path (word characters and dots only)."""
        return _MARKER_PATH.fullmatch(self.path) is not None

    def marker(self) -> str:
        """The compromise marker accepting the change."""
        return f"[{self.path} : {json.dumps(self.value, ensure_ascii=False)}]"


def proposed_change(text: str, preference: Any, cities: Sequence[str]) -> Change | None:
    """The first change `text` proposes to the traveller's fields (in `all_fields` order), or None."""
    asks = any(cue in text for cue in PROPOSAL_CUES)
    asks_to_drop = any(mark in text for mark in ("吗", "？", "?")) and any(cue in text for cue in _DROP_CUES)
    if not (asks or asks_to_drop):
        return None
    for field in all_fields(cities):
        if field.topic in SCALARS:
            change = _scalar_change(text, preference, field)
        else:
            change = _list_change(text, preference, field)
        if change is not None:
            return change
    return None


def _scalar_change(text: str, preference: Any, field: Field) -> Change | None:
    for key in SCALARS[field.topic]:
        current = read(preference, field, key)
        raised = [value for value in _FINDERS[key](text) if current and value > current]
        if raised:
            return Change(field, key, raised[0], _SAID_SCALAR[key].format(n=say_number(raised[0])))
    return None


_SAID_SCALAR = {
    "avg_budget": "人均预算可以放宽到{n}元",
    "max_poi_per_day": "每天最多{n}个景点也行",
    "max_active_hours": "每天活动{n}小时也可以",
}


def _list_change(text: str, preference: Any, field: Field) -> Change | None:
    clauses = _CLAUSE.split(text)
    lists = {key: read(preference, field, key) for _, key in LISTS[field.topic]}
    for tier, key in LISTS[field.topic]:
        for item in lists[key]:
            clause = next((part for part in clauses if item in part), None)
            if clause is not None and _drops(clause, item) == tier.positive:
                rest = [other for other in lists[key] if other != item]
                return Change(field, key, rest, f"{item}不强求了" if tier.positive else f"{item}也可以接受")
    if field.topic is Topic.TRANSPORT and lists["must"]:
        for mode in MODES:
            clause = next((part for part in clauses if mode in part), None)
            if mode not in lists["must"] and clause is not None and not _drops(clause, mode):
                return Change(field, "must", [], f"{'、'.join(lists['must'])}不强求了，坐{mode}也行")
    return None


def _drops(clause: str, item: str) -> bool:
    """Whether the clause proposes to drop `item` rather than to include it: a swap cue after the
    item drops it ("把飞机换成高铁"), one before includes it, else any drop cue drops it."""
    at = clause.find(item)
    swaps = [clause.find(cue) for cue in _SWAP_CUES if cue in clause]
    if swaps:
        return min(swaps) > at
    return any(cue in clause for cue in _DROP_CUES)
