"""`RandomAgent`: the floor — seeded tool calls, a random question now and then, a greedy plan
from whatever it heard.

Each turn (a preempt, polling, convergence or final-plan turn) draws from a generator seeded by
SHA-256 of (seed, task id, history length, purpose): how many tool calls to make (0–2, one per
step, each with valid arguments built from the world — a web search, a POI search, a weather
look-up, a train or flight search between two of the trip's cities; a call it already made in the
episode is drawn again, so it never trips the repetition guards), then what to say. At a turn it
plans with probability `PLAN_CHANCE`, asks one random traveller about one random field with
probability `ASK_CHANCE` ("@User2 你的人均预算大概多少？"), and otherwise says a filler sentence; at
the final-plan request it always plans. The plan is the greedy planner's (`solver.greedy`) for
table ② as the scripted agent's interview reads the chat (`runner.agents.elicit.interview`):
everything the travellers said, asked for or not. Tool results are never read. A summary request
is answered with table ②. Same seed, same history → same steps, in any process.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

from runner.agents.baselines import GreedyPlanner, plan_message, table_message
from runner.agents.elicit import interview
from runner.agents.vocab import Vocabulary
from runner.episode.conversation import AgentRequest, AgentStep, Purpose, ToolCallRequest
from runner.users.rules import stable_int
from sandbox.world.world import World
from verifier.model.task import Task

PLAN_CHANCE = 0.25
ASK_CHANCE = 0.5
MAX_CALLS_PER_TURN = 2
FILLERS = ("好的，我先查一些资料。", "收到，大家的想法我都记下了。", "我再整理一下行程思路。")
QUESTIONS = {
    "budget": "你的人均预算大概多少？",
    "transport": "你的交通方式有什么偏好吗？",
    "intensity": "你希望的行程强度是怎样的？每天最多几个景点？",
    "hotel": "你的住宿有什么偏好吗？",
    "visit": "有没有必去或不想去的景点？",
    "category": "你对哪类景点感兴趣吗？",
    "food": "你想吃或不吃什么吗？",
}


class RandomAgent:
    """The seeded floor agent (see the module docstring)."""

    name = "random"

    def __init__(self, task: Task, world: World, *, seed: int) -> None:
        self.task, self.world, self.seed = task, world, seed
        self.cities = list(task.metadata.cities)
        self.vocab = Vocabulary.of(world, self.cities)
        self.planner = GreedyPlanner(world)
        self._plans: dict[str, dict[str, Any] | None] = {}

    def describe(self) -> dict[str, Any]:
        """Name, seed and planner."""
        return {"name": self.name, "seed": self.seed, "tools": True, "planner": self.planner.describe()}

    def step(self, request: AgentRequest) -> AgentStep:
        """A summary, a tool call, or the turn's text (see the module docstring)."""
        table = interview(request.history, self.task.user_names, self.cities, self.vocab).table
        if request.purpose is Purpose.SUMMARY:
            return AgentStep(table_message(table))
        purpose = request.turn_purpose or request.purpose
        rng = random.Random(stable_int(self.seed, self.task.task_id, len(request.history), purpose))
        calls = rng.randint(0, MAX_CALLS_PER_TURN)
        if request.tools and request.iteration <= calls:
            call = self._new_call(request, rng, request.iteration)
            if call is not None:
                return AgentStep("", (call,))
        if purpose is Purpose.FINAL_PLAN or rng.random() < PLAN_CHANCE:
            return AgentStep(plan_message(self._plan(table)))
        if rng.random() < ASK_CHANCE:
            user = rng.choice(self.task.user_names)
            return AgentStep(f"@{user} {QUESTIONS[rng.choice(sorted(QUESTIONS))]}")
        return AgentStep(rng.choice(FILLERS))

    def _plan(self, table: dict[str, Any]) -> dict[str, Any] | None:
        key = json.dumps(table, ensure_ascii=False, sort_keys=True)
        if key not in self._plans:
            self._plans[key] = self.planner(self.task, table)
        return self._plans[key]

    def _new_call(self, request: AgentRequest, rng: random.Random, iteration: int) -> ToolCallRequest | None:
        """A call not made before in the episode (up to 10 draws), or None."""
        made = {
            (entry["name"], entry["arguments"])
            for entry in [*request.history, *request.turn]
            if entry["type"] == "tool_call"
        }
        for _ in range(10):
            name, arguments = self._draw(rng)
            shown = json.dumps(arguments, ensure_ascii=False)
            if (name, shown) not in made:
                return ToolCallRequest(f"random_{iteration}", name, shown)
        return None

    def _draw(self, rng: random.Random) -> tuple[str, dict[str, Any]]:
        """A random call with arguments the tool accepts."""
        cities = self.cities or [self.task.metadata.departure_city]
        city = rng.choice(cities)
        start = self.task.departure_date() or dt.date(2025, 1, 1)
        date = (
            start + dt.timedelta(days=rng.randint(0, max(0, (self.task.trip_days() or 1) - 1)))
        ).isoformat()
        pois = self.world.pois(city)
        kind = rng.choice(("web_search", "search_poi", "maps_weather", "travel"))
        if kind == "web_search" and pois:
            return "web_search", {"query": f"{rng.choice(pois).name} 门票 开放时间"}
        if kind == "search_poi" and pois:
            return "search_poi", {"keywords": rng.choice(pois).category, "city": city}
        if kind == "travel":
            origin = self.task.metadata.departure_city or city
            tool = rng.choice(("travel_search_trains", "travel_search_flights"))
            return tool, {"origin": origin, "destination": city, "date": date}
        return "maps_weather", {"location": city, "date": date}
