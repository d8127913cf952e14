"""Run-level figures from the runs file: the official tool statistics and completion reasons
(docs/runner.md#report, Runs), and our extras (tokens, timings, text tool calls).

Official figures are over all samples (trials), failures included: plan-generated rate, mean
duration and mean tool calls (rounded 2), cache hit rate = hits / (hits + misses) (rounded 2;
0.0 without lookups), tool error rate = errors / executed calls (rounded 4; 0.0 without calls),
completion reasons with count and share of samples (rounded 4; `missing` when a record has none).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from runner.report.inputs import Record

TIMINGS = ("total_s", "agent_s", "users_s", "tools_s")
PARTIES = ("agent", "users")
MISSING = "missing"


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _float(value: Any) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else 0.0


def _tool(record: Record, key: str) -> int:
    stats = record.get("agent_tool_stats")
    return _int(stats.get(key)) if isinstance(stats, dict) else 0


def tool_stats(runs: Sequence[Record]) -> dict[str, Any]:
    """The official `tool_stats` of a runs file."""
    count = len(runs)
    plans = sum(bool(record.get("plan_generated")) for record in runs)
    duration = sum(_float(record.get("duration")) for record in runs)
    calls = sum(_tool(record, "tool_calls_executed") for record in runs)
    hits = sum(_tool(record, "cache_hits") for record in runs)
    misses = sum(_tool(record, "cache_misses") for record in runs)
    errors = sum(_tool(record, "tool_errors") for record in runs)
    return {
        "sample_count": count,
        "plan_generated_count": plans,
        "plan_generated_rate": round(plans / count, 2) if count else 0.0,
        "total_duration": round(duration, 2),
        "avg_duration": round(duration / count, 2) if count else 0.0,
        "total_tool_calls": calls,
        "avg_tool_calls": round(calls / count, 2) if count else 0.0,
        "cache_hits": hits,
        "cache_misses": misses,
        "cache_hit_rate": round(hits / (hits + misses), 2) if hits + misses else 0.0,
        "total_tool_errors": errors,
        "tool_error_rate": round(errors / calls, 4) if calls else 0.0,
        "completion_reasons": completion_reasons(runs),
    }


def completion_reasons(runs: Sequence[Record]) -> dict[str, dict[str, Any]]:
    """`{reason: {count, ratio}}`, most frequent first (ties by name)."""
    counts = Counter(str(record.get("completion_reason") or MISSING) for record in runs)
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return {reason: {"count": n, "ratio": round(n / len(runs), 4)} for reason, n in ordered}


def run_extras(runs: Sequence[Record]) -> dict[str, Any]:
    """Our extras over the records that carry them: token totals by party, mean timings (rounded
    2) and text tool calls; `records` counts the records with `timings`."""
    timed = [record["timings"] for record in runs if isinstance(record.get("timings"), dict)]
    tokens = {
        party: {
            kind: sum(_int(_party(record, party).get(kind)) for record in runs)
            for kind in ("prompt", "completion")
        }
        for party in PARTIES
    }
    return {
        "records": len(timed),
        "tokens": tokens,
        "mean_timings": {
            key: round(sum(_float(t.get(key)) for t in timed) / len(timed), 2) if timed else None
            for key in TIMINGS
        },
        "text_tool_calls": sum(_int(record.get("text_tool_calls")) for record in runs),
    }


def _party(record: Record, party: str) -> dict[str, Any]:
    tokens = record.get("tokens")
    found = tokens.get(party) if isinstance(tokens, dict) else None
    return found if isinstance(found, dict) else {}
