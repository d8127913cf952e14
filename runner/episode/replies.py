"""What a user's reply does to the chat (docs/runner.md#the-protocol-as-implemented, User replies and
Compromises).

A reply is first stripped of trailing passes; an exact "[pass]" says nothing. A reply ending with
a compromise marker is *invalid* — to be asked again — when the value is malformed, when the
previous outward message is not the Agent's or does not @-mention this user last, or when the
tracker refuses it (user at the cap, path that cannot be set). A valid marker is applied and
stripped. On the last allowed attempt (`force`) the marker is applied without the "Agent asked
this user" rule (the cap and the path rules still hold) and stripped whatever the outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from runner.episode.compromise import CompromiseTracker
from runner.episode.markers import find_marker
from runner.episode.passes import is_pass, strip_passes

Outcome = Literal["pass", "commit", "invalid"]


@dataclass(frozen=True)
class Judged:
    """A reply's outcome and the text to commit (meaningful for "commit")."""

    outcome: Outcome
    text: str


@dataclass(frozen=True)
class ReplyContext:
    """Who replied, whether the Agent asked them, and the event counter a log entry records."""

    user: str
    asked: bool
    round_: int
    force: bool = False


def judge_reply(text: str, context: ReplyContext, tracker: CompromiseTracker) -> Judged:
    """Decide a user reply's fate, applying its compromise to `tracker` when valid."""
    cleaned = strip_passes(text)
    if is_pass(cleaned):
        return Judged("pass", cleaned)
    marker = find_marker(cleaned)
    if marker is None:
        return Judged("commit", cleaned)
    if context.force:
        if marker.parsed:
            tracker.apply(context.user, marker.path, marker.value, context.round_)
        return Judged("commit", marker.remainder)
    if not (marker.parsed and context.asked):
        return Judged("invalid", cleaned)
    if not tracker.apply(context.user, marker.path, marker.value, context.round_):
        return Judged("invalid", cleaned)
    return Judged("commit", marker.remainder)
