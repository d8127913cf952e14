"""One official plan-validity finding, with the check that raised it and where it points."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class OfficialIssue:
    """An official issue dict (`issue`, keys and message verbatim) from check `check` (1–9).

    `loc` is the JSON path of the offending day, segment, activity or field, e.g.
    `$.days[1].city_segments[2].activities[0].start_time`.
    """

    check: int
    loc: str
    issue: dict[str, Any]
