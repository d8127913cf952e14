"""Structured errors for bad world input: they name the field and the problem."""

from __future__ import annotations

from verifier.errors import StructuredError


class WorldError(StructuredError, ValueError):
    """Bad input to the world (a task, a world directory, an official file): `field` names
    where (a JSON path or file), `problem` says what is wrong."""
