"""Deriving task variants: certified-unsolvable wishes, mid-dialogue transitions, intent shifts.

`certificates` proves a wish unmeetable from world facts (`check_table`, `Certificate`);
`variants` writes the derived tasks (`derive`)."""

from runner.tasks.certificates import Certificate, check_table, declares_unsolvable, refusal_message
from runner.tasks.variants import derive

__all__ = ["Certificate", "check_table", "declares_unsolvable", "derive", "refusal_message"]
