"""The routing core's bare routes (`solver/oracle/routing.py`): a model to write values from.

A bare route must have exactly the variables and arcs the full route has (the plan writer and
`pattern_plan.pattern_assignment` find a written route's arcs by node pair) and no constraint.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from solver.oracle.routing import End, Graph, Stop, add_route

MINUTES = st.integers(0, 600)


@st.composite
def graphs(draw: st.DrawFn) -> Graph:
    """A small graph: 1–5 stops with one window each, some travel missing, one origin and one
    destination."""
    n = draw(st.integers(1, 5))
    stops = []
    for _ in range(n):
        low = draw(MINUTES)
        stops.append(Stop(draw(st.integers(0, 120)), ((low, low + draw(MINUTES)),)))
    travel = st.one_of(st.none(), st.integers(0, 240))
    matrix = tuple(tuple(draw(travel) for _ in range(n)) for _ in range(n))
    origin = End(None, tuple(draw(travel) for _ in range(n)))
    destination = End(None, tuple(draw(travel) for _ in range(n)))
    return Graph(tuple(stops), matrix, (origin,), (destination,), ((draw(travel),),))


@settings(max_examples=80, deadline=None)
@given(graph=graphs(), leave_low=MINUTES)
def test_a_bare_route_has_the_full_routes_arcs_and_no_constraint(graph: Graph, leave_low: int) -> None:
    """Same arcs (by node pair), visits and starts as the full route; the full model has
    constraints, the bare one none."""
    routes, counts = [], []
    for bare in (False, True):
        model = cp_model.CpModel()
        leave = model.new_int_var(leave_low, 1439, "leave")
        back = model.new_int_var(0, 1439, "back")
        routes.append(add_route(model, graph, leave, back, bare=bare))
        counts.append(len(model.proto.constraints))
    full, bare_route = routes
    assert sorted(bare_route.arcs) == sorted(full.arcs)
    assert len(bare_route.visit) == len(full.visit) == len(graph.stops)
    assert len(bare_route.start) == len(full.start)
    assert counts[0] > 0 and counts[1] == 0
