"""Exact block pricing by labelling: the best column of a block for a team, given duals.

The same problem as `pricing.BlockPricer` (whose CP-SAT model is the independent check,
`certify.py`), solved as an elementary resource-constrained longest path: a *label* is a
partial route from an origin gate — the node it stands at and the service start there, the
place identities visited, the meals eaten, the attraction count and active minutes, the must
items claimed and reject items hit, its value so far — extended to every node it can reach
inside that node's windows, and completed at every destination gate it can reach in time with
its due meals eaten
(docs/oracle.md#the-decomposed-bound-column-generation-over-day-blocks, Pricing).

Exact because nothing feasible is lost:
- attractions whose best contribution to the team (categories less the once-duals, plus every
  must item's bonus less its dual when positive) is not positive are left out — skipping such a
  visit and resting instead keeps the route feasible (travel times obey the triangle inequality
  up to a visit's own minimum length) and its value no lower (fewer attractions and minutes
  never raise an intensity penalty); meals are never left out;
- a label is dropped only when another at the same node, with the same meals, origin meal
  pattern and looseness, starts no later, has visited a subset of its places and is worth at
  least as much after allowing for every penalty and reject charge the survivor might still
  pay that the dropped one would not (`_dominates`);
- a label is dropped when an upper bound on everything it could still add (a fractional
  knapsack of the attractions it can still reach, in the time their windows, the due meals and
  the destinations still open leave; the meals not eaten, each optional one either skipped or
  eaten in that time) cannot beat the best complete column found, or the caller's floor.
The search dives depth first, then goes best first. With a work limit (`_Search.work`) it may
stop early; its answer then carries the highest bound over the labels not yet extended, still
a valid ceiling. `BlockLabels.columns_above` runs the same search without dominance and with
every attraction a node, collecting every column above a floor (closing the gap).
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
import operator
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from solver.oracle.blocks import BlockGraph, BlockSpec, block_graph
from solver.oracle.catalog import CityCatalog
from solver.oracle.model import Node, required_meals
from solver.oracle.pricing import SCALE, Column, Duals, Priced, RowKey, reduced_cost
from solver.oracle.scores import ScoredUser
from verifier.strict.clock import DAY, NIGHT_END
from verifier.strict.costs import lowest_cost_fen

WORK_LIMIT = 10**10
"""The work (`_Search.work`) one pricing call may do before it stops with a ceiling instead of
an optimum, unless the caller says otherwise."""

BOUND_WORK = 5
"""Work units per completion bound, per attraction it scans and per cap regime it evaluates; a
dominance comparison is one unit (`_Search.work`)."""

DIVE_SHARE = 0.1
"""The share of a call's work spent depth first before the search turns best first."""

REQUIRED = tuple(required_meals())
"""The meals strict requires (`model.required_meals`), read once: the search's hot path asks."""

MOST_COLLECTED = 20_000
"""The most columns one enumeration (`BlockLabels.columns_above`) collects before giving up."""

MORE_COLUMNS = 10
"""Besides its best column, a pricing call returns up to this many of the other completions it
met with a positive reduced cost (`Priced.more`): more columns a round, fewer rounds to the
master's optimum (measured on eight gtb tasks, the Lagrangian value after 6 deterministic
seconds of generation: 855 in total with none, 780 with 3, 725 with 10)."""

NO_COMPLETION = -(10**18)
"""The bound of a label no completion can close."""


@dataclass(slots=True)
class _Label:
    """A partial route (see module); `value` in 1/SCALE points."""

    node: int
    """Index into the block's nodes; -1 at the origin."""
    time: int
    """Service start at `node` (at the origin: the minute the route leaves)."""
    visited: int
    """Bitmask of the place identities visited."""
    meals: int
    count: int
    active: int
    claimed: int
    hit: int
    value: int
    origin: int
    keeps: int
    loose: bool
    parent: _Label | None
    dead: bool = False
    bound: int = 0
    """`_Search._bound` of the label, set when it is queued."""


@dataclass(frozen=True, slots=True)
class _MealOption:
    """A kept meal node as the completion bound sees it."""

    node: int
    last: int
    """The latest service start."""
    weight: int
    """Service plus the least travel in (`_Search._room`)."""
    prize: int


@dataclass(frozen=True, slots=True)
class _MealsLeft:
    """What the meals not yet eaten may still add to a label (`_Search._meals_left`)."""

    gain: int
    """The best prize of each due meal (one that every completion must eat)."""
    need: int
    """The least weight of each due meal."""
    optional: list[tuple[int, int]]
    """Per meal not due with an option of positive prize still open: (its best prize, the least
    weight among those options)."""
    first: int
    """The earliest opening of the meal options still open for these (the room's window)."""
    last: int
    """The latest end of those options."""


