"""The report as a list of blocks, rendered twice: to Markdown and to HTML.

Blocks are plain data; `runner.report.markdown` and `runner.report.html` each render every kind.
A `Fold` is collapsed (`<details>`) in both; a `Preformatted` may carry its own HTML (the plan,
exported from rich with its colours) beside the text used in Markdown.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from runner.report.plots import Plot


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 2


@dataclass(frozen=True)
class Para:
    text: str


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Image:
    plot: Plot


@dataclass(frozen=True)
class Chat:
    """A chat message: who said it and what."""

    role: str
    text: str


@dataclass(frozen=True)
class Fold:
    """Collapsed detail: a one-line summary that opens to `body` (shown as preformatted text)."""

    summary: str
    body: str
    error: bool = False


@dataclass(frozen=True)
class Preformatted:
    text: str
    html: str | None = None


Block = Heading | Para | Table | Image | Chat | Fold | Preformatted


@dataclass(frozen=True)
class Report:
    title: str
    blocks: list[Block] = field(default_factory=list)

    @property
    def plots(self) -> list[Plot]:
        return [block.plot for block in self.blocks if isinstance(block, Image)]
