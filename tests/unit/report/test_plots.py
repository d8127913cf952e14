"""Each plot is drawn (PNG, titled, captioned), the CJK labels find their glyphs, bytes are stable."""

from __future__ import annotations

import io
import logging
import warnings
from collections.abc import Callable

import matplotlib
import pytest
from matplotlib.figure import Figure

from runner.report import plots
from runner.report.frontier import Panel, has_frontier, oracle_points, panels
from runner.report.inputs import Inputs
from runner.report.plots import Plot
from tests.fixtures.report_fixtures import EASY, MEDIUM, oracle, scored

PNG = b"\x89PNG\r\n\x1a\n"
ORACLE = {line["task_id"]: line for line in oracle() if "status" in line}
INPUTS = Inputs(runs=[], scored=scored(), oracle=ORACLE)


def difficulty(row: dict[str, object]) -> str:
    return str(row["difficulty"])


def all_plots() -> list[Plot]:
    shown, total = panels(INPUTS, 12)
    return [
        plots.agent_vs_oracle(scored(), difficulty),
        plots.regret_histogram(scored()),
        plots.frontier_plot(shown, total, frontier=True),
        plots.failed_checks_plot({"4": 1, "5": 1, "8": 1}, 4),
    ]


@pytest.fixture(scope="module")
def drawn() -> list[Plot]:
    return all_plots()


def test_every_plot_is_a_titled_png(drawn: list[Plot]) -> None:
    assert [(plot.name, plot.title) for plot in drawn] == [
        ("agent_vs_oracle", "Agent vs oracle: GU against GU*"),
        ("regret", "Regret per trial"),
        ("frontier", "Positions on the GU–GF frontier"),
        ("failed_checks", "Failed strict checks"),
    ]
    for plot in drawn:
        assert plot.png.startswith(PNG)
        assert len(plot.png) > 5000
    assert [plot.caption for plot in drawn] == [
        "2 trial(s) with both figures; points below the line fall short of the bound.",
        "2 trial(s) with a regret.",
        "Oracle: frontier points (one per GF floor); dashed line: the oracle's best GU where its GF is "
        "unknown; crosses: the trials. 2 of 2 task(s) shown.",
        "Strict checks failed, counted once per trial, over 4 scored trial(s).",
    ]


def test_plots_are_byte_identical_when_drawn_again(drawn: list[Plot]) -> None:
    assert [plot.png for plot in all_plots()] == [plot.png for plot in drawn]


def _glyph_complaints(draw: Callable[[], object], caplog: pytest.LogCaptureFixture) -> list[str]:
    with warnings.catch_warnings(record=True) as caught, caplog.at_level(logging.WARNING):
        warnings.simplefilter("always")
        draw()
    messages = [str(w.message) for w in caught] + [r.getMessage() for r in caplog.records]
    return [m for m in messages if "Glyph" in m and "missing" in m]


def test_chinese_labels_find_their_glyphs(caplog: pytest.LogCaptureFixture) -> None:
    assert _glyph_complaints(all_plots, caplog) == []


def test_without_the_cjk_font_glyphs_would_be_missing(caplog: pytest.LogCaptureFixture) -> None:
    def dejavu_only() -> None:
        with matplotlib.rc_context({"font.family": "sans-serif", "font.sans-serif": ["DejaVu Sans"]}):
            figure = Figure()
            figure.add_subplot().set_title("营业时间")
            figure.savefig(io.BytesIO(), format="png")

    assert _glyph_complaints(dejavu_only, caplog) != []


def test_empty_data_draws_a_note() -> None:
    empty = [
        plots.agent_vs_oracle([], difficulty),
        plots.regret_histogram([]),
        plots.frontier_plot([], 0, frontier=False),
        plots.failed_checks_plot({}, 0),
    ]
    assert all(plot.png.startswith(PNG) for plot in empty)
    assert empty[2].caption.endswith("0 of 0 task(s) shown.")
    assert "plan's own point (no frontier run)" in empty[2].caption


def test_frontier_points_from_the_oracle_records() -> None:
    assert oracle_points(ORACLE[EASY]) == [(70.0, 150.0), (85.0, 140.0), (100.0, 120.0)]
    assert oracle_points(ORACLE[MEDIUM]) == [(50.0, 90.0)]
    assert oracle_points(None) == []
    assert has_frontier(ORACLE)
    assert not has_frontier({MEDIUM: ORACLE[MEDIUM]})
    assert not has_frontier(None)


def test_panels_per_task() -> None:
    shown, total = panels(INPUTS, 1)
    assert total == 2
    assert shown == [
        Panel(EASY, EASY, [(70.0, 150.0), (85.0, 140.0), (100.0, 120.0)], 50.0, [(80.0, 50.0), (60.0, 30.0)])
    ]
    medium = panels(Inputs(runs=[], scored=scored()), 2)[0][1]
    assert medium == Panel(MEDIUM, MEDIUM, [], 28.0, [])
