"""Check 6 — getting around town: a real, long-enough transfer between consecutive places.

Why: the official check resets every morning (the hotel → first stop trip is free), accepts
any transfer after an arrival, and never looks at durations. Here each traveller's position
is tracked over the whole trip in list order: a hotel, attraction or restaurant puts them at
its location, a transfer at its `to`, a leg at the matched departure's arrival hub (unknown
after an unmatched leg, or after a door-to-door self-drive with no hub), a rest keeps them
where they are (a rest naming another place is a missing transfer). Then:

- reaching a place (or a leg's departure hub) other than the current position needs a
  transfer first (`transfer_missing`); a transfer must start where the traveller is;
- a transfer uses an intracity mode and two places the world can route between, and lasts at
  least `world.transfer(city, from, to, mode).minutes`.
The first day starts at home (no position), so the outbound leg needs no transfer to the hub.
"""

from __future__ import annotations

from verifier.model.verdict import Violation
from verifier.strict.finding import violation
from verifier.strict.trip import LEG, Item, Trip

INTRACITY_MODES = ("公共交通", "骑车", "步行", "自驾", "打车")


def transfer_violations(trip: Trip) -> list[Violation]:
    """Check 6: transfer legality per item, then per-traveller continuity of positions."""
    found: dict[tuple[int, str, str, str], list[str]] = {}
    position: dict[str, str | None] = dict.fromkeys(trip.travellers)
    for item in trip.items:
        need, after = _ends(item)
        for name in item.who:
            here = position[name]
            if here is not None and need is not None and need != here:
                code = (
                    "strict.transfer_origin_mismatch"
                    if item.kind == "intracity_transport"
                    else "strict.transfer_missing"
                )
                found.setdefault((item.index, code, here, need), []).append(name)
            if after != "":
                position[name] = after
    out: list[Violation] = []
    by_item: dict[int, list[Violation]] = {}
    for (index, code, here, need), users in sorted(found.items()):
        by_item.setdefault(index, []).append(_continuity(trip.items[index], code, here, need, users))
    for item in trip.items:
        if item.kind == "intracity_transport":
            out += _transfer(trip, item)
        out += by_item.get(item.index, [])
    return out


def _ends(item: Item) -> tuple[str | None, str | None]:
    """(where the traveller must be before the item — None: anywhere; where they are after it —
    None: unknown, "": unchanged)."""
    if item.kind == LEG:
        option = item.match.option if item.match is not None else None
        if option is None:
            return None, None
        return option.from_hub or None, option.to_hub or None
    if item.activity is None:
        return None, ""
    if item.kind == "intracity_transport":
        return item.activity.from_place, item.activity.to
    if item.kind == "rest":
        return item.activity.location or None, ""
    return item.activity.location, item.activity.location


def _continuity(item: Item, code: str, here: str, need: str, users: list[str]) -> Violation:
    who = ", ".join(users)
    if code == "strict.transfer_origin_mismatch":
        message = f"{who}: the transfer starts at {need!r} but they are at {here!r}"
        return violation(code, 6, f"{item.loc}.from", message, expected=here, actual=need, users=users)
    message = f"{who}: no transfer from {here!r} to {need!r}"
    return violation(code, 6, item.loc, message, from_place=here, to_place=need, users=users)


def _transfer(trip: Trip, item: Item) -> list[Violation]:
    act = item.activity
    if act is None:
        return []
    if act.transport_mode not in INTRACITY_MODES:
        message = f"{act.transport_mode!r} is not an intracity mode ({', '.join(INTRACITY_MODES)})"
        return [
            violation(
                "strict.transfer_mode_unknown",
                6,
                f"{item.loc}.transport_mode",
                message,
                mode=act.transport_mode,
            )
        ]
    hop = trip.world.transfer(item.city, act.from_place, act.to, act.transport_mode)
    if hop is None:
        message = f"the world cannot route {act.from_place!r} → {act.to!r} in {item.city}"
        return [
            violation(
                "strict.transfer_unknown",
                6,
                item.loc,
                message,
                city=item.city,
                from_place=act.from_place,
                to_place=act.to,
            )
        ]
    minutes = item.end - item.start
    if item.forward and minutes < hop.minutes:
        message = (
            f"{act.transport_mode} {act.from_place} → {act.to} takes {hop.minutes} min, planned {minutes}"
        )
        return [
            violation(
                "strict.transfer_too_short", 6, item.loc, message, minutes=minutes, required=hop.minutes
            )
        ]
    return []
