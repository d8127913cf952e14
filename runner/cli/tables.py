"""Tables of the CLI's human output: no vertical rules, and cells that wrap rather than truncate.

Rich shrinks a table that is wider than the console; with its defaults a column can end up
three cells wide and every name in it cut to "gre…". Here every column folds what does not
fit onto further lines, and the compact box leaves more room for the text.
"""

from __future__ import annotations

from rich import box
from rich.table import Column, Table


def cli_table(*headers: str | Column, title: str | None = None) -> Table:
    """A table whose columns (plain header strings or ready `Column`s) wrap and fold, never cut."""
    columns = [Column(header, overflow="fold") if isinstance(header, str) else header for header in headers]
    return Table(*columns, title=title, box=box.SIMPLE_HEAD, show_edge=False, padding=(0, 1, 0, 0))
