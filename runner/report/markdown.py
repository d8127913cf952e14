"""The report as Markdown: plots are linked as `plots/<name>.png` beside `report.md`, tool calls
are folded in `<details>` (rendered by GitHub and most viewers), the plan is a text block."""

from __future__ import annotations

import re

from runner.report.document import Block, Chat, Fold, Heading, Image, Para, Preformatted, Report, Table

PLOTS_DIR = "plots"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def _fence(text: str) -> str:
    """A backtick fence longer than any run of backticks in the text."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    return "`" * max(3, longest + 1)


def block(item: Block) -> str:
    """One block as Markdown."""
    match item:
        case Heading(text, level):
            return f"{'#' * level} {text}"
        case Para(text):
            return text
        case Table(columns, rows):
            lines = ["| " + " | ".join(_cell(c) for c in columns) + " |", "|" + "---|" * len(columns)]
            lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
            return "\n".join(lines)
        case Image(plot):
            return f"![{plot.title}]({PLOTS_DIR}/{plot.name}.png)\n\n*{plot.caption}*"
        case Chat(role, text):
            quoted = "\n".join(f"> {line}" if line else ">" for line in text.split("\n"))
            return f"**{role}**\n\n{quoted}"
        case Fold(summary, body, _):
            fence = _fence(body)
            return f"<details><summary>{summary}</summary>\n\n{fence}\n{body}\n{fence}\n\n</details>"
        case Preformatted(text, _):
            fence = _fence(text)
            return f"{fence}text\n{text}\n{fence}"
    raise TypeError(f"not a report block: {item!r}")


def render(report: Report) -> str:
    """The whole report as Markdown (one blank line between blocks, a final newline)."""
    return "\n\n".join([f"# {report.title}", *(block(item) for item in report.blocks)]) + "\n"
