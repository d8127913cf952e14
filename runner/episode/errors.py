"""The episode's input error: which field is wrong and why, never a traceback for the user."""

from __future__ import annotations

from verifier.errors import StructuredError


class EpisodeInputError(StructuredError, ValueError):
    """An episode cannot start: `field` names the input (task field, setting, `users`), `problem` why.

    A task without `query`, `user_preferences` or `initial_messages` is the official
    input-validation failure (docs/runner.md#runs): the runs layer records it without a completion reason.
    """
