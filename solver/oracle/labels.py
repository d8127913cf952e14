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
  knapsack of the attractions it can still reach, in the time their windows and the due meals
  leave, the best meal of each kind not eaten) cannot beat the best complete column found.
The search dives depth first, then goes best first. With a work limit (`_Search.work`) it may
stop early; its answer then carries the highest bound over the labels not yet extended, still
a valid ceiling.
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from solver.oracle.blocks import BlockGraph, BlockSpec, block_graph
from solver.oracle.catalog import CityCatalog
from solver.oracle.model import Node, required_meals
from solver.oracle.pricing import SCALE, Column, Duals, Priced, RowKey
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
    ranked: list[tuple[int, int, int]] = field(default_factory=list)
    """Kept attractions as (node, weight, gain) by gain per minute, best first (the bound)."""
    ranked_plain: list[tuple[int, int, int]] = field(default_factory=list)
    """The same with the gain less the must bonuses (`_Search._bound`)."""
    meals: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """Per meal: (last start, prize) of its kept nodes."""
    meal_weights: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """Per meal: (node, service plus the least travel in) of its kept nodes."""
    most_in: int = 0
    """The largest least-travel-in of a kept node (`_Search._room`)."""


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
    kept_somewhere: int = field(init=False)
    """The meals (bits) some destination gate keeps from being due."""
    work: int = field(init=False, default=0)
    """The work of every call so far (`_Search.work`)."""

    def __post_init__(self) -> None:
        self.graph = block_graph(self.spec, self.city)
        places: dict[str, int] = {}
        self.identity = [
            places.setdefault(n.place.place, len(places)) if n.meal is None else -1 for n in self.graph.nodes
        ]
        self.finish = max(
            (
                (DAY - 1 if gate.time is None else gate.time) - min(travel)
                for gate, row in zip(self.spec.destinations, self.graph.into, strict=True)
                if (travel := [m for m in row if m is not None])
            ),
            default=-DAY,
        )
        self.fits = [stop.first + stop.service <= self.finish for stop in self.graph.stops]
        self.kept_somewhere = sum(
            1 << m for m in set().union(*(gate.keeps for gate in self.spec.destinations))
        )
        self.must_bits, self.reject_bits = {}, {}
        for n in self.graph.nodes:
            if n.meal is None:
                for u in range(len(self.users)):
                    for item in n.place.musts[u]:
                        self.must_bits.setdefault((u, item), len(self.must_bits))
                    for item in n.place.rejects[u]:
                        self.reject_bits.setdefault((u, item), len(self.reject_bits))

    def price(self, team: tuple[int, ...], duals: Duals, *, limit: int = WORK_LIMIT) -> Priced:
        """The best column of this block for `team` under `duals`, and a ceiling on every
        column's reduced cost (exact when `proven`)."""
        prizes = self._prizes(team, duals)
        return _Search(self, team, prizes, duals, limit).run()

    def _prizes(self, team: tuple[int, ...], duals: Duals) -> _Prizes:
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
            if node.meal is not None or prize[i] + sum(b for _, b in claims[i]) > 0:
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
        self._rank(prizes)
        return prizes

    def _rank(self, prizes: _Prizes) -> None:
        """The bound's data: attractions by gain per minute (weight: service plus the least
        travel into the node), meals by kind."""
        into = self._least_in(prizes.kept)
        ranked = []
        for j in prizes.kept:
            node, stop = self.graph.nodes[j], self.graph.stops[j]
            prizes.most_in = max(prizes.most_in, into[j])
            if node.meal is not None:
                prizes.meals.setdefault(node.meal, []).append((stop.last, prizes.prize[j]))
                prizes.meal_weights.setdefault(node.meal, []).append((j, stop.service + into[j]))
                continue
            gain = prizes.prize[j] + sum(b for _, b in prizes.claims[j])
            if gain > 0:
                ranked.append((j, max(stop.service + into[j], 1), gain))
        plain = [(j, weight, max(prizes.prize[j], 0)) for j, weight, _ in ranked]
        prizes.ranked = sorted(ranked, key=lambda item: (-Fraction(item[2], item[1]), item[0]))
        prizes.ranked_plain = sorted(plain, key=lambda item: (-Fraction(item[2], item[1]), item[0]))

    def _least_in(self, kept: Sequence[int]) -> dict[int, int]:
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
            value -= 2 * _over(len(attractions), users[u].max_pois)
            value -= 2 * _over(active, users[u].max_minutes)
        else:
            rows[("loose", u, day)] += 1
        rows[("orig", day, city, u, spec.origins[origin].key)] += 1
        rows[("dest", day, city, u, spec.destinations[destination].key)] += 1
        rows[("part", day, city, u)] += 1
    rows[("teams", day, city)] += 1
    visits = tuple((node.place.name, start, node.meal) for node, start in route)
    ordered = tuple(sorted(((k, c) for k, c in rows.items() if c), key=lambda kc: repr(kc[0])))
    return Column(spec.key, team, loose, value, ordered, visits)


