"""The day-routing core: one optional-stop route with time windows, as CP-SAT constraints.

A route leaves an origin at `leave`, visits some of the stops — each one inside one of its
allowed start intervals, staying `service` minutes — and reaches a destination at `back`. It
is a team orienteering tour with time windows (OPTW when used alone): the caller puts rewards
on `visit` and couples routes (a stop at most once over several routes, day caps, …).

Modelling (see `docs/oracle.md`): one `add_circuit` over the stops plus a depot node 0 that
stands for both ends (arc 0→i leaves the origin, i→0 returns to the destination, the self-loop
0→0 is the empty route); a skipped stop takes its self-loop. Every kept arc carries a
two-variable precedence `start_j ≥ start_i + service_i + travel_ij`, enforced by the arc, so
CP-SAT can derive routing cuts from it. Where the origin or destination is itself a choice
(which hotel tonight), each alternative is a literal and the end arcs are enforced by both.
Arcs that no schedule can use are never created: i→j is dropped when the earliest start of i
plus its service and the travel already misses the last start of j.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from ortools.sat.python import cp_model
from ortools.util.python import sorted_interval_list

Interval = tuple[int, int]


@dataclass(frozen=True)
class Stop:
    """An optional stop: minutes of service and the allowed service-start intervals (inclusive)."""

    service: int
    starts: tuple[Interval, ...]

    @cached_property
    def first(self) -> int:
        """The earliest service start any interval allows."""
        return min(low for low, _ in self.starts)

    @cached_property
    def last(self) -> int:
        return max(high for _, high in self.starts)

    def first_start(self, arrival: int) -> int | None:
        """The earliest service start at or after `arrival` inside one of the intervals (None:
        they have all closed)."""
        return next((max(low, arrival) for low, high in self.starts if high >= arrival), None)


@dataclass(frozen=True)
class End:
    """One alternative for the route's origin (or destination): the literal that selects it
    (None: always) and the travel minutes to (or from) each stop, None where no trip exists."""

    literal: cp_model.IntVar | None
    travel: tuple[int | None, ...]


@dataclass
class Route:
    """The variables of one route."""

    visit: list[cp_model.IntVar]
    start: list[cp_model.IntVar]
    arcs: dict[tuple[int, int], cp_model.IntVar]
    """Circuit arcs by node pair: node 0 is the depot, stop k is node k + 1."""
    empty: cp_model.IntVar
    moving: cp_model.IntVar
    """Total travel minutes on the route's arcs (free on an inactive route)."""
    first: cp_model.IntVar
    """Travel minutes out of the origin (or straight to the destination on an empty route)."""
    last: cp_model.IntVar
    """Travel minutes into the destination."""
    travel_terms: list[tuple[int, cp_model.IntVar]] = field(default_factory=list)


def stop_domain(stop: Stop) -> cp_model.Domain:
    """The CP-SAT domain of a stop's service start."""
    return sorted_interval_list.Domain.from_intervals([list(pair) for pair in stop.starts])


@dataclass(frozen=True)
class Graph:
    """What a route may do: the stops, the travel minutes between them (`travel[i][j]`, None:
    no arc), the origin and destination alternatives, and `direct[a][b]`, the minutes from
    origin a straight to destination b (the empty route; None: impossible)."""

    stops: tuple[Stop, ...]
    travel: tuple[tuple[int | None, ...], ...]
    origins: tuple[End, ...]
    destinations: tuple[End, ...]
    direct: tuple[tuple[int | None, ...], ...]


def add_route(
    model: cp_model.CpModel,
    graph: Graph,
    leave: cp_model.IntVar,
    back: cp_model.IntVar,
    *,
    active: cp_model.IntVar | None = None,
    name: str = "r",
    bare: bool = False,
) -> Route:
    """Add one route over `graph` to `model`, leaving its origin at `leave` and reaching its
    destination at `back`. When `active` is given and false, the route is empty and its times
    are free. A `bare` route has the same variables (the same arcs) and no constraint: a model
    to write given values from (`emit.PlanWriter`), not to solve."""
    builder = _Builder(model, graph, name)
    return builder.variables(leave) if bare else builder.build(leave, back, active)


