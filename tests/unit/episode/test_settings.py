"""Episode settings: limits by difficulty, explicit values, bad values by field, the event cap."""

from __future__ import annotations

import pytest

from runner.episode import EpisodeInputError, EpisodeSettings, Limits, limits_for
from runner.episode.settings import event_cap
from verifier.model.task import Task


@pytest.mark.parametrize(
    ("difficulty", "expected"),
    [
        ("easy", Limits(15, 3)),
        ("medium", Limits(20, 4)),
        ("hard", Limits(25, 5)),
        ("expert", Limits(20, 4)),
        (None, Limits(20, 4)),
    ],
)
def test_limits_follow_the_difficulty(difficulty: str | None, expected: Limits) -> None:
    task = Task(task_id="t", difficulty_type=difficulty)
    assert limits_for(task, EpisodeSettings()) == expected


def test_explicit_values_win_one_by_one() -> None:
    task = Task(task_id="t", difficulty_type="hard")
    assert limits_for(task, EpisodeSettings(max_turn=2)) == Limits(2, 5)
    assert limits_for(task, EpisodeSettings(convergence_interval=7)) == Limits(25, 7)
    assert limits_for(task, EpisodeSettings(max_turn=0, convergence_interval=1)) == Limits(0, 1)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"max_turn": -1}, "max_turn"), ({"convergence_interval": 0}, "convergence_interval")],
)
def test_out_of_range_settings_name_the_field(kwargs: dict[str, int], field: str) -> None:
    with pytest.raises(EpisodeInputError) as error:
        EpisodeSettings(**kwargs)
    assert error.value.field == field
    assert str(error.value).startswith(f"{field}: must be")


def test_event_cap_is_five_per_speaker() -> None:
    assert event_cap(3) == 15
    assert event_cap(7) == 35
