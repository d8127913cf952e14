"""Simulated travellers behind one Protocol (`runner.episode.conversation.User`)."""

from runner.users.llm import LLMUser
from runner.users.registry import USER_FACTORIES, UserFactory, UserSetupError, make_users
from runner.users.rules import RulesUser

__all__ = [
    "USER_FACTORIES",
    "LLMUser",
    "RulesUser",
    "UserFactory",
    "UserSetupError",
    "make_users",
]
