"""The group chat rendered as chat messages from the agent's and a user's seat."""

from __future__ import annotations

from runner.episode.conversation import Entry, ToolCallEntry, ToolResultEntry, message
from runner.llm.history import agent_messages, arguments_for_api, transcript, user_messages


def call(name: str, arguments: str) -> ToolCallEntry:
    return {"type": "tool_call", "name": name, "arguments": arguments}


def result(name: str, text: str, error: bool = False) -> ToolResultEntry:
    return {"type": "tool_result", "name": name, "result": text, "error": error}


HISTORY: list[Entry] = [
    message("User1", "珠海普陀寺必须去"),
    message("User2", "长隆海洋王国非去不可"),
    message("Agent", "", has_tool_calls=True),
    call("search_poi", '{"keywords": "海洋馆", "city": "珠海市"}'),
    result("search_poi", "长隆海洋王国 …"),
    message("Agent", "@User1 你自己最多花多少钱？", has_tool_calls=False),
    message("User1", "我自己最多 3200 元", has_tool_calls=False),
    message("Agent", "好的，已记下。", has_tool_calls=False),
    message("Agent", "@User2 川菜可以吗？", has_tool_calls=False),
]


def test_agent_seat_merges_users_rebuilds_calls_and_keeps_alternation() -> None:
    assert agent_messages(HISTORY) == [
        {"role": "user", "content": "User1: 珠海普陀寺必须去\nUser2: 长隆海洋王国非去不可"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {
                        "name": "search_poi",
                        "arguments": '{"keywords": "海洋馆", "city": "珠海市"}',
                    },
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "长隆海洋王国 …"},
        {"role": "assistant", "content": "@User1 你自己最多花多少钱？"},
        {"role": "user", "content": "User1: 我自己最多 3200 元"},
        {"role": "assistant", "content": "好的，已记下。"},
        {"role": "user", "content": "(其他参与者暂无发言)"},
        {"role": "assistant", "content": "@User2 川菜可以吗？"},
    ]


def test_an_agent_opening_gets_a_placeholder_user_turn() -> None:
    assert agent_messages([message("Agent", "大家好", has_tool_calls=False)]) == [
        {"role": "user", "content": "(对话开始)"},
        {"role": "assistant", "content": "大家好"},
    ]


def test_turn_follows_the_note_which_closes_the_last_user_turn() -> None:
    turn: list[Entry] = [
        message("Agent", "查天气", has_tool_calls=True),
        call("maps_weather", '{"location": "珠海市", "date": "2026-01-14"}'),
        call("search_poi", "{broken"),
        result("maps_weather", "晴"),
        result("search_poi", "参数错误", error=True),
    ]
    messages = agent_messages(HISTORY[:2], turn, note="[系统指令] 出计划")
    assert messages == [
        {
            "role": "user",
            "content": "User1: 珠海普陀寺必须去\nUser2: 长隆海洋王国非去不可\n[系统指令] 出计划",
        },
        {
            "role": "assistant",
            "content": "查天气",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {
                        "name": "maps_weather",
                        "arguments": '{"location": "珠海市", "date": "2026-01-14"}',
                    },
                },
                {
                    "id": "call_2",
                    "type": "function",
                    "function": {"name": "search_poi", "arguments": '{"raw_arguments": "{broken"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "晴"},
        {"role": "tool", "tool_call_id": "call_2", "content": "参数错误"},
    ]


def test_note_after_an_agent_message_is_its_own_user_turn() -> None:
    messages = agent_messages(HISTORY, note="[系统指令] 出计划")
    assert messages[-2:] == [
        {"role": "assistant", "content": "@User2 川菜可以吗？"},
        {"role": "user", "content": "[系统指令] 出计划"},
    ]


def test_user_seat_sees_outward_messages_only_with_its_own_as_assistant() -> None:
    assert user_messages(HISTORY, "User1") == [
        {"role": "user", "content": "(对话开始)"},
        {"role": "assistant", "content": "珠海普陀寺必须去"},
        {"role": "user", "content": "User2: 长隆海洋王国非去不可\nAgent: @User1 你自己最多花多少钱？"},
        {"role": "assistant", "content": "我自己最多 3200 元"},
        {"role": "user", "content": "Agent: 好的，已记下。\nAgent: @User2 川菜可以吗？"},
    ]


def test_transcript_lists_outward_lines() -> None:
    assert transcript(HISTORY[:6]) == (
        "User1: 珠海普陀寺必须去\nUser2: 长隆海洋王国非去不可\nAgent: @User1 你自己最多花多少钱？"
    )


def test_arguments_for_api_keeps_objects_and_wraps_the_rest() -> None:
    assert arguments_for_api('{"a": 1}') == '{"a": 1}'
    assert arguments_for_api("[]") == '{"raw_arguments": "[]"}'
    assert arguments_for_api("") == '{"raw_arguments": ""}'
