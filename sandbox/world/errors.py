"""Structured errors for bad world input: they name the field and the problem."""

from __future__ import annotations


class WorldError(ValueError):
    """Bad input to the world (a task, a world directory, an official file): `field` names
    where (a JSON path or file), `problem` says what is wrong."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem
