"""make_users: one simulator per task user, in the task's key order; unknown kinds refused by name."""

from __future__ import annotations

import pytest

from runner.users.registry import USER_FACTORIES, UserSetupError, make_users
from runner.users.rules import RulesUser
from tests.fixtures.sample_game import sample_task


def test_rules_users_in_task_order() -> None:
    users = make_users("rules", sample_task(), seed=4)
    assert list(users) == ["User2", "User1"]
    assert all(isinstance(user, RulesUser) and user.name == name for name, user in users.items())
    assert users["User1"].describe() == {"kind": "rules", "seed": 4, "volunteer_rate": 0.3}


def test_unknown_kind_lists_the_known_ones() -> None:
    with pytest.raises(UserSetupError) as caught:
        make_users("robots", sample_task(), seed=0)
    assert caught.value.field == "kind"
    known = ", ".join(sorted(USER_FACTORIES))
    assert caught.value.problem == f"unknown kind of user 'robots'; known kinds: {known}"
