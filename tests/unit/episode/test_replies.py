"""What a user's reply does: pass, commit, invalid marker, force-apply
(docs/runner.md#the-protocol-as-implemented, User replies and Compromises)."""

from __future__ import annotations

from typing import Any

from runner.episode.compromise import CompromiseTracker
from runner.episode.replies import Judged, ReplyContext, judge_reply

PREFS: dict[str, Any] = {
    "User1": {"preference": {"global_constraints": {"avg_budget": 3200}}, "compromisable": True},
}
ASKED = ReplyContext("User1", asked=True, round_=5)
NOT_ASKED = ReplyContext("User1", asked=False, round_=5)
FORCED = ReplyContext("User1", asked=False, round_=5, force=True)


def _budget(tracker: CompromiseTracker) -> Any:
    return tracker.effective["User1"]["preference"]["global_constraints"]["avg_budget"]


def test_plain_text_and_passes() -> None:
    tracker = CompromiseTracker.start(PREFS)
    assert judge_reply("好的 [pass]", ASKED, tracker) == Judged("commit", "好的")
    assert judge_reply("[pass]", ASKED, tracker) == Judged("pass", "[pass]")
    assert judge_reply("[PASS]", ASKED, tracker) == Judged("commit", "[PASS]")


def test_valid_marker_is_applied_and_stripped() -> None:
    tracker = CompromiseTracker.start(PREFS)
    assert judge_reply("好吧\n[global_constraints.avg_budget : 3600] [pass]", ASKED, tracker) == Judged(
        "commit", "好吧"
    )
    assert _budget(tracker) == 3600 and tracker.log[0]["round"] == 5


def test_marker_without_the_agent_asking_is_invalid() -> None:
    tracker = CompromiseTracker.start(PREFS)
    assert judge_reply("好吧 [avg_budget : 3600]", NOT_ASKED, tracker).outcome == "invalid"
    assert _budget(tracker) == 3200 and tracker.log == []


def test_malformed_and_unresolvable_markers_are_invalid() -> None:
    tracker = CompromiseTracker.start(PREFS)
    assert judge_reply('好吧 [avg_budget : "36]', ASKED, tracker).outcome == "invalid"
    assert judge_reply("好吧 [hotel.prefer : 经济型]", ASKED, tracker).outcome == "invalid"
    assert [entry["applied"] for entry in tracker.log] == [False]


def test_marker_beyond_the_cap_is_invalid() -> None:
    tracker = CompromiseTracker.start(PREFS)
    for budget in (3300, 3400):
        assert (
            judge_reply(f"好 [global_constraints.avg_budget : {budget}]", ASKED, tracker).outcome == "commit"
        )
    assert judge_reply("好 [global_constraints.avg_budget : 3500]", ASKED, tracker).outcome == "invalid"
    assert _budget(tracker) == 3400


def test_forced_reply_applies_without_being_asked_and_always_commits_stripped() -> None:
    tracker = CompromiseTracker.start(PREFS)
    assert judge_reply("行 [global_constraints.avg_budget : 3900]", FORCED, tracker) == Judged("commit", "行")
    assert _budget(tracker) == 3900
    assert judge_reply('行 [global_constraints.avg_budget : "x]', FORCED, tracker) == Judged("commit", "行")
    assert judge_reply("行 [hotel.prefer : 经济型]", FORCED, tracker) == Judged("commit", "行")
    assert _budget(tracker) == 3900 and [entry["applied"] for entry in tracker.log] == [True, False]
