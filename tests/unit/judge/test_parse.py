"""Reading judge answers: rating words, every tag repair, the regex fallback, the meta answer."""

from __future__ import annotations

import pytest

from runner.judge.parse import canonical_tag, parse_judgement, parse_meta, rating_value, repair
from runner.judge.prompts import DIMENSIONS

WORDS = ("较差", "一般", "较好", "优秀", "极差")


def answer(template: str = "<{dim}><reasoning>理由{n}</reasoning><rating>{word}</rating></{dim}>") -> str:
    body = "".join(template.format(dim=dim, n=n, word=WORDS[n]) for n, dim in enumerate(DIMENSIONS))
    return f"<response>{body}</response>"


EXPECTED = dict(zip(DIMENSIONS, (2, 3, 4, 5, 1), strict=True))


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("极差", 1),
        ("较差", 2),
        ("一般", 3),
        ("较好", 4),
        ("优秀", 5),
        ("评级：较好", 4),
        ("评级: 优秀", 5),
        ("  一般  ", 3),
        ("整体较好，个别一般", 3),
        ("优秀（接近满分）", 5),
        ("good", None),
        ("", None),
    ],
)
def test_rating_words(text: str, value: int | None) -> None:
    assert rating_value(text) == value


def test_clean_xml_is_read_as_it_is() -> None:
    result = parse_judgement(answer())
    assert result.ratings == EXPECTED
    assert result.reasoning["tool_usage_reasoning"] == "理由1"
    assert result.fallback == ()


def test_code_fences_and_text_around_the_xml_are_dropped() -> None:
    text = f"好的，以下是评估：\n```xml\n{answer()}\n```\n以上。"
    assert parse_judgement(text).ratings == EXPECTED


@pytest.mark.parametrize(
    ("name", "tag"),
    [
        (" rating ", "rating"),
        ("Rating", "rating"),
        ("Hallucination-Factuality", "hallucination_factuality"),
        ("tool usage reasoning", "tool_usage_reasoning"),
        ("interaction_qualty", "interaction_quality"),
        ("conflict", "conflict_coordination"),
        ("plan_humanisation", "plan_humanization"),
        ("方案人性化", "plan_humanization"),
        ("reasonings", "reasoning"),
        ("User1", None),
        ("plan", None),
    ],
)
def test_tag_names_are_matched_loosely(name: str, tag: str | None) -> None:
    assert canonical_tag(name) == tag


def test_spacing_and_case_inside_tags_are_repaired() -> None:
    text = answer("< {dim} >< Reasoning >r{n}</ reasoning ><RATING>{word}</rating ></ {dim}>")
    assert parse_judgement(text).ratings == EXPECTED


def test_missing_wrapper_is_inserted() -> None:
    text = answer().removeprefix("<response>").removesuffix("</response>")
    assert repair(text).startswith("<response><hallucination_factuality>")
    assert parse_judgement(text).ratings == EXPECTED


def test_angle_brackets_and_ampersands_in_reasoning_are_escaped() -> None:
    text = answer(
        "<{dim}><reasoning>预算 <3000 & 时间>8h，@User1 <User2> 也提到</reasoning>"
        "<rating>{word}</rating></{dim}>"
    )
    result = parse_judgement(text)
    assert result.ratings == EXPECTED
    assert result.reasoning["interaction_quality"] == "预算 <3000 & 时间>8h，@User1 <User2> 也提到"


def test_entities_already_escaped_are_not_escaped_twice() -> None:
    text = answer("<{dim}><reasoning>a &lt; b &amp; c</reasoning><rating>{word}</rating></{dim}>")
    assert parse_judgement(text).reasoning["hallucination_factuality"] == "a < b & c"


def test_missing_closing_tags_are_closed() -> None:
    text = "<response>" + "".join(
        f"<{dim}><reasoning>r<rating>{WORDS[n]}" for n, dim in enumerate(DIMENSIONS)
    )
    result = parse_judgement(text)
    assert result.ratings == EXPECTED
    assert result.reasoning["plan_humanization"] == "r"
    assert result.fallback == ()


def test_stray_closing_tags_are_dropped() -> None:
    text = answer(
        "</rating><{dim}></reasoning><reasoning>r</reasoning><rating>{word}</rating></{dim}></response>"
    )
    assert parse_judgement(text).ratings == EXPECTED


def test_comments_are_dropped() -> None:
    text = answer(
        "<!-- 注意 <rating>优秀</rating> --><{dim}><reasoning>r</reasoning><rating>{word}</rating></{dim}>"
    )
    assert parse_judgement(text).ratings == EXPECTED


def test_prose_answers_fall_back_to_regex() -> None:
    text = "\n".join(f"{dim}：理由：写得{WORDS[n]}一些\n评级：{WORDS[n]}" for n, dim in enumerate(DIMENSIONS))
    result = parse_judgement(text)
    assert result.ratings == EXPECTED
    assert result.fallback == DIMENSIONS
    assert result.reasoning["conflict_coordination"] == "写得优秀一些"


def test_fallback_uses_chinese_titles_and_the_first_word_after_the_name() -> None:
    text = "幻觉与事实性 较差。工具使用与推理：优秀"
    result = parse_judgement(text)
    assert result.ratings == {"hallucination_factuality": 2, "tool_usage_reasoning": 5}
    assert result.fallback == ("hallucination_factuality", "tool_usage_reasoning")


def test_characters_xml_forbids_send_the_answer_to_the_fallback() -> None:
    text = answer("<{dim}><reasoning>坏字符\ufffe</reasoning><rating>{word}</rating></{dim}>")
    result = parse_judgement(text)
    assert result.ratings == EXPECTED
    assert result.fallback == DIMENSIONS


def test_an_answer_without_ratings_rates_nothing() -> None:
    result = parse_judgement("我无法评估这段对话。")
    assert result.ratings == {}
    assert result.reasoning == {}


def test_unknown_rating_words_leave_the_dimension_unrated() -> None:
    text = answer().replace("<rating>优秀</rating>", "<rating>great</rating>")
    assert "conflict_coordination" not in parse_judgement(text).ratings
    assert len(parse_judgement(text).ratings) == 4


def test_meta_answer_is_read_as_xml() -> None:
    meta = "<meta_evaluation><reasoning>可信</reasoning><rating>评级：较好</rating></meta_evaluation>"
    text = f"```xml\n{meta}\n```"
    assert parse_meta(text) == (4, "可信")


def test_meta_answer_falls_back_to_the_first_rating_tag() -> None:
    text = "<meta_evaluation><reasoning>a < b</reasoning><rating>一般</rating></meta_evaluation>"
    assert parse_meta(text) == (3, "a < b")
    assert parse_meta("<rating>优秀</rating>") == (5, "")


def test_meta_answer_without_a_rating_is_none() -> None:
    assert parse_meta("<meta_evaluation><reasoning>x</reasoning></meta_evaluation>") is None
    assert parse_meta("评审不错") is None