def _up(value: Fraction) -> int:
    return math.ceil(value * SCALE)


def _down(value: Fraction) -> int:
    return math.floor(value * SCALE)


def _over(amount: int, cap: int | None) -> int:
    return int(cap is not None and amount > cap)


@dataclass
class _Search:
    pricer: BlockLabels
    team: tuple[int, ...]
    prizes: _Prizes
    duals: Duals
    limit: int
    best: int | None = None
    best_end: tuple[_Label, int] | None = None
    buckets: dict[tuple[int, int, int, bool, int], list[_Label]] = field(
        default_factory=lambda: defaultdict(list)
    )
    reject_charge: dict[int, int] = field(default_factory=dict)
    work: int = 0
    """The work measure: `BOUND_WORK` per completion bound, per attraction it scans and per cap
    regime it evaluates, one per dominance comparison (together they are nearly all a search's
    time, in proportion)."""
    caps: tuple[list[int | None], list[int | None]] = field(init=False)
    """The team's attraction caps and active-minute caps, member by member (`_bound`)."""

    def __post_init__(self) -> None:
        users = [self.pricer.users[u] for u in self.team]
        self.caps = ([u.max_pois for u in users], [u.max_minutes for u in users])

    def run(self) -> Priced:
        """Depth first, best child first, for `DIVE_SHARE` of the work (good columns early),
        then best first — the label of the highest bound next — so that a search cut short
        leaves the least ceiling: every label above the highest bound left has been
        extended."""
        for charges in self.prizes.rejects:
            for bit, charge in charges:
                self.reject_charge[bit] = charge
        stack = self._origins()
        while stack and self.work < self.limit * DIVE_SHARE:
            label = stack.pop()
            if self._alive(label):
                self._complete(label)
                children = self._children(label)
                children.sort(key=lambda child: child.bound)
                stack.extend(children)
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
        return not label.dead and (self.best is None or label.bound > self.best)

    def _children(self, label: _Label) -> list[_Label]:
        """The extensions of `label` that may beat the best column and no label dominates,
        each with its bound."""
        children = []
        for child in self._extend(label):
            child.bound = self._bound(child)
            if child.bound > (NO_COMPLETION if self.best is None else self.best) and self._insert(child):
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
        end, destination = self.best_end
        claims = frozenset(key for key, bit in pricer.must_bits.items() if end.claimed >> bit & 1)
        column = pricer.column(self.team, _route(end), (end.origin, destination), end.loose, claims)
        reduced = column.value - sum((c * self.duals(key) for key, c in column.rows), Fraction(0))
        return Priced(column, reduced, ceiling_value, ceiling is None)

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
                if label.bound > NO_COMPLETION and self._insert(label):
                    out.append(label)
        out.sort(key=lambda label: label.bound)
        return out

    @staticmethod
    def _key(label: _Label) -> tuple[int, int, int, bool, int]:
        """Labels compare only at the same node with the same meals, origin meal pattern and
        looseness (at the origin itself: the same origin, whose travel is its own)."""
        return (label.node, label.meals, label.keeps, label.loose, label.origin if label.node < 0 else -1)

    def _insert(self, label: _Label) -> bool:
        bucket = self.buckets[self._key(label)]
        self.work += len(bucket)
        for other in bucket:
            if self._dominates(other, label):
                return False
        self.work += len(bucket)
        kept = []
        for other in bucket:
            if self._dominates(label, other):
                other.dead = True
            else:
                kept.append(other)
        kept.append(label)
        self.buckets[self._key(label)] = kept
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
                    value -= 2 * SCALE * (_over(label.count, user.max_pois) + _over(active, user.max_minutes))
            if self.best is None or value > self.best:
                self.best, self.best_end = value, (label, d)

    def _bound(self, label: _Label) -> int:
        """An upper bound on the value of every completion of `label`: the best remaining meal
        of each kind, less the least destination dual, plus the attractions it can still reach,
        less the intensity penalties it must pay.

        The attractions are bounded per *regime*: a completion that adds k more attractions and
        A more active minutes, with k and A in given intervals between the team's caps, owes
        at least the penalties of the intervals' lower ends, and gains at most both the k
        largest gains and a fractional knapsack (gains with every bonus, weights: service plus
        the least travel in, which never exceed the minutes a visit adds to the time or the
        active minutes) of capacity min(time left, A's upper end). The bound is the best
        regime's; reject charges only lower a completion."""
        self.work += BOUND_WORK * (1 + len(self.prizes.ranked))
        pricer, prizes = self.pricer, self.prizes
        here = label.node
        now = label.time + (0 if here < 0 else pricer.graph.stops[here].service)
        stops, identity = pricer.graph.stops, pricer.identity
        reachable = {
            j for j, _, _ in prizes.ranked if not label.visited >> identity[j] & 1 and stops[j].last >= now
        }
        room = self._room(label, now, reachable)
        if room is None:
            return NO_COMPLETION
        knapsack = _Knapsack([(w, g) for j, w, g in prizes.ranked if j in reachable])
        apart = _Knapsack([(w, g) for j, w, g in prizes.ranked_plain if j in reachable])
        bonuses = {
            bit: bonus for j in reachable for bit, bonus in prizes.claims[j] if not label.claimed >> bit & 1
        }
        extra = 0
        for meal, options in prizes.meals.items():
            if not label.meals >> meal & 1:
                extra += max([0, *(prize for last, prize in options if last >= now)])
        base = label.value + extra - min(prizes.destination_cost, default=0)
        claims = sum(bonuses.values())

        def gained(capacity: int, more: int | None) -> int:
            return min(knapsack.best(capacity, more), apart.best(capacity, more) + claims)

        most = gained(room, None)
        if label.loose:
            return base + most
        best: int | None = None
        pois, active = self.caps
        spans = self._regimes(label.active, active)
        for more, count_owed in self._regimes(label.count, pois):
            for minutes, minutes_owed in spans:
                penalty = 2 * SCALE * (count_owed + minutes_owed)
                if best is not None and most - penalty <= best:
                    continue  # no regime gains more than `most`
                self.work += BOUND_WORK
                value = gained(room if minutes is None else min(room, minutes), more) - penalty
                best = value if best is None else max(best, value)
        assert best is not None
        return base + best

    def _room(self, label: _Label, now: int, reachable: set[int]) -> int | None:
        """The minutes the label's further attractions may fill with their weights (service
        plus the least travel in), or None when no completion exists.

        Every visit still to come — a reachable attraction, or a meal due in the block (not
        eaten, kept neither by the origin nor by any destination gate) — starts no earlier than
        the earliest opening S among them and ends by E, the lesser of the latest minute a
        destination is still reached in time and the latest end of those visits. Travel and
        services do not overlap, and only the first visit's travel may run before S (and not
        before now), so their weights sum to at most E − S + min(largest travel in, S − now);
        the due meals take at least their least weight out of that. A due meal with no option
        left, or whose least weights do not fit, leaves no completion."""
        pricer, prizes, stops = self.pricer, self.prizes, self.pricer.graph.stops
        visits = list(reachable)
        need = 0
        if not label.loose:
            kept = label.meals | label.keeps | pricer.kept_somewhere
            for meal in REQUIRED:
                if kept >> meal & 1:
                    continue
                options = [
                    (j, weight) for j, weight in prizes.meal_weights.get(meal, ()) if stops[j].last >= now
                ]
                if not options:
                    return None
                need += min(weight for _, weight in options)
                visits += [j for j, _ in options]
        if not visits:
            return 0
        start = max(now, min(stops[j].first for j in visits))
        end = min(pricer.finish, max(stops[j].last + stops[j].service for j in visits))
        room = end - start + min(prizes.most_in, start - now) - need
        if need and room < 0:
            return None
        return max(room, 0)

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
class _Knapsack:
    """Items as (weight, gain), best gain per minute first, for a fractional knapsack."""

    items: list[tuple[int, int]]
    top: list[int] = field(init=False)
    """top[k]: the sum of the k largest gains."""

    def __post_init__(self) -> None:
        self.top = [0, *itertools.accumulate(sorted((g for _, g in self.items), reverse=True))]

    def best(self, room: int, most: int | None) -> int:
        """At most the `most` largest gains (None: all), and at most a fractional knapsack of
        capacity `room`."""
        cap = self.top[-1] if most is None else self.top[min(most, len(self.items))]
        total = 0
        left = room
        for weight, gain in self.items:
            if left <= 0 or total >= cap:
                break
            if weight <= left:
                total += gain
                left -= weight
            else:
                total += -(-gain * left // weight)
                left = 0
        return min(total, cap)


def _route(label: _Label) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    node: _Label | None = label
    while node is not None and node.node >= 0:
        out.append((node.node, node.time))
        node = node.parent
    return out[::-1]
