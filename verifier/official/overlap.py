"""Per-user overlapping activity pairs inside one city block (official check 4 and GU §3.2).

The official evaluator finds overlaps only within a block, per user in `user_names`, among
the non-hotel activities the user takes part in, over every unordered pair in list order
(`ranges_overlap`: both ranges parse and run forward, and `s1 < e2 and s2 < e1`). Check 4
reports each pair as an issue; group utility excludes both activities of every pair from
attraction and food scoring. Both read this one function.

Instead of the official per-user O(n²) pair loop, the overlapping pairs of the block are
found once by a sweep over start times and then filtered per user; membership is still
tested for every non-hotel activity and user (trivially true for whole-group activities),
so a participants value the official `in` test cannot handle raises here too. The per-user
pass is skipped only when nothing overlaps and every participants value is a list or a
string (`user in members` cannot raise for a string user). The result is memoised on the
block, so check 4 and group utility walk it once per plan.
"""

from __future__ import annotations

from verifier.official.plan_view import ActivityRef, SegmentRef

UserPair = tuple[str, ActivityRef, ActivityRef]
_PLAIN_MEMBERS = (list, str)


def overlapping_pairs(block: SegmentRef, user_names: list[str]) -> list[UserPair]:
    """(user, first, second) for every overlapping pair of the user's activities in a block.

    Memoised on the block for the view's `user_names` (a call that raises stores nothing,
    so every caller raises alike).
    """
    found = block.user_overlaps
    if found is None:
        found = block.user_overlaps = _user_pairs(block, user_names)
    return found


def _user_pairs(block: SegmentRef, user_names: list[str]) -> list[UserPair]:
    acts: list[ActivityRef] = []
    plain = True
    for act in block.activities:
        if act.type != "hotel":
            acts.append(act)
            plain = plain and type(act.members) in _PLAIN_MEMBERS
    pairs = block_overlaps(acts)
    found: list[UserPair] = []
    if not pairs and plain:
        return found
    for user in user_names:
        inside = [act.members is user_names or user in act.members for act in acts]
        for i, j in pairs:
            if inside[i] and inside[j]:
                found.append((user, acts[i], acts[j]))
    return found


def block_overlaps(acts: list[ActivityRef]) -> list[tuple[int, int]]:
    """Index pairs (i < j, sorted) of activities whose forward time ranges overlap."""
    if _in_sequence(acts):
        return []
    forward: list[tuple[int, int, int]] = []
    for k, act in enumerate(acts):
        start, end = act.start, act.end
        if start is not None and end is not None and end > start:
            forward.append((start, end, k))
    forward.sort()
    pairs: list[tuple[int, int]] = []
    count = len(forward)
    for p, (_, end, k) in enumerate(forward):
        nxt = p + 1
        while nxt < count and forward[nxt][0] < end:
            q = forward[nxt][2]
            pairs.append((k, q) if k < q else (q, k))
            nxt += 1
    pairs.sort()
    return pairs


def _in_sequence(acts: list[ActivityRef]) -> bool:
    """True when every forward range starts no earlier than all earlier ones end (no overlap possible)."""
    latest = -1
    for act in acts:
        start, end = act.start, act.end
        if start is None or end is None or end <= start:
            continue
        if start < latest:
            return False
        latest = end
    return True
