"""TeamPlan.compacted: waits between visits closed inside the windows, towards the right side."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from solver.oracle.catalog import CityCatalog
from solver.oracle.team_plan import TeamPlan, Visit


@dataclass(frozen=True)
class _Hop:
    minutes: int


class _FakeCityCatalog:
    """Every transfer between two different places takes 10 minutes."""

    def hop(self, origin: str, destination: str) -> _Hop:
        return _Hop(0 if origin == destination else 10)


CATALOG = cast(CityCatalog, _FakeCityCatalog())


def _team(*visits: Visit, leave: int = 480, limit: int = 1439) -> TeamPlan:
    return TeamPlan(("User1",), "start", "end", leave, 0, visits, limit)


def _starts(team: TeamPlan) -> list[int]:
    return [visit.start for visit in team.visits]


PARK = Visit("park", "attraction", 600, 60, 0, ((540, 960),))
LUNCH = Visit("lunch", "food", 720, 30, 0, ((660, 780),))
MUSEUM = Visit("museum", "attraction", 900, 60, 0, ((600, 840), (870, 1000)))


def test_after_a_hotel_every_visit_moves_as_late_as_the_next_allows() -> None:
    team = _team(PARK, LUNCH, MUSEUM)
    # the museum stays (the hotel end is free); lunch could end 10 min before 15:00 but its
    # window closes at 13:00; the park ends 10 min before lunch
    assert _starts(team.compacted(CATALOG, fixed_start=False, fixed_end=False)) == [710, 780, 900]


def test_before_a_departure_hub_the_last_visit_moves_up_to_the_leg() -> None:
    team = _team(PARK, LUNCH, MUSEUM, limit=1100)
    # the museum may start until 16:40 (its window), leaving 10 min to reach the hub by 18:20
    assert _starts(team.compacted(CATALOG, fixed_start=False, fixed_end=True)) == [710, 780, 1000]


def test_after_an_arrival_hub_every_visit_moves_as_early_as_it_can() -> None:
    team = _team(PARK, LUNCH, MUSEUM, leave=500)
    # the park opens 09:00 (ready at 08:30); lunch's window opens 11:00; the museum is ready
    # at 11:40 but its first window is open then
    assert _starts(team.compacted(CATALOG, fixed_start=True, fixed_end=False)) == [540, 660, 700]


def test_a_visit_never_leaves_its_window_and_nothing_moves_the_wrong_way() -> None:
    tight = Visit("tight", "attraction", 600, 60, 0, ((600, 600),))
    team = _team(tight, LUNCH)
    for fixed_start in (True, False):
        moved: Any = team.compacted(CATALOG, fixed_start=fixed_start, fixed_end=False)
        assert moved.visits[0].start == 600
    assert _team().compacted(CATALOG, fixed_start=True, fixed_end=True) == _team()