class _Builder:
    """Builds one route's variables, circuit and precedences."""

    def __init__(self, model: cp_model.CpModel, graph: Graph, name: str) -> None:
        self.model, self.graph, self.name = model, graph, name
        stops = graph.stops
        self.route = Route(
            [model.new_bool_var(f"{name}v{i}") for i in range(len(stops))],
            [model.new_int_var_from_domain(stop_domain(stop), f"{name}t{i}") for i, stop in enumerate(stops)],
            {},
            model.new_bool_var(f"{name}empty"),
            model.new_int_var(0, cp_model.INT32_MAX, f"{name}m"),
            model.new_int_var(0, cp_model.INT32_MAX, f"{name}first"),
            model.new_int_var(0, cp_model.INT32_MAX, f"{name}last"),
        )
        self.back: cp_model.IntVar | None = None
        self.circuit: list[tuple[int, int, cp_model.LiteralT]] = [(0, 0, self.route.empty)]

    def build(self, leave: cp_model.IntVar, back: cp_model.IntVar, active: cp_model.IntVar | None) -> Route:
        model, graph, route = self.model, self.graph, self.route
        self.back = back
        if active is not None:
            model.add_implication(active.Not(), route.empty)
        self._direct(leave, back, active)
        earliest = self._earliest(leave)
        for i, stop in enumerate(graph.stops):
            visit = route.visit[i]
            self.circuit.append((i + 1, i + 1, visit.Not()))
            model.add_implication(visit, route.empty.Not())
            if not _reachable(stop, earliest[i]):
                model.add(visit == 0)
                continue
            out_arc = self._arc(0, i + 1)
            for end in graph.origins:
                self._end_arc(out_arc, end, end.travel[i], (leave, route.start[i], 0))
            in_arc = self._arc(i + 1, 0)
            for end in graph.destinations:
                self._end_arc(in_arc, end, end.travel[i], (route.start[i], back, stop.service))
            for j in self._successors(i, earliest):
                minutes = self.graph.travel[i][j] or 0
                arc = self._arc(i + 1, j + 1)
                model.add(route.start[j] >= route.start[i] + stop.service + minutes).only_enforce_if(arc)
                if minutes:
                    route.travel_terms.append((minutes, arc))
        model.add_circuit(self.circuit)
        stops = sum(minutes * lit for minutes, lit in route.travel_terms)
        model.add(route.moving == stops + route.first + route.last)
        model.add(route.last == 0).only_enforce_if(route.empty)
        self._knapsack(leave, back)
        return route

    def variables(self, leave: cp_model.IntVar) -> Route:
        """The route's variables and the arcs `build` would create, without constraints."""
        earliest = self._earliest(leave)
        for i, stop in enumerate(self.graph.stops):
            if _reachable(stop, earliest[i]):
                self._arc(0, i + 1)
                self._arc(i + 1, 0)
                for j in self._successors(i, earliest):
                    self._arc(i + 1, j + 1)
        return self.route

    def _earliest(self, leave: cp_model.IntVar) -> list[int | None]:
        """Each stop's earliest service start straight from the origin (None: unreachable)."""
        leave_low = int(leave.proto.domain[0])
        return [
            _earliest(stop, leave_low, [end.travel[i] for end in self.graph.origins])
            for i, stop in enumerate(self.graph.stops)
        ]

    def _successors(self, i: int, earliest: Sequence[int | None]) -> list[int]:
        """The stops j of the arcs i→j some schedule can use: j reachable, and the earliest
        start of i plus its service and the travel not past the last start of j."""
        stops, travel = self.graph.stops, self.graph.travel[i]
        first = earliest[i]
        assert first is not None
        return [
            j
            for j, other in enumerate(stops)
            if j != i
            and (minutes := travel[j]) is not None
            and earliest[j] is not None
            and first + stops[i].service + minutes <= other.last
        ]

    def _knapsack(self, leave: cp_model.IntVar, back: cp_model.IntVar) -> None:
        """Redundant cut for the LP: each visited stop takes its service plus its cheapest way in,
        all within `back − leave`."""
        cheapest: dict[int, int] = {}
        for (tail, head), _ in self.route.arcs.items():
            if head == 0:
                continue
            i = head - 1
            if tail == 0:
                minutes = min(
                    (m for end in self.graph.origins if (m := end.travel[i]) is not None), default=0
                )
            else:
                minutes = self.graph.travel[tail - 1][i] or 0
            cheapest[i] = min(cheapest.get(i, minutes), minutes)
        weights = [
            (self.graph.stops[i].service + minutes, self.route.visit[i]) for i, minutes in cheapest.items()
        ]
        if weights:
            self.model.add(sum(w * lit for w, lit in weights) <= back - leave)

    def _arc(self, tail: int, head: int) -> cp_model.IntVar:
        arc = self.model.new_bool_var(f"{self.name}a{tail}_{head}")
        self.route.arcs[(tail, head)] = arc
        self.circuit.append((tail, head, arc))
        return arc

    def _end_arc(
        self,
        arc: cp_model.IntVar,
        end: End,
        minutes: int | None,
        times: tuple[cp_model.IntVar, cp_model.IntVar, int],
    ) -> None:
        """Precedence on an arc between the depot and a stop for one end alternative:
        `after ≥ before + service + minutes` with `times = (before, after, service)`; the
        minutes also bound the route's end travel from below."""
        before, after, service = times
        guard = [arc] if end.literal is None else [arc, end.literal]
        if minutes is None:
            self.model.add_bool_or([lit.Not() for lit in guard])
            return
        self.model.add(after >= before + service + minutes).only_enforce_if(guard)
        ends = self.route.first if after is not self.back else self.route.last
        self.model.add(ends == minutes).only_enforce_if(guard)

    def _direct(self, leave: cp_model.IntVar, back: cp_model.IntVar, active: cp_model.IntVar | None) -> None:
        """The empty route goes straight from origin to destination."""
        for a, origin in enumerate(self.graph.origins):
            for b, destination in enumerate(self.graph.destinations):
                ends = (origin.literal, destination.literal, active)
                guard = [self.route.empty, *(lit for lit in ends if lit is not None)]
                minutes = self.graph.direct[a][b]
                if minutes is None:
                    self.model.add_bool_or([lit.Not() for lit in guard])
                    continue
                self.model.add(back >= leave + minutes).only_enforce_if(guard)
                self.model.add(self.route.first == minutes).only_enforce_if(guard)


def _reachable(stop: Stop, first: int | None) -> bool:
    """Whether a stop whose earliest start straight from the origin is `first` can be visited."""
    return first is not None and first <= stop.last


def _earliest(stop: Stop, leave_low: int, reach: Sequence[int | None]) -> int | None:
    """The earliest service start of a stop straight from the origin, None when unreachable."""
    known = [minutes for minutes in reach if minutes is not None]
    if not known:
        return None
    return stop.first_start(leave_low + min(known))
