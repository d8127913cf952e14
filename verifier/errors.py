"""The one shape of a user-facing error: which field, what problem, and how to fix it.

Every package derives its input errors from `StructuredError`. The module imports nothing, so it
is the one module of ours that every package may import (the import-direction test allows exactly
this). The CLI prints `render()` and exits 2 for every one of them, never a traceback.
"""

from __future__ import annotations

from typing import Any


class StructuredError(Exception):
    """Bad input named precisely: `field` says where (a JSON path, an argument, a file, or "" when
    the problem names it), `problem` what is wrong, `hint` (optional) what to do about it.

    `str(error)` is `field: problem` (just `problem` when there is no field); subclasses keep the
    built-in base they had (`ValueError` mostly) by listing it second.
    """

    def __init__(self, field: str, problem: str, hint: str | None = None) -> None:
        self.field, self.problem, self.hint = field, problem, hint
        super().__init__(f"{field}: {problem}" if field else problem)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by state, not by constructor arguments (subclasses take other ones), so the error
        crosses process boundaries (worker pools) intact."""
        return (_restore, (type(self), self.args, self.__dict__))

    def render(self) -> str:
        """The message a user reads: `field: problem`, then `; hint` when there is a hint."""
        message = f"{self.field}: {self.problem}" if self.field else self.problem
        return f"{message}; {self.hint}" if self.hint else message


def _restore(cls: type[StructuredError], args: tuple[Any, ...], state: dict[str, Any]) -> StructuredError:
    """A `StructuredError` of class `cls` rebuilt from its pickled `args` and attributes."""
    error = cls.__new__(cls)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error