@dataclass
class _Prizes:
    """One pricing call's data in 1/SCALE points, rounded so that every route's value here is
    at least its exact reduced cost: prizes and bonuses up, charges down."""

    prize: list[int]
    claims: list[list[tuple[int, int]]]
    """Per node: (must item bit, bonus if claimed now) for positive bonuses."""
    rejects: list[list[tuple[int, int]]]
    origin_cost: list[int]
    destination_cost: list[int]
    loose_cost: int
    constant: int
    kept: list[int]
    """Nodes the search may use."""
    later_cost: list[int] = field(default_factory=list)
    """later_cost[i]: the least destination cost over `BlockLabels.by_closing[i:]`."""
    scan: list[_Item] = field(default_factory=list)
    """The kept attractions of positive gain (`_Search._bound`)."""
    by_ratio: list[int] = field(default_factory=list)
    """Indices into `scan` by gain per minute, best first."""
    by_plain_ratio: list[int] = field(default_factory=list)
    """The same for the gains without must bonuses."""
    by_gain: list[int] = field(default_factory=list)
    """Indices into `scan` by gain, largest first."""
    by_plain: list[int] = field(default_factory=list)
    """The same for the gains without must bonuses."""
    meals: dict[int, list[_MealOption]] = field(default_factory=dict)
    """Per meal: its kept nodes (`_Search._meals_left`)."""
    most_in: int = 0
    """The largest travel a kept node's weight holds (`_Search._room`)."""


