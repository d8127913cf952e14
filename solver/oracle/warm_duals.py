"""The column generation's first multipliers: duals of a relaxation that needs no search.

Any multipliers give a valid Lagrangian bound (`master.lagrangian`); these give a good one
before any column is priced, and centre the master's first box (`colgen.ColumnGeneration.run`):

- **Attractions** (`("once", u, city, place)`): user u visits at most `days × v` attractions
  over the trip, v the user's `max_poi_per_day` (`DAILY_VISITS` without one). In the relaxation
  that keeps only that count, the best choice takes the attractions of highest score, and its
  LP dual prices each at what it scores above the first one left out, θ: π = max(0, score − θ).
  So a day's pricing sees each attraction at most at θ, and the bound counts what the best ones
  add over θ once, not once a day.
- **Must items** (`("must", u, city, item)`): 2, the bonus, which the bound then counts once
  instead of once in every block that may claim it.
- **Teams** (`("teams", day, city)`): the split penalty of n users all apart spread over their
  teams, `phase_penalty(n) / (n − 1)` a team: the group together then pays it once and is paid
  it back by the team count (net 0), n single users pay n times it and are paid back n times it
  less `phase_penalty(n)`, as the master charges.

Measured on the multi-city gtb tasks, whose first round the clock may cut short: see
docs/oracle.md ("The first centre and the first pass").
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from solver.oracle.blocks import TripFacts
from solver.oracle.catalog import CityCatalog
from solver.oracle.participants import phase_penalty
from solver.oracle.pricing import RowKey
from solver.oracle.scores import ScoredUser

DAILY_VISITS = 4
"""Attractions a day counted for a user without a `max_poi_per_day` (`warm_duals`)."""


def warm_duals(
    facts: TripFacts, cities: Mapping[str, CityCatalog], users: tuple[ScoredUser, ...], *, splits: bool
) -> dict[RowKey, Fraction]:
    """The first multipliers (see the module's docstring); rows not named are 0."""
    duals: dict[RowKey, Fraction] = {}
    for u, user in enumerate(users):
        scores: dict[RowKey, int] = {}
        for c in facts.cities:
            for place in cities[c].attractions:
                key = ("once", u, c, place.place)
                scores[key] = max(scores.get(key, 0), place.scores[u])
                for item in place.musts[u]:
                    duals[("must", u, c, item)] = Fraction(2)
        visits = facts.days * (DAILY_VISITS if user.max_pois is None else user.max_pois)
        ranked = sorted((score for score in scores.values() if score > 0), reverse=True)
        threshold = ranked[visits] if visits < len(ranked) else 0
        duals |= {key: Fraction(score - threshold) for key, score in scores.items() if score > threshold}
    if splits and len(users) > 1:
        share = Fraction(phase_penalty(len(users)), len(users) - 1)
        duals |= {("teams", *block): share for block in facts.blocks}
    return duals
