"""Matching a plan's intercity leg to a real departure of the world's timetable.

A leg matches an option when the mode is the same string and, for a timetabled option, the
planned departure and arrival are each within `LEG_TOLERANCE_MINUTES` of the option's; for a
flexible option (self-drive), any departure works and the planned duration must be within the
tolerance of the option's driving time. Among matching options the closest one wins (sum of
absolute deviations), ties broken by timetable order — so the choice is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from verifier.world_facts import IntercityOption

LEG_TOLERANCE_MINUTES = 5


@dataclass(frozen=True)
class LegMatch:
    """The outcome of matching one leg: the option, or why there is none."""

    option: IntercityOption | None
    modes: tuple[str, ...]
    """Modes the timetable offers for that route and date (sorted, for messages)."""


def match_leg(options: Sequence[IntercityOption], mode: str, depart: int, arrive: int) -> LegMatch:
    """Match a leg departing at `depart` and arriving at `arrive` (minutes since midnight of the
    departure date; `arrive` may exceed 1440) against the day's options."""
    best: tuple[int, int] | None = None
    chosen: IntercityOption | None = None
    for index, option in enumerate(options):
        if option.mode != mode:
            continue
        deviation = _deviation(option, depart, arrive)
        if deviation is not None and (best is None or (deviation, index) < best):
            best, chosen = (deviation, index), option
    return LegMatch(chosen, tuple(sorted({option.mode for option in options})))


def matches_itself(
    options: Sequence[IntercityOption], option: IntercityOption, depart: int, arrive: int
) -> bool:
    """Whether a leg of `option`'s mode written at these times is matched to `option` itself:
    of several departures with one mode and the same times (codeshares) only the first in
    timetable order ever is, so a planner that declares another's fare is priced at the first's."""
    return match_leg(options, option.mode, depart, arrive).option is option


def _deviation(option: IntercityOption, depart: int, arrive: int) -> int | None:
    if option.flexible:
        gap = abs((arrive - depart) - (option.arrive - option.depart))
        return gap if gap <= LEG_TOLERANCE_MINUTES else None
    off_depart, off_arrive = abs(depart - option.depart), abs(arrive - option.arrive)
    if off_depart > LEG_TOLERANCE_MINUTES or off_arrive > LEG_TOLERANCE_MINUTES:
        return None
    return off_depart + off_arrive
