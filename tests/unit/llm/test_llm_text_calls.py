"""Tool calls written as JSON text: shapes, fences, unknown names, plans, leftovers."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from runner.episode.conversation import ToolCallRequest
from runner.llm.text_calls import TextCalls, read_text_calls

TOOLS = {"search_poi", "maps_weather"}


def test_fenced_name_arguments() -> None:
    call = '{"name": "search_poi", "arguments": {"keywords": "海鲜", "city": "珠海市"}}'
    text = f"好的。\n```json\n{call}\n```\n稍等"
    assert read_text_calls(text, TOOLS) == TextCalls(
        (ToolCallRequest("text_call_1", "search_poi", '{"keywords": "海鲜", "city": "珠海市"}'),),
        "好的。\n\n稍等",
    )


def test_bare_tool_parameters_shape() -> None:
    text = '调用 {"tool": "maps_weather", "parameters": {"location": "珠海市", "date": "2026-01-14"}}'
    assert read_text_calls(text, TOOLS).calls == (
        ToolCallRequest("text_call_1", "maps_weather", '{"location": "珠海市", "date": "2026-01-14"}'),
    )


def test_function_wrapper_and_string_arguments() -> None:
    text = (
        '{"type": "function", "function": {"name": "search_poi", "arguments": "{\\"city\\": \\"珠海市\\"}"}}'
    )
    assert read_text_calls(text, TOOLS).calls == (
        ToolCallRequest("text_call_1", "search_poi", '{"city": "珠海市"}'),
    )


def test_a_list_of_calls_and_two_blocks() -> None:
    text = (
        '[{"name": "search_poi", "arguments": {"city": "珠海市"}}, {"name": "maps_weather", "arguments": {}}]'
        '\n然后 {"name": "search_poi", "arguments": {"keywords": "公园"}}'
    )
    found = read_text_calls(text, TOOLS)
    assert [(call.id, call.name, call.arguments) for call in found.calls] == [
        ("text_call_1", "search_poi", '{"city": "珠海市"}'),
        ("text_call_2", "maps_weather", "{}"),
        ("text_call_3", "search_poi", '{"keywords": "公园"}'),
    ]
    assert found.remainder == "然后"


def test_unknown_names_and_other_json_are_not_calls() -> None:
    text = '{"name": "book_hotel", "arguments": {}} 以及 {"User1": {"global_constraints": {}}} 和 [pass]'
    assert read_text_calls(text, TOOLS) == TextCalls((), text)


def test_a_plan_is_never_read_as_calls() -> None:
    text = '{"days": [{"city_segments": []}]} {"name": "search_poi", "arguments": {}}'
    assert read_text_calls(text, TOOLS) == TextCalls((), text)


def test_braces_inside_strings_do_not_confuse_matching() -> None:
    text = '{"name": "search_poi", "arguments": {"keywords": "}{奇怪的名字"}}'
    assert read_text_calls(text, TOOLS).calls == (
        ToolCallRequest("text_call_1", "search_poi", '{"keywords": "}{奇怪的名字"}'),
    )


@given(st.text().filter(lambda text: "{" not in text and "[" not in text))
def test_text_without_brackets_has_no_calls(text: str) -> None:
    assert read_text_calls(text, TOOLS) == TextCalls((), text.strip())


ARGUMENTS = st.dictionaries(st.text(min_size=1, max_size=8), st.text(max_size=8) | st.integers(), max_size=4)
PROSE = st.text(alphabet=st.characters(blacklist_characters='{}[]`"\\'), max_size=20)


@given(st.sampled_from(sorted(TOOLS)), ARGUMENTS, PROSE, PROSE, st.booleans())
def test_one_written_call_in_prose_is_read_back_exactly(
    name: str, arguments: dict[str, object], before: str, after: str, fenced: bool
) -> None:
    call = json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)
    block = f"```json\n{call}\n```" if fenced else call
    found = read_text_calls(f"{before}\n{block}\n{after}", TOOLS)
    assert found.calls == (ToolCallRequest("text_call_1", name, json.dumps(arguments, ensure_ascii=False)),)
    assert found.remainder == f"{before}\n\n{after}".strip()
