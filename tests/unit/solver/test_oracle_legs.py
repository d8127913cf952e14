"""Leg candidates (`legs.leg_options`): only departures strict can match.

Several departures of one mode with the same times (codeshares) are one leg to strict, which
matches the first in timetable order (`verifier.strict.timetable.match_leg`) and prices a plan
by that one's fare; a cheaper twin listed later is no candidate, so the oracle never writes a
fare strict rejects (gtb task_001102: its pattern plans declared 640 CNY for a flight strict
priced at 740, every one rejected)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import replace

from solver.oracle.legs import leg_options
from solver.oracle.solve import OracleSettings, solve_task
from tests.fixtures.preferences import city, prefs, with_prefs
from tests.fixtures.strict_world import TASK_A, FixtureWorld, Option
from verifier.strict.profile import strict_violations

DATE = dt.date(2025, 9, 2)


class _CodeshareWorld(FixtureWorld):
    """The strict fixture world where every flight has a twin listed after it: same times,
    hubs and mode, 1 CNY cheaper, another code."""

    def intercity_options(self, from_city: str, to_city: str, date: dt.date) -> Sequence[Option]:
        out: list[Option] = []
        for option in super().intercity_options(from_city, to_city, date):
            out.append(option)
            if option.mode == "飞机":
                out.append(replace(option, fare_fen=option.fare_fen - 100, code=option.code + "S"))
        return tuple(out)


WORLD = _CodeshareWorld()


def test_a_cheaper_twin_listed_later_is_no_candidate() -> None:
    """长春 → 海口 on the first day: three flights and their three twins; the candidates are the
    two strict matches that land the same day, at their own fares (the twins, cheaper, would
    have dominated them)."""
    options = leg_options(WORLD, "长春市", "海口市", DATE, first=True, last=False)
    assert [(o.option.code, o.option.fare_fen) for o in options] == [("CZ6701", 150000), ("HU7702", 130000)]
    assert len(WORLD.intercity_options("长春市", "海口市", DATE)) == 6


def test_a_plan_over_codeshares_declares_the_fare_strict_matches() -> None:
    """TASK_A in the codeshare world: the pattern of the bound's 6 is written, so the plan is
    proven optimal; it passes strict, each flight declared at the fare of the first of its
    twins. (With the twins as candidates the pattern's plan declared their fares, strict
    rejected it, and the record kept a plan of 5.)"""
    task = with_prefs(
        TASK_A, prefs(海口市=city([], [], ["历史街区"], []), 三亚市=city([], [], ["自然风光"], []))
    )
    result = solve_task(task, WORLD, OracleSettings(time_limit=4, seed=0))
    assert (result.status.value, result.objective, result.bound) == ("OPTIMAL", 6, 6)
    assert result.plan is not None and strict_violations(task, result.plan, WORLD) == []
    flights = [
        round(s["avg_cost"] * 100)
        for day in result.plan["days"]
        for s in day["city_segments"]
        if s.get("transport_mode") == "飞机"
    ]
    firsts = {150000, 130000, 90000, 160000, 120000}
    assert len(flights) == 2 and set(flights) <= firsts