@dataclass
class BlockLabels:
    """The labelling pricer of one block (node data built once)."""

    spec: BlockSpec
    city: CityCatalog
    users: tuple[ScoredUser, ...]
    budget_scale: tuple[int, ...]
    loose_allowed: bool = True
    graph: BlockGraph = field(init=False)
    identity: list[int] = field(init=False)
    must_bits: dict[tuple[int, int], int] = field(init=False)
    reject_bits: dict[tuple[int, int], int] = field(init=False)
    finish: int = field(init=False)
    """The latest minute a visit may end and a destination gate still be reached in time."""
    fits: list[bool] = field(init=False)
    """Per node: whether a visit there can end by `finish` (the others are never kept)."""
    closing: list[int] = field(init=False)
    """The destination gates' deadlines (the latest arrival), ascending (`_Search._ahead`)."""
    by_closing: list[int] = field(init=False)
    """The destination gates in that order."""
    later_keeps: list[int] = field(init=False)
    """later_keeps[i]: the meals some gate of `by_closing[i:]` keeps from being due."""
    later_finish: list[int] = field(init=False)
    """later_finish[i]: the latest minute a visit may end and a gate of `by_closing[i:]` still
    be reached in time."""
    work: int = field(init=False, default=0)
    """The work of every call so far (`_Search.work`)."""

    def __post_init__(self) -> None:
        self.graph = block_graph(self.spec, self.city)
        places: dict[str, int] = {}
        self.identity = [
            places.setdefault(n.place.place, len(places)) if n.meal is None else -1 for n in self.graph.nodes
        ]
        gates = self.spec.destinations
        deadline = [DAY - 1 if gate.time is None else gate.time for gate in gates]
        finishes = [
            deadline[d] - min(travel) if (travel := [m for m in row if m is not None]) else -DAY
            for d, row in enumerate(self.graph.into)
        ]
        self.by_closing = sorted(range(len(gates)), key=lambda d: (deadline[d], d))
        self.closing = [deadline[d] for d in self.by_closing]
        keeps = [sum(1 << m for m in gates[d].keeps) for d in self.by_closing]
        self.later_keeps = _suffix(keeps, operator.or_, 0)
        self.later_finish = _suffix([finishes[d] for d in self.by_closing], max, -DAY)
        self.finish = self.later_finish[0]
        self.fits = [stop.first + stop.service <= self.finish for stop in self.graph.stops]
        self.must_bits, self.reject_bits = {}, {}
        for n in self.graph.nodes:
            if n.meal is None:
                for u in range(len(self.users)):
                    for item in n.place.musts[u]:
                        self.must_bits.setdefault((u, item), len(self.must_bits))
                    for item in n.place.rejects[u]:
                        self.reject_bits.setdefault((u, item), len(self.reject_bits))

    def price(
        self,
        team: tuple[int, ...],
        duals: Duals,
        *,
        limit: int = WORK_LIMIT,
        floor: Fraction | None = None,
        dive: bool = True,
    ) -> Priced:
        """The best column of this block for `team` under `duals`, and a ceiling on every
        column's reduced cost (exact when `proven`).

        With a `floor`, only columns above it are sought: a label whose bound does not exceed
        it is dropped, the column is None when none beats it, and the ceiling is then exact
        only above the floor (at most the floor when `proven`) — still an upper bound on every
        column's reduced cost. A caller that needs the ceiling only where it is positive (the
        Lagrangian's packing) is spared the search for the best of the columns it ignores.

        Without `dive` the search is best first from the origins on: cut short before any
        extension, its ceiling is the highest of the origins' bounds, for the cost of those
        bounds alone (`colgen.ColumnGeneration.first_pass`)."""
        prizes = self._prizes(team, duals)
        best = None if floor is None else _down(floor)
        return _Search(self, team, prizes, duals, limit, best, dive=dive).run()

    def columns_above(
        self, team: tuple[int, ...], duals: Duals, floor: Fraction, *, limit: int = WORK_LIMIT
    ) -> list[Column] | None:
        """Every column of `team` in this block whose reduced cost under `duals` exceeds
        `floor` (prizes rounded up: a superset), one per distinct set of rows and value; None
        when the work limit or `MOST_COLLECTED` cut the enumeration short.

        Unlike `price`, nothing that could make such a column is left out: every attraction is
        a node, however little it adds, and no label dominates another (a dominated route's
        column has other rows, which an integer solution may need)."""
        prizes = self._prizes(team, duals, every=True)
        search = _Search(self, team, prizes, duals, limit, _down(floor), collected=[])
        if not search.run().proven or search.collected is None:
            return None
        found: dict[tuple[object, ...], Column] = {}
        for end, destination in search.collected:
            column = self._completed(team, end, destination)
            found.setdefault((column.loose, column.value, column.rows), column)
        return list(found.values())

    def _completed(self, team: tuple[int, ...], end: _Label, destination: int) -> Column:
        """The column of the route `end` closes at `destination`, with the must items it
        claimed."""
        claims = frozenset(key for key, bit in self.must_bits.items() if end.claimed >> bit & 1)
        return self.column(team, _route(end), (end.origin, destination), end.loose, claims)

    def _prizes(self, team: tuple[int, ...], duals: Duals, *, every: bool = False) -> _Prizes:
        day, city = self.spec.day, self.spec.city
        prize: list[int] = []
        claims: list[list[tuple[int, int]]] = []
        rejects: list[list[tuple[int, int]]] = []
        kept: list[int] = []
        for node in self.graph.nodes:
            place = node.place
            if node.meal is None:
                value = sum(
                    (place.scores[u] - duals(("once", u, city, place.place)) for u in team), Fraction(0)
                )
                bonus = [
                    (self.must_bits[(u, item)], _up(2 - duals(("must", u, city, item))))
                    for u in team
                    for item in sorted(place.musts[u])
                ]
                charge = [
                    (self.reject_bits[(u, item)], _down(duals(("rej", u, city, item, day))))
                    for u in team
                    for item in sorted(place.rejects[u])
                ]
                claims.append([(bit, b) for bit, b in bonus if b > 0])
                rejects.append(charge)
            else:
                value = Fraction(0)
                for u in team:
                    value += place.scores[u] - duals(("meal", u, day, node.meal))
                    if self.users[u].max_spend_fen is not None:
                        price = Fraction(lowest_cost_fen(place.price_fen), self.budget_scale[u])
                        value -= price * duals(("budget", u))
                claims.append([])
                rejects.append([])
            prize.append(_up(value))
        for i, node in enumerate(self.graph.nodes):
            if not self.fits[i]:
                continue
            if every or node.meal is not None or prize[i] + sum(b for _, b in claims[i]) > 0:
                kept.append(i)
        spec = self.spec
        origin_cost = [
            _down(sum((duals(("orig", day, city, u, g.key)) for u in team), Fraction(0)))
            for g in spec.origins
        ]
        destination_cost = [
            _down(sum((duals(("dest", day, city, u, g.key)) for u in team), Fraction(0)))
            for g in spec.destinations
        ]
        loose_cost = _down(sum((duals(("loose", u, day)) for u in team), Fraction(0)))
        constant = _up(
            -sum((duals(("part", day, city, u)) for u in team), Fraction(0)) - duals(("teams", day, city))
        )
        prizes = _Prizes(prize, claims, rejects, origin_cost, destination_cost, loose_cost, constant, kept)
        prizes.later_cost = _suffix([destination_cost[d] for d in self.by_closing], min, 0)
        self._rank(prizes)
        return prizes

    def _rank(self, prizes: _Prizes) -> None:
        """The bound's data: attractions in the orders the bound scans them, meals by kind
        (weights: service plus the least travel into the node)."""
        into = self._least_in(prizes.kept)
        for j in prizes.kept:
            node, stop = self.graph.nodes[j], self.graph.stops[j]
            prizes.most_in = max(prizes.most_in, into[j])
            if node.meal is not None:
                option = _MealOption(j, stop.last, stop.service + into[j], prizes.prize[j])
                prizes.meals.setdefault(node.meal, []).append(option)
                continue
            gain = prizes.prize[j] + sum(b for _, b in prizes.claims[j])
            if gain > 0:
                weight = max(stop.service + into[j], 1)
                bit = 1 << self.identity[j]
                end = stop.last + stop.service
                plain = max(prizes.prize[j], 0)
                item = _Item(bit, stop.first, stop.last, end, weight, gain, plain, prizes.claims[j])
                prizes.scan.append(item)
        scan = prizes.scan
        indices = range(len(scan))
        prizes.by_ratio = sorted(indices, key=lambda k: (-Fraction(scan[k].gain, scan[k].weight), k))
        prizes.by_plain_ratio = sorted(indices, key=lambda k: (-Fraction(scan[k].plain, scan[k].weight), k))
        prizes.by_gain = sorted(indices, key=lambda k: (-scan[k].gain, k))
        prizes.by_plain = sorted(indices, key=lambda k: (-scan[k].plain, k))

    def _least_in(self, kept: Sequence[int]) -> dict[int, int]:
        """Per kept node, the least travel into it from an origin gate or another kept node."""
        out: dict[int, int] = {}
        for j in kept:
            options = [m for row in self.graph.out_of if (m := row[j]) is not None]
            options += [m for i in kept if i != j and (m := self.graph.travel[i][j]) is not None]
            out[j] = min(options, default=0)
        return out

    def column(
        self,
        team: tuple[int, ...],
        route: Sequence[tuple[int, int]],
        ends: tuple[int, int],
        loose: bool,
        claims: frozenset[tuple[int, int]] | None = None,
    ) -> Column:
        """The column of a route — (node, service start) pairs in order — between two gates
        (`ends`: origin and destination indices), by `route_column`."""
        origin, destination = ends
        visits = [(self.graph.nodes[i], start) for i, start in route]
        moving = self._moving(route, origin, destination)
        return route_column(
            self.spec,
            self.users,
            self.budget_scale,
            team=team,
            route=visits,
            moving=moving,
            ends=ends,
            loose=loose,
            claims=claims,
        )

    def _moving(self, route: Sequence[tuple[int, int]], origin: int, destination: int) -> int:
        if not route:
            return self.graph.direct[origin][destination] or 0
        total = (self.graph.out_of[origin][route[0][0]] or 0) + (
            self.graph.into[destination][route[-1][0]] or 0
        )
        for (a, _), (b, _) in itertools.pairwise(route):
            total += self.graph.travel[a][b] or 0
        return total


