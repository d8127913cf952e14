"""Which event comes next (docs/runner.md#the-protocol-as-implemented, Main loop): opening, main loop, forced
final plan, refresh.

Phase 2 opens with an internal preference summary and a convergence. The main loop runs while
no completion reason is set and fewer than `max_turn` rounds are complete; each pass does the
first of:

1. *Preempt* — the last outward message is the Agent's and @-mentions someone (last mention
   wins) not yet consumed for that message: the target speaks at once, mentioned. Preempts never
   move the polling position; an event-cap overflow closes the round. One deliberate deviation:
   the cap is also checked after an intercepted preempt (the official loop skips it there, so
   an agent that @-mentions itself while alternating two tables would never finish a round).
2. *Timed convergence* — at the start of a lap (position 0) when `rounds` is a positive multiple
   of the convergence interval: summary, convergence, then a *phantom round* (`rounds += 1`) so
   it does not fire again.
3. *Polling* — the speaker at the polling position (users in task order, then the Agent) speaks;
   a user with nothing new to read since their own last message is skipped without a call.

After the loop, a round limit with no reason set leads to the forced final plan (three
attempts, only the last committed), and a plan leads to a post-plan summary refresh.
"""

from __future__ import annotations

from runner.episode.conversation import AGENT, Purpose
from runner.episode.events import Episode
from runner.episode.mentions import last_mention
from runner.episode.settings import FINAL_PLAN_ATTEMPTS
from verifier.official.extraction import check_is_travel_plan

COMPLETION_REASONS = (
    "plan_generated",
    "max_turn_reached",
    "multiple_repeated_tool_calls",
    "consecutive_repeated_tool_calls",
    "loop_ended",
)


def run_protocol(episode: Episode) -> str:
    """Play Phase 2 of an episode whose history holds the opening messages; the completion reason."""
    opening(episode)
    while episode.reason is None and episode.counters.rounds < episode.limits.max_turn:
        if preempt(episode) or timed_convergence(episode):
            continue
        poll(episode)
    if episode.reason is None and episode.counters.rounds >= episode.limits.max_turn:
        forced_final_plan(episode)
    if episode.plan_generated:
        episode.summarise(episode.history[:-1])
    return episode.reason or "loop_ended"


def opening(episode: Episode) -> None:
    """Phase 2 opening: an internal summary, then a committed convergence."""
    episode.summarise(episode.history)
    episode.convergence()


def close_round(episode: Episode, *, rewind: bool) -> None:
    """Count a round as complete; `rewind` also sends polling back to the first speaker."""
    episode.counters.rounds += 1
    episode.counters.events_in_round = 0
    if rewind:
        episode.counters.idx = 0


def preempt(episode: Episode) -> bool:
    """Let the target of the Agent's last @-mention speak; whether a preempt happened."""
    last = episode.last_outward()
    if last is None or last[1]["role"] != AGENT:
        return False
    position, said = last
    target = last_mention(said["content"], episode.order)
    if target is None or (position, target) in episode.consumed:
        return False
    counters = episode.counters
    counters.events += 1
    counters.events_in_round += 1
    if target == AGENT:
        event = episode.agent_event(Purpose.TURN, mentioned=True)
        if episode.reason is None and event.intercepted:
            episode.convergence()
        elif episode.reason is None:
            episode.after_agent_turn(event.turn.flag)
    elif episode.user_event(target, mentioned=True):
        episode.consumed.add((position, target))
        return True
    if episode.reason is None and counters.events_in_round >= episode.cap:
        close_round(episode, rewind=True)
    return True


def timed_convergence(episode: Episode) -> bool:
    """A convergence at the start of every `convergence_interval`-th lap; whether one happened."""
    counters = episode.counters
    if counters.idx != 0 or counters.rounds == 0 or counters.rounds % episode.limits.convergence_interval:
        return False
    episode.summarise(episode.history)
    episode.convergence()
    if episode.reason is None:
        close_round(episode, rewind=False)
    return True


def poll(episode: Episode) -> None:
    """The speaker at the polling position speaks (or is skipped); rounds close at the lap's end
    or when the round's events reach the cap."""
    counters = episode.counters
    speaker = episode.order[counters.idx]
    counters.idx = (counters.idx + 1) % len(episode.order)
    if speaker != AGENT and episode.nothing_new_for(speaker):
        if counters.idx == 0:
            close_round(episode, rewind=False)
        return
    counters.events += 1
    counters.events_in_round += 1
    if speaker == AGENT:
        event = episode.agent_event(Purpose.TURN)
        if episode.reason is not None:
            return
        if event.intercepted:
            episode.convergence()
            if episode.reason is None and counters.idx == 0:
                close_round(episode, rewind=False)
            return
        episode.after_agent_turn(event.turn.flag)
        if episode.reason is not None:
            return
    else:
        episode.user_event(speaker, mentioned=False)
    if counters.idx == 0:
        close_round(episode, rewind=False)
    elif counters.events_in_round >= episode.cap:
        close_round(episode, rewind=True)


def forced_final_plan(episode: Episode) -> None:
    """Up to three final-plan turns until one emits a plan; only the last is committed."""
    for _ in range(FINAL_PLAN_ATTEMPTS):
        turn = episode.agent.turn(Purpose.FINAL_PLAN, list(episode.history), episode.table)
        episode.read_table(turn.content)
        plan = check_is_travel_plan(turn.content) is not None
        if plan:
            break
    episode.history.extend(turn.entries)
    episode.history.append(turn.final())
    episode.counters.events += 1
    episode.reason, episode.plan_generated = "max_turn_reached", plan
