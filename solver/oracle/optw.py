"""OPTW / TOPTW instances (KU Leuven format) solved with the oracle's routing core.

Integer convention (see `../shared/optw/README.md`): times are scaled by 10 (Solomon) or 100
(Cordeau `pr*`); travel is the Euclidean distance truncated to 1 or 2 decimals, i.e.
`floor(scale * euclid)`, computed exactly with integer square roots. Each tour leaves the depot at
its opening `O_0` (waiting is allowed at customers, so leaving later never helps) and is back by
`C_0`; each customer is visited at most once over all tours; the objective is the profit collected.
"""

from __future__ import annotations

import csv
import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

from ortools.sat.python import cp_model

from solver.oracle.cpsat_bound import proven_bound
from solver.oracle.orienteering import Node, Prize, Problem
from solver.oracle.routing import End, Graph, Route, Stop, add_route
from verifier.errors import StructuredError

Tour = tuple[int, ...]
"""Customer numbers (1..N) in visiting order; the depot is implicit at both ends."""


class OptwFormatError(StructuredError, ValueError):
    """A malformed instance or table file: the field is `file:line`."""

    def __init__(self, path: Path, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}", message)
        self.path, self.line = path, line


@dataclass(frozen=True)
class Vertex:
    """One vertex in scaled integer units; `x`/`y` are kept exact for the distance."""

    x: Decimal
    y: Decimal
    service: int
    profit: int
    open: int
    close: int


@dataclass(frozen=True)
class Instance:
    """A parsed instance: vertex 0 is the depot; `travel[i][j]` is scaled and truncated."""

    name: str
    scale: int
    vertices: tuple[Vertex, ...]
    travel: tuple[tuple[int, ...], ...]

    @property
    def n(self) -> int:
        """The number of customers."""
        return len(self.vertices) - 1

    @property
    def tmax(self) -> int:
        """The depot's closing time (latest return), scaled."""
        return self.vertices[0].close

    def exact_travel(self) -> tuple[tuple[float, ...], ...]:
        """Untruncated Euclidean travel in scaled units (to show the convention matters)."""
        points = [(float(v.x), float(v.y)) for v in self.vertices]
        return tuple(tuple(self.scale * math.dist(p, q) for q in points) for p in points)


def scale_of(path: Path) -> int:
    """10 for Solomon files, 100 for Cordeau `pr*` files."""
    return 100 if path.stem.lower().startswith("pr") else 10


def parse_instance(path: Path, scale: int | None = None) -> Instance:
    """Read one KU Leuven TOPTW file (CRLF and varying token counts tolerated)."""
    scale = scale_of(path) if scale is None else scale
    lines = [(number, line.split()) for number, line in enumerate(path.read_text().splitlines(), 1)]
    lines = [(number, tokens) for number, tokens in lines if tokens]
    if len(lines) < 2:
        raise OptwFormatError(path, len(lines), "missing header lines")
    header = [token for _, tokens in lines[:2] for token in tokens]
    if len(header) < 3:
        raise OptwFormatError(path, lines[0][0], "header has no customer count (3rd token)")
    n = _integer(header[2], 1, path, lines[0][0], "N")
    body = lines[2:]
    if len(body) != n + 1:
        raise OptwFormatError(path, lines[-1][0], f"expected {n + 1} vertex lines, found {len(body)}")
    vertices = tuple(_vertex(index, line, tokens, path, scale) for index, (line, tokens) in enumerate(body))
    return Instance(path.stem, scale, vertices, _truncated_travel(vertices, scale))


def _vertex(index: int, number: int, tokens: list[str], path: Path, scale: int) -> Vertex:
    if len(tokens) < 9:
        raise OptwFormatError(path, number, f"vertex line has {len(tokens)} tokens, needs at least 9")
    if _integer(tokens[0], 1, path, number, "vertex number") != index:
        raise OptwFormatError(path, number, f"vertex number {tokens[0]}, expected {index}")
    x, y = (_decimal(token, path, number, "coordinate") for token in tokens[1:3])
    opening = _integer(tokens[-2], scale, path, number, "O")
    closing = _integer(tokens[-1], scale, path, number, "C")
    if closing < opening:
        raise OptwFormatError(path, number, f"window closes ({tokens[-1]}) before it opens ({tokens[-2]})")
    service = _integer(tokens[3], scale, path, number, "service")
    profit = _integer(tokens[4], 1, path, number, "profit")
    return Vertex(x, y, service, profit, opening, closing)


def _decimal(token: str, path: Path, line: int, what: str) -> Decimal:
    try:
        value = Decimal(token)
    except InvalidOperation:
        raise OptwFormatError(path, line, f"{what} {token!r} is not a number") from None
    if not value.is_finite():
        raise OptwFormatError(path, line, f"{what} {token!r} is not finite")
    return value


def _integer(token: str, scale: int, path: Path, line: int, what: str) -> int:
    """`token × scale` as an exact non-negative integer."""
    value = _decimal(token, path, line, what) * scale
    if value != value.to_integral_value() or value < 0:
        raise OptwFormatError(path, line, f"{what} {token!r} × {scale} is not a non-negative integer")
    return int(value)


