"""An episode's state and its speaking events: Agent turns, convergences, user replies
(docs/runner.md#the-protocol-as-implemented).

`Episode` holds what the protocol keeps — the committed history, the table ②, the tracker of ③,
the counters, the consumed (message, target) pairs, the completion reason — and performs one
event at a time; `runner.episode.scheduler` decides which event comes next.

- An Agent event runs a turn, commits its intermediate and tool entries, reads its text for a
  table ②, and commits its outward message unless it is *intercepted*: a normal turn whose text
  changed ② without being a plan. A plan sets the completion reason "plan_generated".
- A convergence is an Agent event with the convergence instruction; it is never intercepted.
- A user event asks the user (an @-mentioned user up to three times while the reply is a pass),
  then judges the reply (`runner.episode.replies`); an invalid compromise marker asks again, up
  to three replies in all, the third being force-applied.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from runner.episode.calls import ToolRunner, ToolStats
from runner.episode.compromise import CompromiseTracker
from runner.episode.conversation import (
    AGENT,
    Agent,
    Entry,
    MessageEntry,
    Purpose,
    User,
    UserRequest,
    is_outward,
    message,
    outward,
)
from runner.episode.faults import FaultLog
from runner.episode.guards import ConsecutiveCounter, Repetition
from runner.episode.ledger import Ledger
from runner.episode.markers import asked_by_agent
from runner.episode.passes import is_pass, strip_passes
from runner.episode.replies import ReplyContext, judge_reply
from runner.episode.settings import MARKER_ATTEMPTS, MENTION_PASS_ATTEMPTS, Limits, event_cap
from runner.episode.shifts import IntentShift
from runner.episode.table import updated_table
from runner.episode.turn import AgentTurns, TurnResult
from sandbox.cache.store import ToolCache
from sandbox.world.world import World
from verifier.model.task import Task
from verifier.official.extraction import check_is_travel_plan


@dataclass
class Counters:
    """The scheduler's counters: completed rounds, events, events this round, polling position."""

    rounds: int = 0
    events: int = 0
    events_in_round: int = 0
    idx: int = 0


@dataclass(frozen=True)
class AgentEvent:
    """How an Agent event ended: the turn, and whether its message was intercepted."""

    turn: TurnResult
    intercepted: bool


class Episode:
    """One trial's state and events."""

    def __init__(
        self,
        task: Task,
        world: World | None,
        agent: Agent,
        users: Mapping[str, User],
        *,
        cache: ToolCache | None,
        limits: Limits,
        faults: FaultLog | None = None,
    ) -> None:
        self.task = task
        self.users = users
        self.limits = limits
        self.names = task.user_names
        self.order = [*self.names, AGENT]
        self.cap = event_cap(len(self.order))
        self.ledger = Ledger()
        self.stats = ToolStats()
        self.faults = faults
        tools = ToolRunner(world, cache, self.ledger, self.stats, faults)
        self.agent = AgentTurns(task, agent, tools, self.ledger)
        self.history: list[Entry] = [message(m.role, m.content) for m in task.initial_messages]
        self.table: dict[str, Any] = {}
        self.tracker = CompromiseTracker.start(task.preference_table())
        self.counters = Counters()
        self.consecutive = ConsecutiveCounter()
        self.consumed: set[tuple[int, str]] = set()
        self.reason: str | None = None
        self.plan_generated = False
        self.shift = IntentShift.of(task)

    # -- the Agent -------------------------------------------------------------------------------

    def agent_event(self, purpose: Purpose, *, mentioned: bool = False) -> AgentEvent:
        """An Agent turn committed (or intercepted, for a TURN); a plan ends the episode."""
        turn = self.agent.turn(purpose, list(self.history), self.table, mentioned=mentioned)
        self.history.extend(turn.entries)
        changed = self.read_table(turn.content)
        plan = check_is_travel_plan(turn.content) is not None
        if purpose is Purpose.TURN and changed and not plan:
            return AgentEvent(turn, True)
        self.history.append(turn.final())
        if plan:
            self.reason, self.plan_generated = "plan_generated", True
        return AgentEvent(turn, False)

    def read_table(self, content: str) -> bool:
        """Read an Agent reply for a table ②; whether the table changed."""
        before = self.table
        self.table = updated_table(self.table, content)
        return self.table != before

    def convergence(self) -> None:
        """A convergence summary: one more event, committed, never intercepted."""
        self.counters.events += 1
        self.agent_event(Purpose.CONVERGENCE)

    def summarise(self, history: list[Entry]) -> None:
        """An internal preference summary of `history`; it may replace the table ②."""
        self.table = self.agent.summary(history, self.table)

    def after_agent_turn(self, flag: Repetition | None) -> None:
        """Repetition bookkeeping after a preempt or polling Agent turn."""
        self.reason = self.consecutive.after_turn(flag) or self.reason

    # -- users -----------------------------------------------------------------------------------

    def user_event(self, name: str, *, mentioned: bool) -> bool:
        """Ask `name` for a reply and commit it; True when the event ends in a pass."""
        attempt = replies = 0
        while True:
            text, attempt = self._ask(name, mentioned, attempt)
            replies += 1
            context = ReplyContext(
                name, self.asked(name), self.counters.events, force=replies >= MARKER_ATTEMPTS
            )
            judged = judge_reply(text, context, self.tracker)
            if judged.outcome != "invalid":
                break
        if judged.outcome == "commit":
            self.history.append(message(name, judged.text, has_tool_calls=False))
        return judged.outcome == "pass"

    def _ask(self, name: str, mentioned: bool, attempt: int) -> tuple[str, int]:
        """One reply of `name` (up to three while an @-mentioned user passes); the attempt reached."""
        tries = MENTION_PASS_ATTEMPTS if mentioned else 1
        while True:
            attempt += 1
            tries -= 1
            text = self.ledger.user_reply(
                self.users[name], self.user_request(name, mentioned, attempt)
            ).content
            if tries == 0 or not is_pass(strip_passes(text)):
                return text, attempt

    def user_request(self, name: str, mentioned: bool, attempt: int) -> UserRequest:
        """What `name` is given: outward history, its slot of ③ (after a due intent shift), its
        compromise quota."""
        if self.shift is not None:
            self.shift.apply_due(self.counters.events, self.tracker.effective, name)
        left = self.tracker.left(name)
        original = bool(self.task.preference_table()[name].get("compromisable"))
        return UserRequest(
            user=name,
            task=self.task,
            history=outward(self.history),
            preference=copy.deepcopy(self.tracker.effective[name]),
            compromisable=original and left > 0,
            compromises_left=left,
            mentioned=mentioned,
            attempt=attempt,
        )

    def asked(self, name: str) -> bool:
        """Whether the last outward message is the Agent's and @-mentions `name` last."""
        last = self.last_outward()
        return asked_by_agent(None if last is None else last[1], name, self.order)

    def last_outward(self) -> tuple[int, MessageEntry] | None:
        """The last message every participant saw, with its position in the history, or None."""
        for position in range(len(self.history) - 1, -1, -1):
            entry = self.history[position]
            if is_outward(entry) and entry["type"] == "message":
                return position, entry
        return None

    def nothing_new_for(self, name: str) -> bool:
        """Whether no one else said anything outward since `name` last spoke (polling skip rule)."""
        last = self.last_outward()
        return last is None or last[1]["role"] == name
