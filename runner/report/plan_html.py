"""A plan as HTML tables, from the view `runner.report.plan_text.render_plan` builds.

Rich's own HTML export is preformatted text whose columns line up only where a CJK character is
exactly two monospace cells wide, which browsers do not guarantee; so the page shows the same
view (heading, one table per day with time, what, who and cost per person, the night's hotel and
the day's cost, trip totals, unreadable parts) as real tables, styled as rich styles its rows.
"""

from __future__ import annotations

from html import escape

from runner.report.plan_text import DayView, RenderedPlan, Row

ROW_CLASSES = {"bold": "leg", "italic": "split"}


def plan_html(view: RenderedPlan) -> str:
    """The plan as an HTML fragment (a `div.plan`)."""
    parts = ['<div class="plan">']
    if view.heading is not None:
        parts.append("<p><b>" + "<br>".join(escape(line) for line in view.heading.split("\n")) + "</b></p>")
    parts.extend(_day(day) for day in view.days)
    if view.total is not None:
        parts.append(f"<p><b>Trip total {escape(view.total)}</b></p>")
    if view.unreadable:
        items = "".join(f"<li>{escape(line)}</li>" for line in view.unreadable)
        parts.append(
            f"<p>Not shown: {len(view.unreadable)} part(s) of the plan could not be read</p><ul>{items}</ul>"
        )
    parts.append("</div>")
    return "".join(parts)


def _day(day: DayView) -> str:
    head = "<tr><th>time</th><th>what</th><th>who</th><th>CNY/person</th></tr>"
    rows = "".join(_row(row) for row in day.rows)
    foot = f'<p class="night">night: {escape(day.night)} · day\'s cost {escape(day.cost)}</p>'
    return f"<h4>{escape(day.heading)}</h4><table><thead>{head}</thead><tbody>{rows}</tbody></table>{foot}"


def _row(row: Row) -> str:
    kind = ROW_CLASSES.get(row.style, "")
    attribute = f' class="{kind}"' if kind else ""
    cells = "".join(f"<td>{escape(text)}</td>" for text in (row.time, row.what, row.who))
    return f'<tr{attribute}>{cells}<td class="num">{escape(row.cost)}</td></tr>'
