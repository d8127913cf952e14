"""Repetition guards A and B and the consecutive-turn counter (docs/runner.md#the-protocol-as-implemented,
Agent turn; docs/runner.md#termination-reasons)."""

from __future__ import annotations

from runner.episode.guards import ConsecutiveCounter, RepetitionGuard, signature

A = signature("search_poi", {"city": "珠海市", "keywords": "海鲜"})
A_REORDERED = signature("search_poi", {"keywords": "海鲜", "city": "珠海市"})
B = signature("maps_weather", {"location": "珠海市", "date": "2026-01-14"})
C = signature("web_search", {"query": "长隆"})


def test_signature_is_canonical() -> None:
    assert A == A_REORDERED
    assert A == ("search_poi", '{"city": "珠海市", "keywords": "海鲜"}')


def test_guard_a_fires_on_a_call_repeated_from_the_previous_iteration() -> None:
    guard = RepetitionGuard()
    assert guard.check([A, B], set()) is None
    assert guard.check([C, A_REORDERED], {A, B}) == "consecutive"


def test_guard_b_fires_at_the_third_identical_call_of_the_episode() -> None:
    guard = RepetitionGuard()
    assert guard.check([A], set()) is None
    assert guard.check([B], {A}) is None
    assert guard.check([A], {B}) is None
    assert guard.check([C], {A}) is None
    assert guard.check([A], {C}) == "multiple"


def test_identical_calls_in_one_iteration_count_separately() -> None:
    guard = RepetitionGuard()
    assert guard.check([A, A], set()) is None
    assert guard.check([A], set()) == "multiple"


def test_guard_a_first_and_b_not_counted_when_a_fires() -> None:
    guard = RepetitionGuard()
    assert guard.check([A], set()) is None
    assert guard.check([A], {A}) == "consecutive"
    assert guard.counts[A] == 1
    assert guard.check([A], set()) is None
    assert guard.counts[A] == 2
    assert guard.check([A], set()) == "multiple"


def test_consecutive_counter() -> None:
    counter = ConsecutiveCounter()
    assert counter.after_turn("consecutive") is None
    assert counter.after_turn(None) is None
    assert counter.after_turn("consecutive") is None
    assert counter.after_turn("consecutive") == "consecutive_repeated_tool_calls"
    assert ConsecutiveCounter().after_turn("multiple") == "multiple_repeated_tool_calls"
