"""Judging a record with a fake model: retry schedule, partial answers, failures, meta, resume."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from runner.episode.conversation import ModelCallError
from runner.judge.batch import HASH_KEY, judge_hash, judge_runs, read_judged
from runner.judge.judge import JudgeSettings, judge_record
from runner.judge.prompts import DIMENSIONS, Message
from runner.loading.files import InputError
from tests.fixtures.report_fixtures import JUDGE_FULL as FULL
from tests.fixtures.report_fixtures import JUDGE_META as META
from tests.fixtures.report_fixtures import runs

TWO = "<response><hallucination_factuality><rating>优秀</rating></hallucination_factuality>" + (
    "<plan_humanization><rating>一般</rating></plan_humanization></response>"
)
SETTINGS = JudgeSettings(model="judge-m")


class Fake:
    """Answers from a script; records the messages and temperatures it was called with."""

    def __init__(self, answers: list[str | Exception]) -> None:
        self.answers: Iterator[str | Exception] = iter(answers)
        self.calls: list[tuple[list[Message], float]] = []

    def __call__(self, messages: list[Message], temperature: float) -> str:
        self.calls.append((messages, temperature))
        answer = next(self.answers)
        if isinstance(answer, Exception):
            raise answer
        return answer


RECORD = runs()[0]


def test_a_clean_answer_and_meta_give_weighted_scores() -> None:
    fake = Fake([FULL, META])
    line = judge_record(RECORD, fake, SETTINGS)
    assert line["judged"] is True
    assert line["inference_crashed"] is False
    assert line["attempts"] == 1
    assert line["scores"] == dict.fromkeys(DIMENSIONS, 4)
    assert line["normalized_scores"]["average_score"] == 75.0
    assert line["final_scores"]["average_score"] == 60.0
    assert line["meta"] == {"score": 4, "reasoning": "可信"}
    assert (line["task_id"], line["trial_id"], line["trial"], line["judge_model"]) == (
        "task_004175",
        0,
        0,
        "judge-m",
    )
    assert [temperature for _, temperature in fake.calls] == [0.1, 0.1]


def test_the_prompt_carries_the_episode() -> None:
    fake = Fake([FULL, META])
    judge_record(RECORD, fake, SETTINGS)
    judge_user = fake.calls[0][0][1]["content"]
    assert "珠海市，两天一夜，3人的旅行计划" in judge_user
    assert "  [工具返回-错误] search_hotels: 城市名无效" in judge_user
    assert '"avg_budget": 3200' in judge_user
    assert "User2、User1" in judge_user
    meta_user = fake.calls[1][0][1]["content"]
    assert "### interaction_quality（交互质量）\n评级：较好\n理由：r" in meta_user


def test_unreadable_answers_are_retried_hotter_from_the_eighth_attempt() -> None:
    fake = Fake(["无法评估"] * 8 + [FULL, META])
    line = judge_record(RECORD, fake, SETTINGS)
    assert line["attempts"] == 9
    assert [t for _, t in fake.calls] == [0.1] * 7 + [0.7, 0.7, 0.1]


def test_the_attempt_rating_most_dimensions_is_kept_after_ten() -> None:
    fake = Fake(["x", TWO, *["<response></response>"] * 8, META])
    line = judge_record(RECORD, fake, SETTINGS)
    assert line["attempts"] == 10
    assert line["scores"] == {"hallucination_factuality": 5, "plan_humanization": 3}
    assert line["average_score"] == 4.0
    assert line["final_scores"] == {
        "hallucination_factuality": 80.0,
        "plan_humanization": 40.0,
        "average_score": 60.0,
    }


def test_no_rating_in_ten_answers_leaves_the_trial_unjudged() -> None:
    line = judge_record(RECORD, Fake(["无"] * 10), SETTINGS)
    assert line["judged"] is False
    assert line["error"] == "no rating could be read in 10 answers"


def test_a_failed_call_leaves_the_trial_unjudged() -> None:
    line = judge_record(RECORD, Fake([ModelCallError("connection_error", "down")]), SETTINGS)
    assert line["judged"] is False
    assert line["error"] == "judge call failed: connection_error: down"


def test_crashed_inference_is_scored_zero_without_a_call() -> None:
    fake = Fake([])
    line = judge_record(runs()[2], fake, SETTINGS)
    assert fake.calls == []
    assert line["inference_crashed"] is True
    assert line["judged"] is True
    assert line["final_scores"]["average_score"] == 0.0
    assert line["scores"] == dict.fromkeys(DIMENSIONS, 1)


def test_a_failed_meta_judge_leaves_the_normalised_scores() -> None:
    line = judge_record(RECORD, Fake([FULL, ModelCallError("runtime_error", "boom")]), SETTINGS)
    assert line["meta"] is None
    assert line["meta_error"] == "meta-judge call failed: runtime_error: boom"
    assert line["final_scores"] == line["normalized_scores"]
    unread = judge_record(RECORD, Fake([FULL, *["?"] * 10]), SETTINGS)
    assert unread["meta_error"] == "no meta rating could be read in 10 answers"


def test_without_meta_one_call_is_made() -> None:
    fake = Fake([FULL])
    line = judge_record(RECORD, fake, JudgeSettings(model="m", meta=False))
    assert len(fake.calls) == 1
    assert line["meta"] is None
    assert "meta_error" not in line


def _lines(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(raw) for raw in path.read_bytes().splitlines()]


def test_batch_appends_one_line_per_trial_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "judged.jsonl"
    records = runs()
    first = Fake([FULL, META, ModelCallError("rate_limit", "429"), "无法评估", *["?"] * 9])
    lines = judge_runs(records, out, first, SETTINGS, endpoint="http://127.0.0.1:1")
    assert [line["judged"] for line in lines] == [True, False, True, False]
    assert [line["inference_crashed"] for line in lines if line["judged"]] == [False, True]
    assert len(_lines(out)) == 4
    assert {line[HASH_KEY] for line in _lines(out)} == {judge_hash(SETTINGS, "http://127.0.0.1:1")}
    second = Fake([FULL, META, FULL, META])
    lines = judge_runs(records, out, second, SETTINGS, endpoint="http://127.0.0.1:1")
    assert len(second.calls) == 4
    assert [line["judged"] for line in lines] == [True, True, True, True]
    assert len(_lines(out)) == 6
    assert [line["trial_id"] for line in read_judged(out).values()] == [0, 1, 0, 1]


def test_batch_trims_a_torn_line_and_refuses_other_settings(tmp_path: Path) -> None:
    out = tmp_path / "judged.jsonl"
    judge_runs(runs()[:1], out, Fake([FULL, META]), SETTINGS, endpoint="e")
    out.write_bytes(out.read_bytes() + b'{"task_id": "torn')
    assert len(read_judged(out)) == 1
    lines = judge_runs(runs()[:2], out, Fake([FULL, META]), SETTINGS, endpoint="e")
    assert len(lines) == 2
    assert out.read_bytes().endswith(b"\n")
    with pytest.raises(InputError, match="made with other judge settings"):
        judge_runs(runs()[:2], out, Fake([]), JudgeSettings(model="other"), endpoint="e")


def test_reading_a_file_of_another_kind_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"task_id": "a"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="line 1: not a tripwright judge output line"):
        read_judged(path)
