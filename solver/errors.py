"""The solver's one error for tasks it cannot take."""

from __future__ import annotations


class TaskInputError(ValueError):
    """A task the solver cannot take: `field` names the task field (or "world"), `problem` why."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field, self.problem = field, problem