def _truncated_travel(vertices: Sequence[Vertex], scale: int) -> tuple[tuple[int, ...], ...]:
    """`floor(scale * euclid)` exactly: coordinates are made integers by a power of ten."""
    digits = max(-min(int(v.x.as_tuple().exponent), int(v.y.as_tuple().exponent), 0) for v in vertices)
    unit = 10**digits
    points = [(int(v.x * unit), int(v.y * unit)) for v in vertices]
    return tuple(
        tuple(math.isqrt(((px - qx) ** 2 + (py - qy) ** 2) * scale * scale) // unit for qx, qy in points)
        for px, py in points
    )


@dataclass(frozen=True)
class Replay:
    """A replayed tour set: the profit and each visited customer's service start (scaled), or
    `error`, the first reason it is infeasible."""

    profit: int
    starts: tuple[tuple[float, ...], ...]
    error: str | None = None

    @property
    def feasible(self) -> bool:
        return self.error is None


def replay(
    instance: Instance, tours: Sequence[Tour], travel: Sequence[Sequence[float]] | None = None
) -> Replay:
    """Replay tours at their earliest schedule (leave at `O_0`, start each service as soon as
    possible); `travel` defaults to the instance's truncated matrix."""
    matrix: Sequence[Sequence[float]] = instance.travel if travel is None else travel
    vertices, seen, profit = instance.vertices, set[int](), 0
    all_starts: list[tuple[float, ...]] = []
    for number, tour in enumerate(tours):
        clock: float = vertices[0].open
        here, service, starts = 0, 0, list[float]()
        for customer in tour:
            if not 1 <= customer <= instance.n:
                return Replay(profit, (), f"tour {number}: no customer {customer}")
            if customer in seen:
                return Replay(profit, (), f"tour {number}: customer {customer} visited twice")
            seen.add(customer)
            vertex = vertices[customer]
            clock = max(clock + service + matrix[here][customer], vertex.open)
            if clock > vertex.close:
                late = f"customer {customer} starts at {clock} > {vertex.close}"
                return Replay(profit, (), f"tour {number}: {late}")
            starts.append(clock)
            profit += vertex.profit
            here, service = customer, vertex.service
        back = clock + service + matrix[here][0]
        if back > instance.tmax:
            return Replay(profit, (), f"tour {number}: back at the depot at {back} > {instance.tmax}")
        all_starts.append(tuple(starts))
    return Replay(profit, tuple(all_starts))


@dataclass(frozen=True)
class Bks:
    """One row of `bks.csv`: the best value for (instance, m) and whether it is proven optimal."""

    instance: str
    m: int
    value: int
    kind: str
    upper_bound: int | None
    source: str

    @property
    def optimal(self) -> bool:
        return self.kind == "optimal"


def read_bks(path: Path) -> dict[tuple[str, int], Bks]:
    """`bks.csv` keyed by (instance, m)."""
    table: dict[tuple[str, int], Bks] = {}
    with path.open(newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), 2):
            try:
                bound = row["upper_bound"]
                entry = Bks(
                    row["instance"],
                    int(row["m"]),
                    int(row["value"]),
                    row["kind"],
                    int(bound) if bound else None,
                    row["source"],
                )
            except (KeyError, TypeError, ValueError) as error:
                raise OptwFormatError(path, line, f"bad bks row: {error}") from None
            table[(entry.instance, entry.m)] = entry
    return table


@dataclass(frozen=True)
class LoggedRoute:
    """One Righini–Salani m = 1 route with its logged profit and service start times (unscaled)."""

    instance: str
    profit: int
    proven_optimal: bool
    tour: Tour
    starts: tuple[float, ...]


def read_logged_routes(path: Path) -> list[LoggedRoute]:
    """`righini_salani_solomon_m1_routes.csv` as routes."""
    routes = []
    with path.open(newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), 2):
            try:
                tour = tuple(int(token) for token in row["route"].split())
                starts = tuple(float(token) for token in row["service_start_times"].split())
                proven = row["proven_optimal"] == "1"
                route = LoggedRoute(row["instance"], int(row["profit"]), proven, tour, starts)
            except (KeyError, AttributeError, ValueError) as error:
                raise OptwFormatError(path, line, f"bad route row: {error}") from None
            if len(tour) != len(starts):
                raise OptwFormatError(path, line, "route and start times differ in length")
            routes.append(route)
    return routes


def graph_of(instance: Instance) -> Graph:
    """The routing core's graph: customers as stops, the depot as both ends."""
    customers = instance.vertices[1:]
    travel = instance.travel
    return Graph(
        stops=tuple(Stop(v.service, ((v.open, v.close),)) for v in customers),
        travel=tuple(tuple(row[1:]) for row in travel[1:]),
        origins=(End(None, tuple(travel[0][1:])),),
        destinations=(End(None, tuple(row[0] for row in travel[1:])),),
        direct=((0,),),
    )