def route_column(
    spec: BlockSpec,
    users: Sequence[ScoredUser],
    budget_scale: Sequence[int],
    *,
    team: tuple[int, ...],
    route: Sequence[tuple[Node, int]],
    moving: int,
    ends: tuple[int, int],
    loose: bool,
    claims: frozenset[tuple[int, int]] | None = None,
) -> Column:
    """The column of a route — (node, service start) pairs in order, `moving` minutes of travel
    in all — between two gates of `spec` (`ends`: origin and destination indices): its value
    for the team and its rows, term by term as `pricing.BlockPricer` states them in its model
    (the tests hold the two pricers to the same reduced costs). A must item of a visited place
    is claimed when it is in `claims` (None: every one)."""
    origin, destination = ends
    day, city = spec.day, spec.city
    rows: dict[RowKey, Fraction] = defaultdict(Fraction)
    value = 0
    nodes = [node for node, _ in route]
    attractions = [n for n in nodes if n.meal is None]
    active = moving + sum(n.place.service for n in attractions)
    for u in team:
        claimed: set[int] = set()
        hit: set[int] = set()
        for n in nodes:
            place = n.place
            value += place.scores[u]
            if n.meal is None:
                rows[("once", u, city, place.place)] += 1
                for item in sorted(place.musts[u] - claimed):
                    if claims is not None and (u, item) not in claims:
                        continue
                    claimed.add(item)
                    value += 2
                    rows[("must", u, city, item)] += 1
                for item in sorted(place.rejects[u] - hit):
                    hit.add(item)
                    rows[("rej", u, city, item, day)] += 1
                continue
            assert n.meal is not None
            rows[("meal", u, day, n.meal)] += 1
            if users[u].max_spend_fen is not None:
                rows[("budget", u)] += Fraction(lowest_cost_fen(place.price_fen), budget_scale[u])
        if not loose:
            value -= users[u].intensity_penalty(len(attractions), active)
        else:
            rows[("loose", u, day)] += 1
        rows[("orig", day, city, u, spec.origins[origin].key)] += 1
        rows[("dest", day, city, u, spec.destinations[destination].key)] += 1
        rows[("part", day, city, u)] += 1
    rows[("teams", day, city)] += 1
    visits = tuple((node.place.name, start, node.meal) for node, start in route)
    ordered = tuple(sorted(((k, c) for k, c in rows.items() if c), key=lambda kc: repr(kc[0])))
    return Column(spec.key, team, loose, value, ordered, visits, active)


def _suffix(values: Sequence[int], combine: Callable[[int, int], int], past: int) -> list[int]:
    """Per position, `values` from there on combined (the union, the latest, the least); one
    past the end, `past`."""
    return [*reversed(list(itertools.accumulate(reversed(values), combine))), past]


def _up(value: Fraction) -> int:
    return math.ceil(value * SCALE)


def _down(value: Fraction) -> int:
    return math.floor(value * SCALE)


