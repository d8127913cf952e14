"""The solver's one error for tasks it cannot take."""

from __future__ import annotations

from verifier.errors import StructuredError


class TaskInputError(StructuredError, ValueError):
    """A task the solver cannot take: `field` names the task field (or "world"), `problem` why."""
