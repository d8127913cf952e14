"""The judge's and the meta-judge's prompts (Chinese), written in our own words from docs/runner.md#llm-judge.

The judge rates five dimensions, each with reasoning and one rating word; the rubric says what
each dimension looks at, what each rating means, and the hard red lines that cap
interaction_quality at 较差 (2). The meta-judge sees the same material plus the judge's answer
and rates how far that answer can be trusted; its rating weights the final scores.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

PROMPT_VERSION = 1
"""Changes whenever a prompt's wording changes (part of a judge run's settings hash)."""

DIMENSIONS = (
    "hallucination_factuality",
    "tool_usage_reasoning",
    "interaction_quality",
    "conflict_coordination",
    "plan_humanization",
)
TITLES = {
    "hallucination_factuality": "幻觉与事实性",
    "tool_usage_reasoning": "工具使用与推理",
    "interaction_quality": "交互质量",
    "conflict_coordination": "冲突协调",
    "plan_humanization": "方案人性化",
}
RATING_WORDS = ("极差", "较差", "一般", "较好", "优秀")
"""Ratings 1 to 5, in this order."""

Message = dict[str, str]

JUDGE_SYSTEM = """你是一名严格而公正的评审，评估一个旅行规划助手（Agent）在多人群聊中的表现。\
群里有几位同行的用户，各自怀有偏好；Agent 要通过提问了解大家的需求，借助工具查询真实的\
交通、酒店、景点和餐饮信息，化解成员之间的分歧，最后给出一份逐日的行程方案。

请只依据给出的对话记录、工具返回和参考偏好作判断，不要臆测记录之外发生的事。\
每个维度的评级只能是以下五个词之一：极差、较差、一般、较好、优秀。
- 优秀：几乎无可挑剔；较好：整体良好，只有小瑕疵；一般：有明显不足但基本可用；
- 较差：问题较多，影响使用；极差：严重失职或基本没有完成该维度的要求。

一、hallucination_factuality（幻觉与事实性）
看 Agent 说出的地点、车次航班、时间、价格是否有工具返回作依据；是否编造不存在的景点、酒店、\
餐厅或班次；是否与工具结果或用户说过的话相矛盾；方案中的费用与时间是否与查询结果一致。\
凭空捏造关键信息（如不存在的班次或景点）应评为较差或极差。

二、tool_usage_reasoning（工具使用与推理）
看 Agent 是否在需要事实时调用了合适的工具、参数是否合理（城市、日期、关键词）、\
是否避免无意义的重复调用、工具出错后能否调整；以及从查询结果到方案取舍的推理是否清楚、连贯。

三、interaction_quality（交互质量）
看提问是否清楚、有针对性、一次只聚焦少量问题；是否及时回应用户（特别是 @Agent 的提问）；\
语气是否自然友好，像真人助手而不是表格或程序；是否避免重复询问已经回答过的内容。
硬性红线：只要出现以下任意一种情况，本维度最高只能评为“较差”：
1. 同一条消息里同时 @ 了多位用户；
2. 向用户暴露内部字段名或数据结构（例如 global_constraints、must_visit、avg_budget 之类的键名或 JSON 片段）；
3. 用户 @Agent 提出了问题，Agent 却没有回应；
4. 一次向用户询问超过四个方面的问题。

四、conflict_coordination（冲突协调）
看 Agent 是否发现了成员之间相互冲突的偏好（预算、交通方式、必去与拒绝的地点、饮食等）；\
是否说明冲突、提出兼顾各方的折中办法，并向合适的人征求让步；取舍是否公平，是否向大家解释了理由。\
没有冲突时，看它是否确认了大家的共识而没有制造问题。

五、plan_humanization（方案人性化）
看最终方案是否适合真人出行：每天的节奏与强度是否合理、是否留出用餐与休息时间、\
路线是否顺路、时间是否有余量、是否照顾儿童和老人等特殊成员、是否符合大家的预算与偏好。\
没有给出方案时，本维度应评为极差。"""

JUDGE_OUTPUT = "\n".join(
    [
        "请逐个维度先写理由再给评级，严格按下面的 XML 格式输出，不要输出格式之外的内容：",
        "<response>",
        *(
            f"  <{dim}>\n    <reasoning>……</reasoning>\n    <rating>评级词</rating>\n  </{dim}>"
            for dim in DIMENSIONS
        ),
        "</response>",
    ]
)

META_SYSTEM = """你是评审质量的复核专家。另一位评审已经按五个维度（幻觉与事实性、工具使用与推理、\
交互质量、冲突协调、方案人性化）给一段多人旅行规划对话打了分。请对照原始材料检查这份评审：\
理由是否有对话中的证据支撑，评级与理由是否一致，是否遗漏了重要问题，\
是否正确执行了交互质量的硬性红线（同时 @ 多位用户、暴露内部字段名、不回应 @Agent 的提问、\
一次询问超过四个方面，任一出现则交互质量最高为“较差”），有没有过宽或过严。

评级只能是以下五个词之一：极差、较差、一般、较好、优秀。评审越可信，评级越高。"""

META_OUTPUT = """请严格按下面的 XML 格式输出，不要输出格式之外的内容：
<meta_evaluation>
  <reasoning>……</reasoning>
  <rating>评级词</rating>
</meta_evaluation>"""


@dataclass(frozen=True)
class Material:
    """What both prompts show of one episode (already formatted as text)."""

    query: str
    context: str
    users: str
    preferences: str
    conversation: str

    def render(self) -> str:
        return (
            f"## 出行需求\n{self.query}\n\n## 背景信息\n{self.context}\n\n## 参与用户\n{self.users}\n\n"
            f"## 参考偏好（各成员最初的偏好表）\n{self.preferences}\n\n"
            f"## 对话记录\n{self.conversation}"
        )


def judge_messages(material: Material) -> list[Message]:
    """The judge's chat: rubric as the system turn, the episode and the output format as the user turn."""
    return [
        {"role": "system", "content": JUDGE_SYSTEM},
        {"role": "user", "content": f"{material.render()}\n{JUDGE_OUTPUT}"},
    ]


def meta_messages(
    material: Material, ratings: Mapping[str, int], reasoning: Mapping[str, str]
) -> list[Message]:
    """The meta-judge's chat: the same episode plus the judge's ratings and reasons."""
    review = "\n\n".join(
        f"### {dim}（{TITLES[dim]}）\n评级：{RATING_WORDS[ratings[dim] - 1]}\n理由：{reasoning.get(dim, '')}"
        for dim in DIMENSIONS
        if dim in ratings
    )
    return [
        {"role": "system", "content": META_SYSTEM},
        {"role": "user", "content": f"{material.render()}\n## 待复核的评审结果\n{review}\n\n{META_OUTPUT}"},
    ]
