"""Split and trip seeds: teams' columns around a whole-group plan, so the pool can split it.

See docs/oracle.md#plans-from-the-columns.

A warm-start plan read as columns (`plan_columns.py`) is one whole-group column per block it
spends; the pool's integer master can split that plan only where it holds a column for every
team of a partition of the group, on the same gates. For each count of teams from 2 to the
primal's most the partition of the users into that many teams whose members agree most
(`partitions`) is chosen, and every user alone (a pattern is laid on a model of its own
attractions, `solve._Search.pattern_model`, so even six teams stay writable); each of their teams is
priced on the gates of the plan's blocks under duals that are 0 on the block's own gates and
on every row left free, and `HELD` on another gate and on the rows `held_duals` is told are
taken — a place or must_visit item visited, a meal eaten in the other block of the same date,
looseness the block's column lacks:

- a *split seed* (`split_seeds`) is a team's column of one block with the rest of the plan
  held: the plan split in that block alone;
- a *trip seed* (`trip_seeds`) is a team's column of each block in turn with the team's own
  earlier trip seeds held: the team's own trip on the plan's skeleton, so that the master can
  split the group for the whole trip (on six-user tasks, every user alone).

The columns only join the pool: the integer master (`integer_master.py`) chooses, under every
row (budget and split penalty included), between them and the plan's own, so a pool with them
never makes a worse pattern, and no bound depends on them. The intensity caps cost a flat −2 a
day each, so on blocks of many short attractions a team of like-minded users may pass them
where the whole group, keeping its strictest caps, cannot.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction

from solver.oracle.catalog import CityCatalog
from solver.oracle.clock import Clock
from solver.oracle.colgen import Team
from solver.oracle.pricing import Column, RowKey

HELD = Fraction(10**6)
"""The dual on a row the rest of the plan uses: far above any column's value, so a column
that touches one is never taken for the best."""

KEPT = ("once", "must", "meal")
"""Rows a held column uses that no other column of the plan may use again."""

GATES = ("orig", "dest", "loose")
"""Rows naming how a column starts and ends: only the priced block's own stay free."""

TeamPricing = Callable[[tuple[int, str], Team, Callable[[RowKey], Fraction], Fraction, Clock], Column | None]
"""Prices a block for a team under the duals within the clock: its best column, None when its
reduced cost is not above the floor (−`HELD` here, so that only a column touching a held row
is refused)."""


def split_seeds(
    plan: Sequence[Column], teams: Sequence[Team], price: TeamPricing, clock: Clock
) -> list[Column]:
    """Every team's best column in each block of `plan`, the rest of the plan held (see module),
    block by block while `clock` lasts."""
    found: list[Column] = []
    for k, column in enumerate(plan):
        dual = held_duals(column, [*plan[:k], *plan[k + 1 :]])
        for team in teams:
            if clock.spent():
                return found
            priced = price(column.block, team, dual, -HELD, clock)
            if priced is not None:
                found.append(priced)
    return found


def trip_seeds(
    plan: Sequence[Column], teams: Sequence[Team], price: TeamPricing, clock: Clock
) -> list[Column]:
    """Each team's own trip on the gates of `plan` (see module), team after team while `clock`
    lasts (a trip it cuts short kept as far as it got): block after block its best column with
    the places, must items and meals of its own earlier columns held."""
    found: list[Column] = []
    for team in teams:
        trip: list[Column] = []
        for column in plan:
            if clock.spent():
                return [*found, *trip]
            priced = price(column.block, team, held_duals(column, trip), -HELD, clock)
            if priced is not None:
                trip.append(priced)
        found.extend(trip)
    return found


def held_duals(own: Column, rest: Sequence[Column]) -> Callable[[RowKey], Fraction]:
    """The duals that price the block of column `own` on its gates with the rows `rest` uses
    held (see module)."""
    gates = {key for key, _ in own.rows}
    used = {key for column in rest for key, _ in column.rows if key[0] in KEPT}

    def dual(key: RowKey) -> Fraction:
        if key[0] in GATES:
            return Fraction(0) if key in gates else HELD
        return HELD if key in used else Fraction(0)

    return dual


def agreement(cities: Sequence[CityCatalog], team: Team) -> int:
    """How much a team's members agree: over every attraction and restaurant of the trip, the
    team's summed score where it is positive."""
    places = [place for city in cities for place in (*city.attractions, *city.restaurants)]
    return sum(max(0, sum(place.scores[u] for u in team)) for place in places)


def partitions(users: int, most: int, value: Callable[[Team], int]) -> list[tuple[Team, ...]]:
    """For each count of teams from 2 to `most` (at most `users`), the partition of the users
    into exactly that many teams of the highest total `value` (ties: the first in
    `_partitions`' order; `value` is asked once a team); then, when there are more users than
    `most`, every user alone (the one partition into `users` teams)."""
    best: dict[int, tuple[int, tuple[Team, ...]]] = {}
    once = functools.cache(value)
    for parts in _partitions(tuple(range(users))):
        if 2 <= len(parts) <= most:
            total = sum(once(team) for team in parts)
            if len(parts) not in best or total > best[len(parts)][0]:
                best[len(parts)] = (total, parts)
    alone = [tuple((u,) for u in range(users))] if users > most else []
    return [best[count][1] for count in sorted(best)] + alone


def _partitions(items: Team) -> Iterator[tuple[Team, ...]]:
    """Every partition of `items` into non-empty teams, each team ascending, in a fixed order."""
    if not items:
        yield ()
        return
    first, rest = items[0], items[1:]
    for parts in _partitions(rest):
        for i, team in enumerate(parts):
            yield (*parts[:i], (first, *team), *parts[i + 1 :])
        yield ((first,), *parts)


def teams_of_partitions(chosen: Sequence[tuple[Team, ...]]) -> list[Team]:
    """The distinct teams of `chosen`, in order of first appearance."""
    return list(dict.fromkeys(itertools.chain.from_iterable(chosen)))