@dataclass
class OptwModel:
    """The CP-SAT model of m tours sharing the customers."""

    model: cp_model.CpModel
    routes: list[Route]
    back: list[cp_model.IntVar]


def build_model(instance: Instance, m: int) -> OptwModel:
    """m routes on one model, each customer at most once, maximising the profit collected."""
    if m < 1:
        raise ValueError(f"m must be at least 1, got {m}")
    model, graph, depot = cp_model.CpModel(), graph_of(instance), instance.vertices[0]
    routes, backs = [], []
    for r in range(m):
        leave = model.new_int_var(depot.open, depot.open, f"leave{r}")
        back = model.new_int_var(depot.open, depot.close, f"back{r}")
        routes.append(add_route(model, graph, leave, back, name=f"r{r}_"))
        backs.append(back)
    for i in range(instance.n):
        if m > 1:
            model.add_at_most_one(route.visit[i] for route in routes)
    model.maximize(
        sum(v.profit * route.visit[i] for route in routes for i, v in enumerate(instance.vertices[1:]))
    )
    return OptwModel(model, routes, backs)


def add_hint(built: OptwModel, instance: Instance, tours: Sequence[Tour]) -> None:
    """Hint every route variable from tours at their earliest schedule (unused routes empty)."""
    played = replay(instance, tours)
    if not played.feasible:
        raise ValueError(f"hint is infeasible: {played.error}")
    model, travel = built.model, instance.travel
    for r, route in enumerate(built.routes):
        tour = tours[r] if r < len(tours) else ()
        starts = dict(zip(tour, played.starts[r], strict=True)) if tour else {}
        nodes = [0, *tour, 0]
        used = set(itertools.pairwise(nodes)) if tour else set()
        for (tail, head), arc in route.arcs.items():
            model.add_hint(arc, (tail, head) in used)
        for i, (visit, start) in enumerate(zip(route.visit, route.start, strict=True)):
            model.add_hint(visit, i + 1 in starts)
            domain = start.proto.domain
            model.add_hint(start, int(starts[i + 1]) if i + 1 in starts else domain[0])
        model.add_hint(route.empty, not tour)
        model.add_hint(route.moving, sum(travel[a][b] for a, b in used))
        back = instance.vertices[0].open
        if tour:
            last = tour[-1]
            back = int(starts[last]) + instance.vertices[last].service + travel[last][0]
        model.add_hint(built.back[r], back)


@dataclass(frozen=True)
class OptwResult:
    """One solve: the profit found, CP-SAT's bound (None when it reported no solution: then its
    bound field is not one), status name, wall seconds and the tours."""

    value: int
    bound: int | None
    status: str
    seconds: float
    tours: tuple[Tour, ...]


def solve_optw(
    instance: Instance,
    m: int,
    time_limit: float = 10.0,
    workers: int = 2,
    seed: int = 0,
    *,
    hint: Sequence[Tour] | None = None,
    fix_hint: bool = False,
    deterministic: bool = False,
) -> OptwResult:
    """Solve (T)OPTW with m tours; `hint` (optionally fixed) seeds the search with tours.
    With `deterministic`, `time_limit` is in CP-SAT deterministic seconds, so a run with one
    worker gives the same answer however loaded the machine is (tests use it)."""
    began = time.perf_counter()
    built = build_model(instance, m)
    if hint is not None:
        add_hint(built, instance, hint)
    solver = cp_model.CpSolver()
    if deterministic:
        solver.parameters.max_deterministic_time = time_limit
    else:
        solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    solver.parameters.random_seed = seed
    solver.parameters.fix_variables_to_their_hinted_value = fix_hint
    status = solver.solve(built.model)
    seconds = time.perf_counter() - began
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return OptwResult(0, None, solver.status_name(status), seconds, ())
    tours = tuple(_tour(solver, route) for route in built.routes)
    proven = proven_bound(solver, status)
    bound = None if proven is None else math.floor(proven + 1e-6)
    return OptwResult(round(solver.objective_value), bound, solver.status_name(status), seconds, tours)


def _tour(solver: cp_model.CpSolver, route: Route) -> Tour:
    """Follow the chosen arcs from the depot."""
    successor = {tail: head for (tail, head), arc in route.arcs.items() if solver.boolean_value(arc)}
    tour, node = [], successor.get(0, 0)
    while node != 0:
        tour.append(node)
        node = successor[node]
    return tuple(tour)


def problem_of(instance: Instance, prizes: Sequence[Prize] | None = None) -> Problem:
    """One tour of `instance` as the engine's problem: customer i is node i - 1, the depot is
    both start and end; `prizes` (default: the profits) are per customer."""
    customers, travel, n = instance.vertices[1:], instance.travel, instance.n
    gains = [v.profit for v in customers] if prizes is None else list(prizes)
    nodes = tuple(Node(v.service, ((v.open, v.close),), p) for v, p in zip(customers, gains, strict=True))
    order = [*range(1, n + 1), 0, 0]
    matrix = tuple(tuple(travel[a][b] for b in order) for a in order)
    depot = instance.vertices[0]
    return Problem(nodes, matrix, depot.open, depot.close)
