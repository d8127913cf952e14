"""Check 9 (names) — participant lists name known travellers, sensibly.

Why: the official check accepts `["All", "User1"]` (which then means only User1), duplicates,
hotels for part of the group, and knows nothing of children. Travellers are the task's users
plus its children (metadata `child_members` without a preference table); "All" means every
traveller, children included. A list must be non-empty, not mix "All" with names, not repeat
a name and name only travellers; a hotel is shared by the whole group; a child never goes
anywhere without an adult (a user) in the same activity.
"""

from __future__ import annotations

from verifier.model.plan import ALL
from verifier.model.verdict import Violation
from verifier.strict.finding import violation
from verifier.strict.trip import Trip


def participant_violations(trip: Trip) -> list[Violation]:
    """Check 9: empty, "All" mixed with names, duplicates, unknown names, partial hotels, lone children."""
    out: list[Violation] = []
    known = set(trip.travellers)
    for item in trip.items:
        if item.activity is None:
            continue
        names = item.activity.participants
        where = f"{item.loc}.participants"
        if not names:
            out.append(violation("strict.participants_empty", 9, where, "participants is an empty list"))
            continue
        if ALL in names and any(name != ALL for name in names):
            message = f"{names}: 'All' mixed with names (use either ['All'] or the names)"
            out.append(violation("strict.participants_all_mixed", 9, where, message, participants=names))
        repeated = sorted({name for name in names if names.count(name) > 1})
        if repeated:
            message = f"{', '.join(repeated)} listed more than once"
            out.append(violation("strict.participants_duplicate", 9, where, message, names=repeated))
        for name in dict.fromkeys(names):
            if name != ALL and name not in known:
                message = f"{name!r} is not a traveller ({', '.join(trip.travellers)})"
                out.append(violation("strict.participant_unknown", 9, where, message, name=name))
        named = {name for name in names if name in known}
        if item.kind == "hotel" and ALL not in names and named != known:
            message = "a hotel stay is shared by the whole group: use ['All']"
            out.append(
                violation("strict.participants_not_whole_group", 9, where, message, participants=names)
            )
        elif named & trip.children and not named - trip.children and ALL not in names:
            message = f"children {sorted(named)} without an adult"
            out.append(violation("strict.child_unaccompanied", 9, where, message, children=sorted(named)))
    return out
