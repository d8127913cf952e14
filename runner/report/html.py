"""The report as one self-contained HTML page: styles inline, plots embedded as base64 PNG data
URIs, no script and no external resource, so it opens anywhere without a network."""

from __future__ import annotations

import base64
from html import escape

from runner.report.document import Block, Chat, Fold, Heading, Image, Para, Preformatted, Report, Table

STYLE = """
body { font-family: "Noto Sans SC", "Microsoft YaHei", "PingFang SC", sans-serif; margin: 2em auto;
       max-width: 72em; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 0.8em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
figure { margin: 1em 0; }
figure img { max-width: 100%; }
figcaption { color: #555; font-size: 0.9em; }
.msg { border-left: 4px solid #888; margin: 0.6em 0; padding: 0.3em 0.8em; background: #fafafa; }
.msg.agent { border-color: #1f77b4; background: #f2f7fc; }
.msg .role { font-weight: bold; }
.msg .text { white-space: pre-wrap; margin: 0.2em 0 0; }
details { margin: 0.3em 0 0.3em 1.5em; }
details.error summary { color: #b00; }
details pre, pre.text { white-space: pre-wrap; background: #f6f6f6; padding: 0.5em; }
.plan table { width: 100%; }
.plan td.num { text-align: right; }
.plan tr.leg { font-weight: bold; }
.plan tr.split { font-style: italic; color: #555; }
.plan .night { color: #555; font-size: 0.9em; margin-top: 0.2em; }
""".strip()


def _png(data: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(data).decode("ascii")


def block(item: Block) -> str:
    """One block as HTML."""
    match item:
        case Heading(text, level):
            return f"<h{level}>{escape(text)}</h{level}>"
        case Para(text):
            return f"<p>{escape(text)}</p>"
        case Table(columns, rows):
            head = "".join(f"<th>{escape(column)}</th>" for column in columns)
            body = "".join(
                "<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>" for row in rows
            )
            return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        case Image(plot):
            return (
                f'<figure><img alt="{escape(plot.title)}" src="{_png(plot.png)}">'
                f"<figcaption>{escape(plot.caption)}</figcaption></figure>"
            )
        case Chat(role, text):
            kind = "msg agent" if role == "Agent" else "msg"
            return (
                f'<div class="{kind}"><div class="role">{escape(role)}</div>'
                f'<div class="text">{escape(text)}</div></div>'
            )
        case Fold(summary, body, error):
            kind = ' class="error"' if error else ""
            return f"<details{kind}><summary>{escape(summary)}</summary><pre>{escape(body)}</pre></details>"
        case Preformatted(text, html):
            return html if html is not None else f'<pre class="text">{escape(text)}</pre>'
    raise TypeError(f"not a report block: {item!r}")


def render(report: Report) -> str:
    """The whole page."""
    body = "\n".join(block(item) for item in report.blocks)
    return (
        '<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{escape(report.title)}</title>\n<style>\n{STYLE}\n</style>\n</head>\n<body>\n"
        f"<h1>{escape(report.title)}</h1>\n{body}\n</body>\n</html>\n"
    )
