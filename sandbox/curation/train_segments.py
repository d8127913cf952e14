"""ChinaTravel's train segments made consistent before curation (`sandbox.curation.timetable_data`).

ChinaTravel lists a train once per city pair it serves (`from_X_to_Y.json`), so one train number
appears in several files, and the files sometimes disagree. A train's segments contradict each
other when, at one station, they give

- two departure times, or two arrival times (e.g. G124 reaches 南京南站 at 12:07 in two files and
  12:23 in a third), or
- an arrival that does not precede the departure by 0–`MAX_DWELL` minutes (G179 leaves 南京南站
  at 13:02 but one segment arrives there at 13:08);

and a segment contradicts itself when its clock times and its duration differ by more than
`DURATION_TOLERANCE` minutes beyond whole days (G4362 苏州南站 07:22 → 深圳东站 07:28 in 10.1 h).

The rule: drop self-contradicting segments; then at each contested station time keep the time
with the most segments behind it, ties broken first by agreeing with the station's other time
(an arrival that precedes the departure, and vice versa), then by the RailwayVIS run of that
number (the time it gives at the station's city); a tie that remains keeps none. Segments giving
a time that was not kept are dropped. A dwell still out of range after that drops the segments
arriving and leaving there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

DAY = 1440
MAX_DWELL = 180
"""Minutes a train may stand at a stop (ChinaTravel's consistent stops: 0–39)."""
DURATION_TOLERANCE = 30
"""Minutes a segment's clock times may differ from its duration (hours to 0.01–0.1: ≤ 6 min)."""

DEPART, ARRIVE = "depart", "arrive"
KINDS = ("duration", "two departures", "two arrivals", "dwell")
"""Kinds of contradiction, as `Report.trains` counts them."""


@dataclass(frozen=True, slots=True)
class Segment:
    """One ChinaTravel train record: number, stations, their cities (short names as the file
    names give them), departure and arrival clock minutes (0–1439), duration in minutes."""

    code: str
    origin: str
    destination: str
    origin_city: str
    destination_city: str
    depart: int
    arrive: int
    minutes: int
    fare: str


@dataclass
class Report:
    """What the rule found: trains per kind of contradiction, dropped segments, examples."""

    trains: dict[str, set[str]] = field(default_factory=lambda: {k: set() for k in KINDS})
    dropped: list[Segment] = field(default_factory=list)

    def affected(self) -> set[str]:
        """Every train number with some contradiction."""
        return set().union(*self.trains.values())

    def summary(self) -> str:
        """One line: trains affected (by kind) and segments dropped."""
        kinds = ", ".join(f"{kind} {len(codes)}" for kind, codes in self.trains.items())
        return (
            f"ChinaTravel trains with contradicting segments: {len(self.affected())} ({kinds}); "
            f"segments dropped: {len(self.dropped)}"
        )


RailTimes = Mapping[str, Mapping[tuple[str, str], int]]
"""Train number → (city short name, DEPART / ARRIVE) → clock minute, from RailwayVIS."""


def self_consistent(segment: Segment) -> bool:
    """Whether a segment's clock times agree with its duration (modulo whole days)."""
    gap = (segment.arrive - segment.depart - segment.minutes) % DAY
    return min(gap, DAY - gap) <= DURATION_TOLERANCE


def dwell_ok(arrive: int, depart: int) -> bool:
    """Whether a departure follows an arrival at the same stop by 0–`MAX_DWELL` minutes."""
    return (depart - arrive) % DAY <= MAX_DWELL


def consistent(segments: Iterable[Segment], rail: RailTimes) -> tuple[list[Segment], Report]:
    """The segments the rule keeps (in input order) and the report of what it dropped."""
    report = Report()
    ordered = list(segments)
    by_code: dict[str, list[Segment]] = {}
    for segment in ordered:
        by_code.setdefault(segment.code, []).append(segment)
    dropped: set[int] = set()
    for code, group in by_code.items():
        for segment in group:
            if not self_consistent(segment):
                report.trains["duration"].add(code)
                dropped.add(id(segment))
        kept = [s for s in group if id(s) not in dropped]
        dropped |= {id(s) for s in _contested(kept, rail.get(code, {}), report)}
    report.dropped = [s for s in ordered if id(s) in dropped]
    return [s for s in ordered if id(s) not in dropped], report


def _times(segments: Sequence[Segment]) -> dict[tuple[str, str], Counter[int]]:
    """(station, DEPART / ARRIVE) → votes per clock minute."""
    votes: dict[tuple[str, str], Counter[int]] = {}
    for s in segments:
        votes.setdefault((s.origin, DEPART), Counter())[s.depart] += 1
        votes.setdefault((s.destination, ARRIVE), Counter())[s.arrive] += 1
    return votes


def _contested(
    segments: Sequence[Segment], rail: Mapping[tuple[str, str], int], report: Report
) -> list[Segment]:
    """The segments of one train that give a time the rule does not keep."""
    if not segments:
        return []
    code = segments[0].code
    cities = {s.origin: s.origin_city for s in segments}
    cities |= {s.destination: s.destination_city for s in segments}
    votes = _times(segments)
    kept: dict[tuple[str, str], int | None] = {}
    for (station, kind), counter in votes.items():
        if len(counter) == 1:
            kept[(station, kind)] = next(iter(counter))
            continue
        report.trains["two departures" if kind == DEPART else "two arrivals"].add(code)
        other = votes.get((station, ARRIVE if kind == DEPART else DEPART), Counter())
        railway = rail.get((cities[station], kind))
        kept[(station, kind)] = _winner(counter, kind, other, railway)
    for station in cities:
        arrive, depart = kept.get((station, ARRIVE)), kept.get((station, DEPART))
        if arrive is not None and depart is not None and not dwell_ok(arrive, depart):
            report.trains["dwell"].add(code)
            kept[(station, ARRIVE)] = kept[(station, DEPART)] = None
    return [
        s
        for s in segments
        if kept[(s.origin, DEPART)] != s.depart or kept[(s.destination, ARRIVE)] != s.arrive
    ]


def _winner(counter: Counter[int], kind: str, other: Counter[int], railway: int | None) -> int | None:
    """The time kept among contested ones: most votes, then fits the stop's other time, then
    RailwayVIS; None when still tied."""

    def fits(time: int) -> bool:
        pairs = ((time, t) if kind == ARRIVE else (t, time) for t in other)
        return any(dwell_ok(a, d) for a, d in pairs)

    ranked = sorted(((counter[t], fits(t), t == railway), t) for t in counter)
    best, runner = ranked[-1], ranked[-2]
    return best[1] if best[0] != runner[0] else None
