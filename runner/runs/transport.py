"""Transport faults a trial met: what the model-backed players of each attempt counted.

A model call that fails on a connection error, a 429, a 5xx, an undecodable body or a reply
without choices is re-sent by the client (`runner.llm.client`), which counts each failed attempt
by kind. A trial's line carries the sum over its agent and users and over every attempt of the
trial as `transport_faults` {kind: count} — only when some player talks to a model, so baseline
lines are unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from runner.episode.conversation import CountsFaults
from runner.runs.cast import Cast


def cast_faults(cast: Cast) -> Counter[str] | None:
    """The faults the cast's model-backed players met; None when no player calls a model."""
    players: Iterable[object] = (cast.agent, *cast.users.values())
    counting = [player for player in players if isinstance(player, CountsFaults)]
    if not counting:
        return None
    total: Counter[str] = Counter()
    for player in counting:
        total.update(player.transport_faults())
    return total


def add_faults(total: Counter[str] | None, more: Counter[str] | None) -> Counter[str] | None:
    """`total` plus one more attempt's faults (None stays None only when both are)."""
    if more is None:
        return total
    if total is None:
        return Counter(more)
    total.update(more)
    return total


def faults_field(total: Counter[str] | None) -> dict[str, dict[str, int]]:
    """The line's `transport_faults` entry: kinds sorted, zero counts left out; none without models."""
    if total is None:
        return {}
    return {"transport_faults": {kind: total[kind] for kind in sorted(total) if total[kind]}}
