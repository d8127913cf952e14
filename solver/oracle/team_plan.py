"""One team's route through a city block, as the plan writer reads it from a solution: its
visits with the starts their windows allow, and the moves the writer may make without leaving
the strict plan space (shift, delay, compact)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from solver.oracle.catalog import CityCatalog
from verifier.strict.clock import DAY


class Timing(Enum):
    """Where a team waits around a transfer: at the destination (leave at once) or at the
    origin (arrive just in time)."""

    EARLY = "early"
    LATE = "late"


@dataclass(frozen=True)
class Visit:
    """A stop of a team's route: place name, kind, start minute, service minutes, price, and the
    starts its opening and meal windows allow."""

    name: str
    kind: str
    start: int
    service: int
    price_fen: int
    starts: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class TeamPlan:
    """What one team does in a block."""

    who: tuple[str, ...]
    origin: str
    destination: str
    leave: int
    back: int
    visits: tuple[Visit, ...]
    limit: int = DAY - 1
    """The latest minute the team may reach its destination."""

    def departure(self, catalog: CityCatalog) -> int:
        """When the team leaves its start place: just in time for its first stop (the group
        stays at the hotel or the hub until then)."""
        if not self.visits:
            return self.leave
        first = self.visits[0]
        hop = catalog.hop(self.origin, first.name)
        return first.start - (hop.minutes if hop is not None and first.name != self.origin else 0)

    def shifted(self, catalog: CityCatalog, minutes: int) -> TeamPlan | None:
        """The same route every visit `minutes` later, when the windows and the end allow."""
        visits = tuple(replace(visit, start=visit.start + minutes) for visit in self.visits)
        if any(not any(low <= v.start <= high for low, high in v.starts) for v in visits):
            return None
        moved = replace(self, visits=visits)
        return moved if arrival(catalog, moved) <= self.limit else None

    def delayed(self, catalog: CityCatalog, index: int, minutes: int) -> TeamPlan | None:
        """The same route with visit `index` `minutes` later and the later visits pushed only as
        far as their transfers need, when the windows and the end allow."""
        visits = list(self.visits)
        visits[index] = replace(visits[index], start=visits[index].start + minutes)
        for j in range(index + 1, len(visits)):
            before, visit = visits[j - 1], visits[j]
            hop = catalog.hop(before.name, visit.name)
            ready = before.start + before.service + (hop.minutes if hop and before.name != visit.name else 0)
            if ready <= visit.start:
                break
            visits[j] = replace(visit, start=ready)
        if any(not any(low <= v.start <= high for low, high in v.starts) for v in visits):
            return None
        moved = replace(self, visits=tuple(visits))
        return moved if arrival(catalog, moved) <= self.limit else None

    def compacted(self, catalog: CityCatalog, *, fixed_start: bool, fixed_end: bool) -> TeamPlan:
        """The same route with the waits between visits closed as far as the windows allow, so
        the team idles as little as it can (`tiebreak.idle_minutes`). After a fixed start (an
        arrival hub: waiting there is idle) every visit moves as early as it can; otherwise (a
        hotel: the morning there is not idle) every visit moves as late as the next one allows,
        the last one too — up to the departing leg — when the end is fixed (a departure hub).
        A visit only moves towards the side it compacts to, so every move stays feasible."""
        if not self.visits:
            return self
        if fixed_start:
            return replace(self, visits=self._earliest(catalog))
        return replace(self, visits=self._latest(catalog, fixed_end=fixed_end))

    def _earliest(self, catalog: CityCatalog) -> tuple[Visit, ...]:
        out: list[Visit] = []
        here, ready = self.origin, self.leave
        for visit in self.visits:
            ready += _hop(catalog, here, visit.name)
            start = min(
                (max(low, ready) for low, high in visit.starts if max(low, ready) <= high),
                default=visit.start,
            )
            out.append(replace(visit, start=min(start, visit.start)))
            here, ready = visit.name, out[-1].start + visit.service
        return tuple(out)

    def _latest(self, catalog: CityCatalog, *, fixed_end: bool) -> tuple[Visit, ...]:
        last = self.visits[-1]
        if fixed_end:
            due = self.limit - _hop(catalog, last.name, self.destination) - last.service
        else:
            due = last.start
        out = [replace(last, start=_latest_start(last, due))]
        for visit in reversed(self.visits[:-1]):
            after = out[-1]
            due = after.start - _hop(catalog, visit.name, after.name) - visit.service
            out.append(replace(visit, start=_latest_start(visit, due)))
        return tuple(reversed(out))


def arrival(catalog: CityCatalog, team: TeamPlan) -> int:
    """When the team reaches its destination (leaving at once after its last visit)."""
    if not team.visits:
        hop = catalog.hop(team.origin, team.destination)
        return team.leave + (hop.minutes if hop and team.origin != team.destination else 0)
    last = team.visits[-1]
    hop = catalog.hop(last.name, team.destination)
    end = last.start + last.service
    return end + (hop.minutes if hop and last.name != team.destination else 0)


def _hop(catalog: CityCatalog, origin: str, destination: str) -> int:
    """Minutes of the quickest transfer (0 when staying put)."""
    if origin == destination:
        return 0
    hop = catalog.hop(origin, destination)
    return hop.minutes if hop is not None else 0


def _latest_start(visit: Visit, due: int) -> int:
    """The latest start its windows allow between the visit's own start and `due`."""
    starts = [min(high, due) for low, high in visit.starts if min(high, due) >= max(low, visit.start)]
    return max(starts, default=visit.start)
