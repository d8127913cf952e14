"""Exact values of every aggregation figure of the report, on the fixture runs."""

from __future__ import annotations

from runner.loading.benchmark_data import parse_task
from runner.report.figures import check_label, failed_checks, oracle_figures
from runner.report.inputs import Inputs
from runner.report.judge_figures import judge_by_group, task_scores
from runner.report.official import other_dimensions, overview_tables
from runner.report.tool_stats import completion_reasons, run_extras, tool_stats
from tests.fixtures.report_fixtures import EASY, MEDIUM, judged, runs, scored, tasks

INPUTS = Inputs(runs=runs(), scored=scored(), judged=judged())


def test_oracle_figures_per_difficulty() -> None:
    figures = oracle_figures(INPUTS)
    assert list(figures) == ["overall", "easy", "medium"]
    overall = figures["overall"]
    assert (overall["trials"], overall["plans"]) == (4, 2)
    assert (overall["acceptable_rate"], overall["official_valid_rate"], overall["optimality_rate"]) == (
        0.25,
        0.25,
        0.25,
    )
    assert overall["gu_ratio"] == {
        "count": 2,
        "min": 0.6,
        "p10": 0.64,
        "median": 0.8,
        "p90": 0.96,
        "max": 1.0,
        "mean": 0.8,
    }
    assert (overall["regret"]["mean"], overall["regret"]["count"]) == (10.0, 2)
    assert (overall["elicitation_loss"]["mean"], overall["elicitation_loss"]["median"]) == (3.6667, 4.0)
    assert (overall["planning_loss"]["mean"], overall["compromise_effect"]["mean"]) == (8.0, 1.3333)
    easy, medium = figures["easy"], figures["medium"]
    assert (easy["acceptable_rate"], easy["elicitation_loss"]["mean"]) == (0.5, 4.0)
    assert (medium["plans"], medium["acceptable_rate"], medium["optimality_rate"]) == (0, 0.0, 0.0)
    assert medium["gu_ratio"]["mean"] is None
    assert medium["gu_ratio"]["count"] == 0
    assert medium["compromise_effect"]["mean"] == 0.0


def test_groups_fall_back_to_the_task_file_difficulty() -> None:
    rows = [{"task_id": EASY, "gu": 1.0}, {"task_id": "task_x", "gu": 2.0}]
    known = {EASY: parse_task(tasks()[0], None)}
    assert list(oracle_figures(Inputs(runs=runs(), scored=rows, tasks=known))) == [
        "overall",
        "easy",
        "unknown",
    ]
    assert oracle_figures(Inputs(runs=runs())) == {}


def test_failed_checks_most_first_ties_in_check_order() -> None:
    rows = [{"strict_failed_checks": ["8", "input", "4"]}, {"strict_failed_checks": ["8", "10"]}, {}]
    assert failed_checks(rows) == {"8": 2, "4": 1, "input": 1, "10": 1}
    assert failed_checks(scored()) == {"4": 1, "5": 1, "8": 1}
    assert check_label("5") == "5 营业时间"
    assert check_label("10") == "10"


def test_tool_stats_over_all_samples() -> None:
    assert tool_stats(runs()) == {
        "sample_count": 4,
        "plan_generated_count": 2,
        "plan_generated_rate": 0.5,
        "total_duration": 40.0,
        "avg_duration": 10.0,
        "total_tool_calls": 7,
        "avg_tool_calls": 1.75,
        "cache_hits": 3,
        "cache_misses": 4,
        "cache_hit_rate": 0.43,
        "total_tool_errors": 2,
        "tool_error_rate": 0.2857,
        "completion_reasons": {
            "consecutive_repeated_tool_calls": {"count": 1, "ratio": 0.25},
            "max_turn_reached": {"count": 1, "ratio": 0.25},
            "plan_generated": {"count": 1, "ratio": 0.25},
            "rate_limit": {"count": 1, "ratio": 0.25},
        },
    }


def test_tool_stats_of_no_lookup_and_no_call() -> None:
    stats = tool_stats([{"completion_reason": "plan_generated"}])
    assert (stats["cache_hit_rate"], stats["tool_error_rate"], stats["avg_tool_calls"]) == (0.0, 0.0, 0.0)


def test_completion_reasons_most_frequent_first() -> None:
    records = [{"completion_reason": "b"}, {"completion_reason": "a"}, {"completion_reason": "b"}, {}]
    assert completion_reasons(records) == {
        "b": {"count": 2, "ratio": 0.5},
        "a": {"count": 1, "ratio": 0.25},
        "missing": {"count": 1, "ratio": 0.25},
    }


def test_run_extras() -> None:
    assert run_extras(runs()) == {
        "records": 2,
        "tokens": {"agent": {"prompt": 3000, "completion": 600}, "users": {"prompt": 900, "completion": 120}},
        "mean_timings": {"total_s": 16.25, "agent_s": 12.5, "users_s": 3.0, "tools_s": 0.75},
        "text_tool_calls": 1,
    }


def test_judge_per_task_then_per_difficulty() -> None:
    assert task_scores(judged(), EASY)["average_score"] == 50.0
    assert task_scores(judged(), MEDIUM)["interaction_quality"] == 0.0
    assert task_scores(judged(), "task_unjudged")["average_score"] == 0.0
    difficulty = {EASY: "easy", MEDIUM: "medium"}
    groups = judge_by_group(judged(), [EASY, MEDIUM, "task_x"], lambda t: difficulty.get(t, "hard"))
    assert list(groups) == ["overall", "easy", "medium", "hard"]
    assert groups["overall"]["average_score"] == 16.67
    assert groups["easy"]["plan_humanization"] == 50.0
    assert groups["hard"]["average_score"] == 0.0


SUMMARY = {
    "preference_completeness": {"average_ratio": 0.57},
    "group_utility": {"average_score": 12.5},
    "group_fairness": {"average_fairness_score": 80.0},
    "plan_validity": {"count": 3, "valid_ratio": 0.33},
}
HARD = {
    "preference_completeness": {"average_ratio": 0.0},
    "group_utility": {"average_score": -4.0},
    "group_fairness": {"average_fairness_score": 0.0},
    "plan_validity": {"count": 1, "valid_ratio": 0.0},
}


def test_other_dimensions_average() -> None:
    assert other_dimensions(SUMMARY, None) == 42.5
    assert other_dimensions(SUMMARY, 30.0) == 50.0


def test_overview_tables_follow_the_official_layout() -> None:
    profile = {"overall_summary": SUMMARY, "difficulty_summaries": {"hard": {"count": 1, "summary": HARD}}}
    overview, dimensions = overview_tables(profile, {"overall": 30.0, "hard": 10.0})
    assert overview.columns == ("", "Overall (3)", "Hard (1)")
    assert overview.rows == (
        ("Group Utility (per-user avg)", "12.50", "-4.00"),
        ("Other Dimensions Avg", "50.00", "2.50"),
    )
    assert dimensions.rows == (
        ("Preference Completeness (%)", "57.00", "0.00"),
        ("Group Utility", "12.50", "-4.00"),
        ("Group Fairness", "80.00", "0.00"),
        ("Plan Validity (%)", "33.00", "0.00"),
        ("LLM-Judge Average", "30.00", "10.00"),
    )
    _, without = overview_tables(profile, None)
    assert without.rows[-1] == ("LLM-Judge Average", "-", "-")
