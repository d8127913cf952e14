"""One episode of the sample task with the openai agent against a local OpenAI-compatible server.

    python benchmarks/episode_local_llm.py --base-url http://127.0.0.1:18733/v1 --model qwen

Builds the sample task's world (`runner.sample.SEED`), plays one episode with an `OpenAIAgent`
and rule users (`--users llm` makes the users LLM users on the same server), printing every
agent step as it happens (purpose, seconds, tool calls, text), then the figures: rounds, events,
agent steps, tool calls (and how many were read from text), completion reason, wall time, tokens,
whether a plan was produced, its strict validity (`verifier.referee.verify`, profile strict, with
the world) and its GU against the effective preferences ③ under both profiles. The API key, if
the server wants one, is read from the variable named by `--api-key-env`.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from runner.agents.openai_agent import OpenAIAgent
from runner.episode.conversation import AgentRequest, AgentStep, ModelCallError, User
from runner.episode.engine import run_episode
from runner.episode.settings import EpisodeSettings
from runner.llm.config import DEFAULT_KEY_ENV, LLMConfig
from runner.loading.benchmark_data import load_task, sample_path
from runner.loading.files import read_json
from runner.sample.plans import SEED
from runner.users.llm import LLMUser
from runner.users.registry import make_users
from sandbox.world.build import build_world
from sandbox.world.official_io import export_poi_db
from sandbox.world.world import World
from verifier.model.task import Task
from verifier.official.extraction import extract_plan_from_conversation
from verifier.official.poi_db import PoiDb
from verifier.referee import verify

SHOWN = 160


class NarratedAgent:
    """An agent that prints each step of the agent it wraps as it happens."""

    def __init__(self, agent: OpenAIAgent) -> None:
        self.agent = agent
        self.name = agent.name
        self.steps = 0

    def step(self, request: AgentRequest) -> AgentStep:
        started = time.perf_counter()
        step = self.agent.step(request)
        self.steps += 1
        seconds = time.perf_counter() - started
        print(f"[agent {self.steps:>3} {request.purpose.value:<12} {seconds:6.1f}s] {one_line(step.content)}")
        for call in step.tool_calls:
            print(f"      tool {call.name}({one_line(call.arguments)})")
        return step

    def describe(self) -> dict[str, Any]:
        return self.agent.describe()


def one_line(text: str) -> str:
    """`text` on one line, cut to SHOWN characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= SHOWN else flat[: SHOWN - 1] + "…"


def players(args: argparse.Namespace, task: Task, config: LLMConfig) -> dict[str, User]:
    """The users: rule users by default, LLM users on the same server with `--users llm`."""
    if args.users == "llm":
        return {name: LLMUser(name, config) for name in task.user_names}
    return dict(make_users("rules", task, seed=args.seed))


def report(task: Task, world: World, record: dict[str, Any], seconds: float) -> None:
    """Print the episode's figures and its plan's strict validity and GU."""
    stats = record["agent_tool_stats"]
    tokens = record.get("tokens", {})
    print("\n== figures")
    print(f"completion reason : {record['completion_reason']}")
    print(f"rounds / events   : {record['total_rounds']} / {record['total_events']}")
    print(f"agent steps       : {record['total_steps']}")
    from_text = record.get("text_tool_calls", 0)
    print(f"tool calls        : {stats['tool_calls_executed']} (from text: {from_text})")
    print(f"tool errors       : {stats['tool_errors']}")
    print(f"tokens            : {tokens}")
    print(f"wall time         : {seconds:.1f} s")
    history = record["conversation_history"]
    plan = extract_plan_from_conversation(history) if record["plan_generated"] else None
    print(f"plan              : {'yes' if plan is not None else 'no'}")
    if plan is None:
        return
    poi_db = PoiDb(export_poi_db(world))
    effective = record["effective_preferences"]
    for profile in ("strict", "official"):
        verdict = verify(task, plan, profile=profile, poi_db=poi_db, world=world, effective=effective)
        gu = verdict.gu.per_user_average_score if verdict.gu is not None else None
        codes = ", ".join(f"{code}×{count}" for code, count in verdict.issue_counts.items()) or "none"
        print(f"{profile:<8} valid={verdict.valid} GU(per-user avg)={gu} violations: {codes}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--api-key-env", default=DEFAULT_KEY_ENV)
    parser.add_argument("--users", choices=("rules", "llm"), default="rules")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--temperature", type=float, default=0.0)
    parser.add_argument("--max-tokens", type=int, default=2048)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--max-turn", type=int, default=None)
    parser.add_argument("--convergence-interval", type=int, default=None)
    args = parser.parse_args(argv)
    task = load_task(sample_path("task.json"), None)
    world = build_world([read_json(sample_path("task.json"))], seed=SEED)
    config = LLMConfig(
        base_url=args.base_url,
        model=args.model,
        api_key_env=args.api_key_env,
        temperature=args.temperature,
        seed=args.seed,
        max_tokens=args.max_tokens,
        timeout_s=args.timeout,
    )
    agent = NarratedAgent(OpenAIAgent(config))
    settings = EpisodeSettings(
        seed=args.seed, max_turn=args.max_turn, convergence_interval=args.convergence_interval
    )
    print(f"task {task.task_id}: {task.query} | agent {config.describe()} | users {args.users}")
    started = time.perf_counter()
    try:
        record = run_episode(task, world, agent, players(args, task, config), trial=0, settings=settings)
    except ModelCallError as error:
        print(f"episode failed after {time.perf_counter() - started:.1f} s: {error.reason}: {error.detail}")
        return 1
    report(task, world, record, time.perf_counter() - started)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
