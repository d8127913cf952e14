"""Per-user overlapping activity pairs inside one city block (official check 4 and GU §3.2).

The official evaluator finds overlaps only within a block, per user in `user_names`, among
the non-hotel activities the user takes part in, over every unordered pair in list order.
Check 4 reports each pair as an issue; group utility excludes both activities of every pair
from attraction and food scoring. Both read this one function.
"""

from __future__ import annotations

from collections.abc import Iterator

from verifier.official.plan_view import ActivityRef, SegmentRef
from verifier.official.primitives import ranges_overlap


def overlapping_pairs(
    block: SegmentRef, user_names: list[str]
) -> Iterator[tuple[str, ActivityRef, ActivityRef]]:
    """Yield (user, first, second) for every overlapping pair of the user's activities in a block."""
    for user in user_names:
        own = [act for act in block.activities if act.type != "hotel" and user in act.members]
        for i, first in enumerate(own):
            for second in own[i + 1 :]:
                if ranges_overlap(
                    first.raw.get("start_time"),
                    first.raw.get("end_time"),
                    second.raw.get("start_time"),
                    second.raw.get("end_time"),
                ):
                    yield user, first, second
