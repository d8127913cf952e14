"""The trip's skeleton in CP-SAT: on which day each transition happens, where each night is
spent, which city blocks exist, and which leg and hotel are taken.

For a city order c1 … cm the trip has transitions 0 … m (home → c1, c1 → c2, …, cm → home).
Transition 0 happens on day 1 and transition m on the last day (strict: the outbound leg opens
day 1, the return leg closes the last day); the others on any day, in order, several on one
day when a city gets no night. Night d (after day d) is spent in city c when transition c−1
happened on or before day d and transition c after it. Block (d, c) — the part of day d spent
in city c — exists when transition c−1 happened on or before day d and transition c on or
after it. Every night has exactly one hotel of its city (sleeper legs are outside the modelled
plan space: docs/oracle.md).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from solver.oracle.catalog import Place
from solver.oracle.legs import LegOption, leg_options
from verifier.world_facts import WorldFacts


@dataclass(frozen=True)
class Frame:
    """The fixed facts of one city order: days, dates, cities (home at both ends)."""

    days: int
    start: dt.date
    stops: tuple[str, ...]
    """World keys: home, c1, …, cm, home."""

    @property
    def cities(self) -> int:
        return len(self.stops) - 2

    def date(self, day: int) -> dt.date:
        return self.start + dt.timedelta(days=day - 1)


@dataclass
class Skeleton:
    """The skeleton's variables (days are 1-based, cities 1 … m)."""

    frame: Frame
    on_day: dict[tuple[int, int], cp_model.IntVar]
    """(transition, day) → the transition happens that day."""
    by_day: dict[tuple[int, int], cp_model.IntVar]
    """(transition, day) → the transition happened on or before that day."""
    legs: dict[tuple[int, int], list[tuple[LegOption, cp_model.IntVar, cp_model.IntVar]]]
    """(transition, day) → candidates with their literal and departure minute."""
    block: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    """(day, city) → the block exists."""
    night: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    """(night, city) → that night is spent in that city."""
    hotels: dict[tuple[int, int], list[tuple[Place, cp_model.IntVar]]] = field(default_factory=dict)
    """(night, city) → hotel candidates with their literal."""


def build_skeleton(
    model: cp_model.CpModel,
    world: WorldFacts,
    frame: Frame,
    hotels: dict[str, tuple[Place, ...]],
    fixed: tuple[int, ...] | None = None,
) -> Skeleton:
    """Transition days, legs, blocks, nights and hotels of `frame` (hotels by city key); with
    `fixed`, transition i happens on day `fixed[i]` and only the blocks and nights that leaves
    are built (a restriction the primal search may take; the bound never does)."""
    m, days = frame.cities, frame.days
    on_day: dict[tuple[int, int], cp_model.IntVar] = {}
    legs: dict[tuple[int, int], list[tuple[LegOption, cp_model.IntVar, cp_model.IntVar]]] = {}
    for i in range(m + 1):
        allowed = [1] if i == 0 else [days] if i == m else list(range(1, days + 1))
        if fixed is not None:
            allowed = [day for day in allowed if day == fixed[i]]
        for day in range(1, days + 1):
            literal = model.new_bool_var(f"T{i}d{day}")
            on_day[(i, day)] = literal
            if day not in allowed:
                model.add(literal == 0)
                continue
            options = leg_options(
                world, frame.stops[i], frame.stops[i + 1], frame.date(day), first=i == 0, last=i == m
            )
            legs[(i, day)] = [
                (
                    leg,
                    model.new_bool_var(f"x{i}d{day}o{k}"),
                    model.new_int_var(leg.depart, leg.latest, f"dep{i}d{day}o{k}"),
                )
                for k, leg in enumerate(options)
            ]
            model.add(sum(lit for _, lit, _ in legs[(i, day)]) == literal)
        model.add_exactly_one(on_day[(i, day)] for day in range(1, days + 1))
    skeleton = Skeleton(frame, on_day, {}, legs)
    for i in range(m + 1):
        for day in range(1, days + 1):
            by = model.new_bool_var(f"P{i}d{day}")
            model.add(by == sum(on_day[(i, d)] for d in range(1, day + 1)))
            skeleton.by_day[(i, day)] = by
            if i:
                model.add_implication(by, skeleton.by_day[(i - 1, day)])
    _blocks_and_nights(model, skeleton, hotels, fixed)
    return skeleton


def _blocks_and_nights(
    model: cp_model.CpModel,
    skeleton: Skeleton,
    hotels: dict[str, tuple[Place, ...]],
    fixed: tuple[int, ...] | None,
) -> None:
    frame, by = skeleton.frame, skeleton.by_day
    for city in range(1, frame.cities + 1):
        key = frame.stops[city]
        for day in range(1, frame.days + 1):
            if fixed is not None and not fixed[city - 1] <= day <= fixed[city]:
                continue
            arrived = by[(city - 1, day)]
            left_before = by[(city, day - 1)] if day > 1 else None
            block = model.new_bool_var(f"B{day}c{city}")
            _and_not(model, block, arrived, left_before)
            skeleton.block[(day, city)] = block
            if day == frame.days or (fixed is not None and day == fixed[city]):
                continue
            night = model.new_bool_var(f"N{day}c{city}")
            _and_not(model, night, arrived, by[(city, day)])
            skeleton.night[(day, city)] = night
            options = [
                (hotel, model.new_bool_var(f"H{day}c{city}h{k}")) for k, hotel in enumerate(hotels[key])
            ]
            model.add(sum(lit for _, lit in options) == night)
            skeleton.hotels[(day, city)] = options


def _and_not(
    model: cp_model.CpModel, target: cp_model.IntVar, yes: cp_model.IntVar, no: cp_model.IntVar | None
) -> None:
    """target ⇔ yes ∧ ¬no (no = None: target ⇔ yes)."""
    if no is None:
        model.add(target == yes)
        return
    model.add_bool_and([yes, no.Not()]).only_enforce_if(target)
    model.add_bool_or([yes.Not(), no]).only_enforce_if(target.Not())