@dataclass
class _Search:
    pricer: BlockLabels
    team: tuple[int, ...]
    prizes: _Prizes
    duals: Duals
    limit: int
    best: int | None = None
    """The best column's value so far (or the caller's floor), in 1/SCALE points."""
    dive: bool = True
    """Whether the search starts depth first (`run`)."""
    best_end: tuple[_Label, int] | None = None
    runners_up: list[tuple[int, int, _Label, int]] = field(default_factory=list)
    """The best other completions of positive value, as a heap of (value, −order, label,
    destination) (`_runner_up`)."""
    completions: int = 0
    """How many completions `_runner_up` has seen (ties go to the earlier)."""
    collected: list[tuple[_Label, int]] | None = None
    """When enumerating (`BlockLabels.columns_above`): every completion above the floor, as
    (label, destination); the floor then stays the threshold and no label dominates another.
    None once more than `MOST_COLLECTED` were found."""
    buckets: dict[tuple[int, int, int, bool, int], _Bucket] = field(
        default_factory=lambda: defaultdict(_Bucket)
    )
    reject_charge: dict[int, int] = field(default_factory=dict)
    work: int = 0
    """The work measure: `BOUND_WORK` per completion bound, per attraction it scans and per cap
    regime it evaluates, one per dominance comparison (together they are nearly all a search's
    time, in proportion)."""
    caps: tuple[list[int | None], list[int | None]] = field(init=False)
    """The team's attraction caps and active-minute caps, member by member (`_bound`)."""
    count_regimes: dict[int, list[tuple[int | None, int]]] = field(init=False, default_factory=dict)
    """The attraction-count regimes by count used (`_cached_regimes`)."""
    span_regimes: dict[int, list[tuple[int | None, int]]] = field(init=False, default_factory=dict)
    """The active-minute regimes by minutes used."""

    def __post_init__(self) -> None:
        users = [self.pricer.users[u] for u in self.team]
        self.caps = ([u.max_pois for u in users], [u.max_minutes for u in users])

    def run(self) -> Priced:
        """Depth first, best child first, for `DIVE_SHARE` of the work after the origins' bounds
        and at least until the first dive ends at a leaf (good columns early: on a block of 126
        attractions one extension costs about 27,000 units, so a share of a small limit cut the
        dive at a few stops and left its column at a third of a full dive's), then best first —
        the label of the highest bound next — so that a search cut short leaves the least
        ceiling: every label above the highest bound left has been extended. Without `dive`,
        best first from the start."""
        for charges in self.prizes.rejects:
            for bit, charge in charges:
                self.reject_charge[bit] = charge
        stack = self._origins()
        dive = self.work + self.limit * DIVE_SHARE
        leaf = False
        while stack and self.dive and (self.work < dive or not leaf):
            label = stack.pop()
            if self._alive(label):
                self._complete(label)
                children = self._children(label)
                children.sort(key=lambda child: child.bound)
                stack.extend(children)
                leaf = leaf or not children
        heap = [(-label.bound, order, label) for order, label in enumerate(stack)]
        heapq.heapify(heap)
        count = len(heap)
        ceiling: int | None = None
        while heap:
            label = heap[0][2]
            if self.work >= self.limit and self._alive(label):
                ceiling = label.bound
                break
            heapq.heappop(heap)
            if self._alive(label):
                self._complete(label)
                for child in self._children(label):
                    heapq.heappush(heap, (-child.bound, count, child))
                    count += 1
        return self._answer(ceiling)

    def _alive(self, label: _Label) -> bool:
        """Whether `label` is undominated and may still beat the best column."""
        return not label.dead and self._promising(label)

    def _promising(self, label: _Label) -> bool:
        """Whether some completion of `label` may beat the best column (or the floor)."""
        return label.bound > (NO_COMPLETION if self.best is None else self.best)

    def _children(self, label: _Label) -> list[_Label]:
        """The extensions of `label` that may beat the best column and no label dominates,
        each with its bound."""
        children = []
        for child in self._extend(label):
            child.bound = self._bound(child)
            if self._promising(child) and self._insert(child):
                children.append(child)
        return children

    def _answer(self, ceiling: int | None) -> Priced:
        """The best column found and the ceiling (`ceiling`: the highest bound left unextended,
        None when the search finished)."""
        pricer = self.pricer
        pricer.work += self.work
        top = self.best if ceiling is None else ceiling if self.best is None else max(self.best, ceiling)
        ceiling_value = Fraction(-(10**9)) if top is None else Fraction(top, SCALE)
        if self.best_end is None:
            return Priced(None, None, ceiling_value, ceiling is None)
        column = pricer._completed(self.team, *self.best_end)
        reduced = reduced_cost(column, self.duals)
        more = []
        seen = {column.rows}
        for _, _, label, d in sorted(self.runners_up, reverse=True):
            other = pricer._completed(self.team, label, d)
            if other.rows not in seen and (value := reduced_cost(other, self.duals)) > 0:
                seen.add(other.rows)
                more.append((other, value))
        return Priced(column, reduced, ceiling_value, ceiling is None, tuple(more))

    def _origins(self) -> list[_Label]:
        pricer, prizes = self.pricer, self.prizes
        split = len(self.team) < len(pricer.users)
        looseness = (False, True) if pricer.loose_allowed else (False,)
        out: list[_Label] = []
        for o, gate in enumerate(pricer.spec.origins):
            start = 0 if gate.time is None else gate.time
            if split:
                start = max(start, NIGHT_END)
            keeps = sum(1 << m for m in gate.keeps)
            for loose in looseness:
                value = prizes.constant - prizes.origin_cost[o] - (prizes.loose_cost if loose else 0)
                label = _Label(-1, start, 0, 0, 0, 0, 0, 0, value, o, keeps, loose, None)
                label.bound = self._bound(label)
                if self._promising(label) and self._insert(label):
                    out.append(label)
        out.sort(key=lambda label: label.bound)
        return out

    @staticmethod
    def _key(label: _Label) -> tuple[int, int, int, bool, int]:
        """Labels compare only at the same node with the same meals, origin meal pattern and
        looseness (at the origin itself: the same origin, whose travel is its own)."""
        return (label.node, label.meals, label.keeps, label.loose, label.origin if label.node < 0 else -1)

    def _insert(self, label: _Label) -> bool:
        """Store `label` unless a label of its bucket dominates it, dropping those it
        dominates. A label dominates only labels that start no earlier, so each test scans
        only that side of the bucket (kept in order of time); work: one unit a comparison.
        Enumerating, every label is kept."""
        if self.collected is not None:
            return True
        bucket = self.buckets[self._key(label)]
        times, labels = bucket.times, bucket.labels
        upto = bisect.bisect_right(times, label.time)
        self.work += upto
        for other in labels[:upto]:
            if self._dominates(other, label):
                return False
        since = bisect.bisect_left(times, label.time)
        self.work += len(labels) - since
        same: list[_Label] = []
        later: list[_Label] = []
        for other in labels[since:]:
            if self._dominates(label, other):
                other.dead = True
            else:
                (same if other.time == label.time else later).append(other)
        tail = [*same, label, *later]
        bucket.labels = labels[:since] + tail
        bucket.times = times[:since] + [other.time for other in tail]
        return True

    def _dominates(self, a: _Label, b: _Label) -> bool:
        """`a` is at least as good as `b` in every completion (see module)."""
        if a.time > b.time or a.value < b.value or a.visited & ~b.visited or a.claimed & ~b.claimed:
            return False
        slack = 0
        if not a.loose:
            for u in self.team:
                user = self.pricer.users[u]
                if user.max_pois is not None and a.count > b.count and b.count <= user.max_pois:
                    slack += 2 * SCALE
                if user.max_minutes is not None and a.active > b.active and b.active <= user.max_minutes:
                    slack += 2 * SCALE
        pending = b.hit & ~a.hit
        while pending:
            bit = pending & -pending
            slack += self.reject_charge[bit.bit_length() - 1]
            pending ^= bit
        return a.value - slack >= b.value

    def _extend(self, label: _Label) -> list[_Label]:
        pricer, prizes = self.pricer, self.prizes
        out: list[_Label] = []
        here = label.node
        ready = label.time + (0 if here < 0 else pricer.graph.stops[here].service)
        row = pricer.graph.out_of[label.origin] if here < 0 else pricer.graph.travel[here]
        for j in prizes.kept:
            meal = pricer.graph.nodes[j].meal
            if meal is not None:
                if label.meals >> meal & 1:
                    continue
            elif label.visited >> pricer.identity[j] & 1:
                continue
            minutes = row[j]
            if minutes is None:
                continue
            start = pricer.graph.stops[j].first_start(ready + minutes)
            if start is None:
                continue
            value, claimed, hit = label.value + prizes.prize[j], label.claimed, label.hit
            for bit, bonus in prizes.claims[j]:
                if not claimed >> bit & 1:
                    claimed |= 1 << bit
                    value += bonus
            for bit, charge in prizes.rejects[j]:
                if not hit >> bit & 1:
                    hit |= 1 << bit
                    value -= charge
            if meal is None:
                visited, meals = label.visited | 1 << pricer.identity[j], label.meals
                count, active = label.count + 1, label.active + minutes + pricer.graph.stops[j].service
            else:
                visited, meals = label.visited, label.meals | 1 << meal
                count, active = label.count, label.active + minutes
            out.append(
                _Label(
                    j,
                    start,
                    visited,
                    meals,
                    count,
                    active,
                    claimed,
                    hit,
                    value,
                    label.origin,
                    label.keeps,
                    label.loose,
                    label,
                )
            )
        return out

    def _complete(self, label: _Label) -> None:
        """Close the route at every destination it reaches in time with its due meals eaten."""
        pricer, prizes = self.pricer, self.prizes
        here = label.node
        ready = label.time + (0 if here < 0 else pricer.graph.stops[here].service)
        for d, gate in enumerate(pricer.spec.destinations):
            minutes = pricer.graph.direct[label.origin][d] if here < 0 else pricer.graph.into[d][here]
            if minutes is None or ready + minutes > (DAY - 1 if gate.time is None else gate.time):
                continue
            value = label.value - prizes.destination_cost[d]
            if not label.loose:
                kept = label.meals | label.keeps | sum(1 << m for m in gate.keeps)
                if any(not kept >> m & 1 for m in REQUIRED):
                    continue
                active = label.active + minutes
                for u in self.team:
                    user = pricer.users[u]
                    value -= SCALE * user.intensity_penalty(label.count, active)
            if self.collected is not None:
                if self.best is not None and value > self.best:
                    self.collected.append((label, d))
                    if len(self.collected) > MOST_COLLECTED:
                        self.collected, self.limit = None, 0  # too many: stop, unproven
                        return
            elif self.best is None or value > self.best:
                if self.best is not None and self.best_end is not None:
                    self._runner_up(self.best, *self.best_end)
                self.best, self.best_end = value, (label, d)
            elif value > 0:
                self._runner_up(value, label, d)

    def _runner_up(self, value: int, label: _Label, destination: int) -> None:
        """Keep a completion that is not the best among the `MORE_COLUMNS` best others."""
        self.completions += 1
        item = (value, -self.completions, label, destination)
        if len(self.runners_up) < MORE_COLUMNS:
            heapq.heappush(self.runners_up, item)
        elif self.runners_up and value > self.runners_up[0][0]:
            heapq.heapreplace(self.runners_up, item)

    def _bound(self, label: _Label) -> int:
        """An upper bound on the value of every completion of `label`: what the meals still
        to eat may add (`_meals_left`), less the least dual of the destinations still open,
        plus the attractions it can still reach, less the intensity penalties it must pay.

        Due meals are eaten in every completion: their best prizes count and their least
        weights leave the room (`_room`). A meal that is not due is either skipped (nothing
        gained, no time) or eaten at one of its options of positive prize (at most the best
        prize, at least the least weight): each such choice is bounded apart, its meals'
        weights taken from the room the attractions share.

        The attractions are bounded per *regime*: a completion that adds k more attractions and
        A more active minutes, with k and A in given intervals between the team's caps, owes
        at least the penalties of the intervals' lower ends, and gains at most both the k
        largest gains and a fractional knapsack (gains with every bonus, weights: service plus
        the least travel in, which never exceed the minutes a visit adds to the time or the
        active minutes) of capacity min(room left, A's upper end). The bound is the best
        choice's best regime's; reject charges only lower a completion."""
        prizes = self.prizes
        self.work += BOUND_WORK * (1 + len(prizes.scan))
        here = label.node
        now = label.time + (0 if here < 0 else self.pricer.graph.stops[here].service)
        ahead = bisect.bisect_left(self.pricer.closing, now)
        if ahead == len(self.pricer.closing):
            return NO_COMPLETION  # every destination has closed
        meals = self._meals_left(label, now, self.pricer.later_keeps[ahead])
        if meals is None:
            return NO_COMPLETION
        reach = _Reach(meals.first, meals.last, self.pricer.later_finish[ahead])
        visited, claimed = label.visited, label.claimed
        for k, item in enumerate(prizes.scan):
            if visited & item.bit or item.last < now:
                continue
            reach.open |= 1 << k
            reach.weight += item.weight
            reach.first = min(reach.first, item.first)
            reach.end = max(reach.end, item.end)
            for bit, bonus in item.claims:
                if not claimed >> bit & 1:
                    reach.bonuses[bit] = bonus
        room = self._room(now, reach, meals.need)
        if room is None:
            return NO_COMPLETION
        gained = _Gains(prizes, reach)
        pois, active = self.caps
        counts = self._cached_regimes(label.count, pois, self.count_regimes)
        spans = self._cached_regimes(label.active, active, self.span_regimes)
        choices = _choices(meals.optional)
        if reach.weight + choices[0][1] <= room:
            choices = choices[:1]  # everything fits: eating every optional meal is best
        best: int | None = None
        for gain, weight in choices:
            if weight > room:
                continue
            capacity = room - weight
            most = gain + gained(capacity, None)
            if best is not None and most <= best:
                continue  # no regime of this choice gains more than `most`
            if label.loose:
                best = most
                continue
            for more, count_owed in counts:
                for minutes, minutes_owed in spans:
                    penalty = 2 * SCALE * (count_owed + minutes_owed)
                    if best is not None and most - penalty <= best:
                        continue
                    self.work += BOUND_WORK
                    fits = capacity if minutes is None else min(capacity, minutes)
                    value = gain + gained(fits, more) - penalty
                    best = value if best is None else max(best, value)
        if best is None:
            return NO_COMPLETION
        return label.value + meals.gain - prizes.later_cost[ahead] + best

    def _meals_left(self, label: _Label, now: int, keeps: int) -> _MealsLeft | None:
        """The meals `label` has not eaten, as the bound sees them: a required meal kept
        neither by its origin nor by any destination gate still open (`keeps`) nor eaten is
        due; the others are optional. None when a due meal has no option left."""
        gain = need = 0
        optional: list[tuple[int, int]] = []
        first, last = DAY, -DAY
        stops = self.pricer.graph.stops
        kept = label.meals | label.keeps | keeps
        for meal, options in self.prizes.meals.items():
            if label.meals >> meal & 1:
                continue
            open_options = [option for option in options if option.last >= now]
            due = not label.loose and meal in REQUIRED and not kept >> meal & 1
            if due and not open_options:
                return None
            if not due:
                open_options = [option for option in open_options if option.prize > 0]
                if open_options:
                    best = max(option.prize for option in open_options)
                    optional.append((best, min(option.weight for option in open_options)))
            else:
                gain += max(option.prize for option in open_options)
                need += min(option.weight for option in open_options)
            for option in open_options:
                first = min(first, stops[option.node].first)
                last = max(last, option.last + stops[option.node].service)
        return _MealsLeft(gain, need, optional, first, last)

    def _room(self, now: int, reach: _Reach, need: int) -> int | None:
        """The minutes the label's further attractions and optional meals may fill with their
        weights (service plus the least travel in), or None when no completion exists.

        Every visit still to come (the reachable attractions and the meal options still
        open) starts no earlier than the earliest opening S among them (`reach.first`) and ends
        by E, the lesser of the latest minute a destination is still reached in time and the
        latest end of those visits (`reach.end`). Travel and services do not overlap, and only
        the first visit's travel may run before S (and not before now), so their weights sum
        to at most E − S + min(largest travel in, S − now); the due meals take `need`, their
        least weights, out of that. When those do not fit, no completion exists."""
        if reach.end < reach.first:
            return 0
        start = max(now, reach.first)
        end = min(reach.finish, reach.end)
        room = end - start + min(self.prizes.most_in, start - now) - need
        if need and room < 0:
            return None
        return max(room, 0)

    def _cached_regimes(
        self, used: int, caps: Sequence[int | None], cache: dict[int, list[tuple[int | None, int]]]
    ) -> list[tuple[int | None, int]]:
        """`_regimes`, computed once per amount used (the caps are the team's)."""
        if used not in cache:
            cache[used] = self._regimes(used, caps)
        return cache[used]

    @staticmethod
    def _regimes(used: int, caps: Sequence[int | None]) -> list[tuple[int | None, int]]:
        """The intervals of a resource's growth (more attractions, more active minutes) between
        the caps: per interval its upper end (None: unbounded) and the penalties every growth
        in it owes (caps already passed included)."""
        ends = sorted({cap - used for cap in caps if cap is not None and cap >= used})
        out: list[tuple[int | None, int]] = []
        lower = 0
        for end in [*ends, None]:
            owed = sum(1 for cap in caps if cap is not None and used + lower > cap)
            out.append((end, owed))
            if end is not None:
                lower = end + 1
        return out


