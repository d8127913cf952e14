"""The judge's transcript and preference formatting (docs/runner.md#llm-judge)."""

from __future__ import annotations

from runner.judge.transcript import NO_PREFERENCES, format_conversation, format_preferences


def test_each_entry_kind_is_formatted_with_a_blank_line_after_it() -> None:
    history = [
        {"type": "message", "role": "User1", "content": "去珠海"},
        {"type": "message", "role": "Agent", "content": "", "has_tool_calls": True},
        {"type": "tool_call", "name": "search_flights", "arguments": '{"to": "珠海市"}'},
        {"type": "tool_result", "name": "search_flights", "result": "MU5001", "error": False},
        {"type": "tool_result", "name": "search_hotels", "result": "城市无效", "error": True},
        {"type": "message", "role": "Agent", "content": "好的", "has_tool_calls": False},
    ]
    assert format_conversation(history) == (
        "[User1]: 去珠海\n\n"
        "[Agent]: (调用工具，见下方)\n\n"
        '  [工具调用] search_flights\n  参数: {"to": "珠海市"}\n\n'
        "  [工具返回] search_flights:\n  MU5001\n\n"
        "  [工具返回-错误] search_hotels: 城市无效\n\n"
        "[Agent]: 好的\n\n"
    )


def test_long_results_are_cut_at_2000_characters() -> None:
    entry = {"type": "tool_result", "name": "t", "result": "x" * 2001, "error": False}
    assert format_conversation([entry]) == "  [工具返回] t:\n  " + "x" * 2000 + "\n  ... (结果已截断)\n\n"
    exact = {"type": "tool_result", "name": "t", "result": "y" * 2000, "error": False}
    assert format_conversation([exact]) == "  [工具返回] t:\n  " + "y" * 2000 + "\n\n"


def test_an_agent_message_with_text_and_tool_calls_keeps_its_text() -> None:
    entry = {"type": "message", "role": "Agent", "content": "查一下", "has_tool_calls": True}
    assert format_conversation([entry, "junk"]) == "[Agent]: 查一下\n\n"


def test_preferences_are_indented_json_or_the_placeholder() -> None:
    assert format_preferences({}) == NO_PREFERENCES == "（无参考偏好数据）"
    assert format_preferences(None) == NO_PREFERENCES
    assert format_preferences({"User1": {"a": 1}}) == '{\n  "User1": {\n    "a": 1\n  }\n}'
