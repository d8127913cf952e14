"""The report's plots, drawn with matplotlib's Agg renderer as PNG bytes.

Figures are built with `matplotlib.figure.Figure` (no pyplot state), under the report's rc
style (CJK font, fixed DPI) and saved without the software stamp, so the same data gives the
same bytes. Each plot has a file name, a title (also the figure's title) and a caption.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from runner.report.figures import check_label
from runner.report.fonts import style
from runner.report.frontier import Panel
from runner.report.inputs import Record

COLOURS = {"easy": "tab:green", "medium": "tab:orange", "hard": "tab:red"}
OTHER = "tab:gray"
COLUMNS = 3
SIZE = (6.4, 4.2)


@dataclass(frozen=True)
class Plot:
    """One rendered plot."""

    name: str
    title: str
    caption: str
    png: bytes


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _render(
    name: str, title: str, caption: str, draw: Callable[[Figure], None], size: tuple[float, float]
) -> Plot:
    with matplotlib.rc_context(style()):
        figure = Figure(figsize=size)
        draw(figure)
        figure.suptitle(title)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", metadata={"Software": None})
    return Plot(name, title, caption, buffer.getvalue())


def _empty(axes: Axes, text: str) -> None:
    axes.text(0.5, 0.5, text, ha="center", va="center", transform=axes.transAxes)


def agent_vs_oracle(rows: Sequence[Record], difficulty: Callable[[Record], str]) -> Plot:
    """Agent GU against the oracle's GU* per trial, coloured by difficulty, with the line y = x."""
    points = [row for row in rows if _number(row.get("gu")) and _number(row.get("gu_star"))]

    def draw(figure: Figure) -> None:
        axes = figure.add_subplot()
        axes.set_xlabel("GU* (oracle bound, GU total)")
        axes.set_ylabel("GU (agent plan, GU total)")
        if not points:
            _empty(axes, "no trial has both GU and GU*")
            return
        for group in dict.fromkeys(map(difficulty, points)):
            members = [row for row in points if difficulty(row) == group]
            xs, ys = [row["gu_star"] for row in members], [row["gu"] for row in members]
            axes.scatter(xs, ys, s=24, color=COLOURS.get(group, OTHER), label=group)
        values = [float(row[key]) for row in points for key in ("gu", "gu_star")]
        low, high = min(values), max(values)
        axes.plot([low, high], [low, high], linestyle="--", color="black", linewidth=1, label="y = x")
        axes.legend(loc="upper left")

    caption = f"{len(points)} trial(s) with both figures; points below the line fall short of the bound."
    return _render("agent_vs_oracle", "Agent vs oracle: GU against GU*", caption, draw, SIZE)


def regret_histogram(rows: Sequence[Record]) -> Plot:
    """Histogram of GU* − GU over the trials that have it."""
    values = [float(row["regret"]) for row in rows if _number(row.get("regret"))]

    def draw(figure: Figure) -> None:
        axes = figure.add_subplot()
        axes.set_xlabel("regret = GU* − GU (GU total)")
        axes.set_ylabel("trials")
        if not values:
            _empty(axes, "no trial has a regret")
            return
        bins = min(20, max(5, math.ceil(math.sqrt(len(values)))))
        axes.hist(values, bins=bins, color="tab:blue", edgecolor="white")
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))

    return _render("regret", "Regret per trial", f"{len(values)} trial(s) with a regret.", draw, SIZE)


def frontier_plot(panels: Sequence[Panel], total: int, frontier: bool) -> Plot:
    """One panel per task: the oracle's GU–GF points (line) or its plan's point, the oracle's best
    GU when only that is known (dashed), and the trials' (GF, GU) points."""
    columns = max(1, min(COLUMNS, len(panels)))
    rows = max(1, math.ceil(len(panels) / columns))
    kind = "frontier points (one per GF floor)" if frontier else "plan's own point (no frontier run)"
    caption = (
        f"Oracle: {kind}; dashed line: the oracle's best GU where its GF is unknown; crosses: the trials. "
        f"{len(panels)} of {total} task(s) shown."
    )

    def draw(figure: Figure) -> None:
        if not panels:
            _empty(figure.add_subplot(), "no scored trial")
            return
        for index, panel in enumerate(panels, start=1):
            axes = figure.add_subplot(rows, columns, index)
            _panel(axes, panel)
            if index == 1:
                axes.legend(fontsize=7, loc="lower left")
        figure.tight_layout(rect=(0, 0, 1, 0.95))

    size = (4.0 * columns + 0.4, 3.2 * rows + 0.6)
    return _render("frontier", "Positions on the GU–GF frontier", caption, draw, size)


def _panel(axes: Axes, panel: Panel) -> None:
    axes.set_title(panel.title, fontsize=9)
    axes.set_xlabel("GF", fontsize=8)
    axes.set_ylabel("GU", fontsize=8)
    axes.tick_params(labelsize=7)
    if panel.frontier:
        gfs, gus = zip(*panel.frontier, strict=True)
        axes.plot(gfs, gus, marker="o", color="tab:blue", label="oracle")
    elif panel.best_gu is not None:
        axes.axhline(panel.best_gu, linestyle="--", color="tab:blue", label="oracle best GU")
    if panel.agent:
        gfs, gus = zip(*panel.agent, strict=True)
        axes.scatter(gfs, gus, marker="x", color="tab:red", label="trials")
    axes.set_xlim(-5, 105)


def failed_checks_plot(counts: dict[str, int], trials: int) -> Plot:
    """Horizontal bars: trials failing each strict check."""

    def draw(figure: Figure) -> None:
        axes = figure.add_subplot()
        axes.set_xlabel("trials failing the check")
        if not counts:
            _empty(axes, "no strict check failed")
            return
        labels = [check_label(check) for check in counts]
        axes.barh(labels[::-1], list(counts.values())[::-1], color="tab:purple")
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))

    caption = f"Strict checks failed, counted once per trial, over {trials} scored trial(s)."
    return _render("failed_checks", "Failed strict checks", caption, draw, SIZE)