@dataclass
class _Bucket:
    """The stored labels of one dominance key (`_Search._key`), in order of time."""

    times: list[int] = field(default_factory=list)
    labels: list[_Label] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Item:
    """A kept attraction as the completion bound scans it."""

    bit: int
    """Its place identity's bit (`_Label.visited`)."""
    first: int
    last: int
    end: int
    """The latest end of a visit (last start plus service)."""
    weight: int
    """Service plus the least travel in."""
    gain: int
    """Its prize with every must bonus."""
    plain: int
    """Its prize alone (at least 0)."""
    claims: list[tuple[int, int]]


@dataclass(slots=True)
class _Reach:
    """What one label can still reach: the open attractions (bits over `_Prizes.scan`), their
    weights in all, the hull of their and the open meals' windows, the must bonuses they may
    still claim."""

    first: int
    end: int
    finish: int
    """The latest minute a visit may end and a destination still open be reached in time."""
    open: int = 0
    weight: int = 0
    bonuses: dict[int, int] = field(default_factory=dict)


@dataclass(slots=True)
class _Gains:
    """What the open attractions may gain in a capacity, with at most k of them: the least of a
    fractional knapsack with every must bonus and one without them plus each bonus once."""

    prizes: _Prizes
    reach: _Reach
    claims: int = field(init=False)
    tops: dict[tuple[bool, int], int] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.claims = sum(self.reach.bonuses.values())

    def __call__(self, capacity: int, more: int | None) -> int:
        prizes, open_ = self.prizes, self.reach.open
        value = _fill(prizes.scan, prizes.by_ratio, open_, capacity, self._top(False, more), plain=False)
        if not self.claims:
            return value  # no bonus left: both knapsacks hold the same items
        apart = _fill(prizes.scan, prizes.by_plain_ratio, open_, capacity, self._top(True, more), plain=True)
        return min(value, apart + self.claims)

    def _top(self, plain: bool, more: int | None) -> int | None:
        """The sum of the `more` largest gains among the open attractions (None: no limit)."""
        if more is None:
            return None
        if (plain, more) not in self.tops:
            prizes, open_ = self.prizes, self.reach.open
            order = prizes.by_plain if plain else prizes.by_gain
            picked = [k for k in order if open_ >> k & 1][:more]
            self.tops[(plain, more)] = sum(
                prizes.scan[k].plain if plain else prizes.scan[k].gain for k in picked
            )
        return self.tops[(plain, more)]


def _fill(
    scan: Sequence[_Item], order: Sequence[int], open_: int, capacity: int, cap: int | None, *, plain: bool
) -> int:
    """A fractional knapsack of capacity `capacity` over the open items in `order` (best gain
    per minute first), and at most `cap`."""
    total = 0
    left = capacity
    for k in order:
        if left <= 0 or (cap is not None and total >= cap):
            break
        if not open_ >> k & 1:
            continue
        item = scan[k]
        gain = item.plain if plain else item.gain
        if item.weight <= left:
            total += gain
            left -= item.weight
        else:
            total += -(-gain * left // item.weight)
            left = 0
    return total if cap is None else min(total, cap)


def _choices(optional: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Every subset of the optional meals as (prize, weight) in all, the richest first."""
    out = [(0, 0)]
    for prize, weight in optional:
        out += [(gain + prize, used + weight) for gain, used in out]
    return sorted(out, key=lambda choice: (-choice[0], choice[1]))


def _route(label: _Label) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    node: _Label | None = label
    while node is not None and node.node >= 0:
        out.append((node.node, node.time))
        node = node.parent
    return out[::-1]
