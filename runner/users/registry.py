"""Simulated travellers by kind: `make_users("rules", task, seed=…)` → one `User` per task user.

`USER_FACTORIES` is the extension point: a new kind is one entry, a function making one user from
its name, the task, the seed and the kind's options. An unknown kind is a `UserSetupError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from runner.episode.conversation import User
from runner.llm.config import LLMConfig, LLMConfigError
from runner.users.llm import LLMUser
from runner.users.rules import RulesUser
from verifier.errors import StructuredError
from verifier.model.task import Task


class UserSetupError(StructuredError, ValueError):
    """Users that cannot be made: `field` names the argument, `problem` says why."""


class UserFactory(Protocol):
    """Makes the simulator of one user of a task."""

    def __call__(
        self, name: str, task: Task, *, seed: int, llm_options: Mapping[str, Any] | None
    ) -> User: ...


def _rules(name: str, task: Task, *, seed: int, llm_options: Mapping[str, Any] | None) -> User:
    return RulesUser(name, task, seed=seed)


def _llm(name: str, task: Task, *, seed: int, llm_options: Mapping[str, Any] | None) -> User:
    try:
        return LLMUser(name, LLMConfig.from_options(llm_options, seed=seed))
    except LLMConfigError as error:
        raise UserSetupError(f"llm_options.{error.field}", error.problem) from error


USER_FACTORIES: dict[str, UserFactory] = {"rules": _rules, "llm": _llm}
"""Every kind of simulated user `make_users` knows."""


def make_users(
    kind: str, task: Task, *, seed: int, llm_options: Mapping[str, Any] | None = None
) -> dict[str, User]:
    """One simulator of `kind` per user of `task`, in `task.user_preferences` order."""
    factory = USER_FACTORIES.get(kind)
    if factory is None:
        known = ", ".join(sorted(USER_FACTORIES))
        raise UserSetupError("kind", f"unknown kind of user {kind!r}; known kinds: {known}")
    return {name: factory(name, task, seed=seed, llm_options=llm_options) for name in task.user_names}
