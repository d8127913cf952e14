"""`verify`: one plan, one profile → one `Verdict`; and the batch line written for a verdict.

Both profiles score with the same official group utility (GU), group fairness (GF) and
preference completeness (PC) functions (docs/official.md#scoring); only validity differs:

- `official`: the plan is walked once (`build_view`) and the nine official checks report
  issues, each becoming a violation whose `code` is the official issue type verbatim.
- `strict`: the strict rules (`strict_violations`) judge the plan against a world, plus the
  strict checks of the agent's preference table when one is given.

Where the public evaluator would crash (docs/official.md#where-the-official-code-crashes), the crashing
function yields ONE violation `input.official_crash` (check `"input"`) naming the function, and its score is
None; the other functions still run. `Verdict.valid` is true only when there is no violation
at all — a crash in scoring therefore makes the verdict invalid even if the plan passed every
check (the batch line keeps the two apart, see `verdict_to_batch_line`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

from pydantic import BaseModel, JsonValue

from verifier.crash_site import crash_loc
from verifier.errors import StructuredError
from verifier.model.task import Task
from verifier.model.verdict import (
    CHECK_IDS,
    CheckId,
    GroupFairness,
    GroupUtility,
    PreferenceCompleteness,
    Profile,
    SplitPenalty,
    UserUtility,
    Verdict,
    Violation,
    check_table,
)
from verifier.official.completeness import evaluate_preference_completeness
from verifier.official.extraction import is_valid_travel_plan
from verifier.official.fairness import evaluate_group_fairness
from verifier.official.plan_view import PlanView, build_view
from verifier.official.poi_db import PoiDb
from verifier.official.utility import evaluate_group_utility
from verifier.official.validity import OfficialIssue, plan_validity_issues
from verifier.world_facts import WorldFacts

OFFICIAL_CRASH = "input.official_crash"
SCORING_FUNCTIONS = frozenset({"group_utility", "group_fairness", "preference_completeness"})
CRASHES = (TypeError, AttributeError, ValueError, KeyError)

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


class WorldRequiredError(StructuredError, ValueError):
    """The strict profile was asked for without a world (the message names the field)."""

    def __init__(self, problem: str) -> None:
        super().__init__("", problem, hint="pass a world, or score with the official profile")


def verify(
    task: Task,
    plan: object,
    *,
    profile: Profile,
    poi_db: PoiDb,
    world: WorldFacts | None = None,
    effective: dict[str, Any] | None = None,
    inferred: object | None = None,
) -> Verdict:
    """Judge and score one raw plan (any JSON value) for a task under a profile.

    `effective` is the preference table ③ to score against (default: the task's own
    `user_preferences`); `inferred` is the agent's table ② (PC is computed only when given).
    The strict profile needs `world`; a missing world raises `WorldRequiredError`.
    """
    table: Any = task.preference_table() if effective is None else effective
    view = build_view(plan, task.user_names)
    if profile == "official":
        violations = _official_violations(view, table, poi_db)
    else:
        if world is None:
            raise WorldRequiredError("the strict profile needs a world (WorldFacts)")
        from verifier.strict.profile import strict_table_violations, strict_violations  # official: not loaded

        violations = list(strict_violations(task, plan, world))
        if inferred is not None:
            violations.extend(strict_table_violations(inferred))
    gu, gf, pc, crashes = _scores(view, table, inferred, poi_db)
    violations.extend(crashes)
    return _trusted(
        Verdict,
        {
            "profile": profile,
            "valid": not violations,
            "plan_extractable": is_valid_travel_plan(plan),
            "violations": violations,
            "checks": check_table(violations),
            "gu": gu,
            "gf": gf,
            "pc": pc,
        },
    )


def _official_violations(view: PlanView, effective: Any, poi_db: PoiDb) -> list[Violation]:
    """The official validity issues as violations, or the one crash violation."""
    issues, crash = _guarded("plan_validity", view, effective, lambda: plan_validity_issues(view, poi_db))
    if crash is not None:
        return [crash]
    assert issues is not None
    return [issue_violation(issue) for issue in issues]


def issue_violation(issue: OfficialIssue) -> Violation:
    """An official issue as a violation: code = issue type, ctx = every other key of the issue.

    Built without re-validation (this is the hot path): the fields are typed by construction
    and every ctx value is checked to be JSON (anything else becomes its repr).
    """
    body = issue.issue
    assert issue.check in CHECK_IDS, f"official issue from unknown check {issue.check}"
    ctx = {key: _json(value) for key, value in body.items() if key not in ("type", "message")}
    return _trusted(
        Violation,
        {
            "code": str(body["type"]),
            "check": cast(CheckId, issue.check),
            "loc": issue.loc,
            "message": str(body["message"]),
            "ctx": ctx,
        },
    )


def _scores(
    view: PlanView, effective: Any, inferred: object | None, poi_db: PoiDb
) -> tuple[GroupUtility | None, GroupFairness | None, PreferenceCompleteness | None, list[Violation]]:
    """GU, GF and (with an agent table) PC, each guarded; crash violations in call order."""
    crashes: list[Violation] = []
    raw_gu, crash = _guarded(
        "group_utility", view, effective, lambda: evaluate_group_utility(view, effective, poi_db)
    )
    crashes += [crash] if crash else []
    raw_gf, crash = _guarded(
        "group_fairness", view, effective, lambda: evaluate_group_fairness(view, effective, poi_db)
    )
    crashes += [crash] if crash else []
    raw_pc: dict[str, Any] | None = None
    if inferred is not None:
        raw_pc, crash = _guarded(
            "preference_completeness",
            view,
            effective,
            lambda: evaluate_preference_completeness(inferred, effective),
        )
        crashes += [crash] if crash else []
    gu = None if raw_gu is None else _group_utility(raw_gu)
    gf = None if raw_gf is None else _trusted(GroupFairness, raw_gf)
    pc = None if raw_pc is None else _trusted(PreferenceCompleteness, raw_pc)
    return gu, gf, pc, crashes


def _group_utility(raw: dict[str, Any]) -> GroupUtility:
    """The official GU dict as a model, built without re-validating what our own code returned."""
    fields = dict(raw)
    fields["per_user"] = {user: _trusted(UserUtility, item) for user, item in raw["per_user"].items()}
    fields["split_penalty"] = _trusted(SplitPenalty, raw["split_penalty"])
    return _trusted(GroupUtility, fields)


def score_completeness(
    inferred: object, effective: Any
) -> tuple[PreferenceCompleteness | None, Violation | None]:
    """PC alone (a trial without a plan is still scored for PC), guarded like in `verify`."""
    raw, crash = _guarded(
        "preference_completeness",
        build_view({"days": []}, []),
        effective,
        lambda: evaluate_preference_completeness(inferred, effective),
    )
    return (None if raw is None else _trusted(PreferenceCompleteness, raw)), crash


def _trusted(model: type[M], fields: dict[str, Any]) -> M:
    """`model.model_construct(**fields)` for a dict holding exactly the model's fields.

    Our own official results and issues are typed by construction, so verdict parts are built
    without validation. `model_construct` spends most of its time matching aliases and filling
    defaults, which such a dict never needs; this sets the same instance state directly (a
    copy of the fields, the fields-set, no extra, no private attributes). A missing or extra
    key is a bug in our code and fails the assertion.
    """
    assert fields.keys() == model.__pydantic_fields__.keys(), f"{model.__name__} fields: {sorted(fields)}"
    instance = model.__new__(model)
    object.__setattr__(instance, "__dict__", dict(fields))
    object.__setattr__(instance, "__pydantic_fields_set__", set(fields))
    object.__setattr__(instance, "__pydantic_extra__", None)
    object.__setattr__(instance, "__pydantic_private__", None)
    return instance


def _guarded(
    function: str, view: PlanView, effective: Any, call: Callable[[], T]
) -> tuple[T | None, Violation | None]:
    """Run one official function; a crash becomes the `input.official_crash` violation."""
    try:
        return call(), None
    except CRASHES as exc:
        return None, crash_violation(function, exc, crash_loc(function, view, effective))


def crash_violation(function: str, exc: BaseException, loc: str) -> Violation:
    """The one violation reported when the official `function` raises on an input."""
    error = str(exc)
    return Violation(
        code=OFFICIAL_CRASH,
        check="input",
        loc=loc,
        message=(
            f"the official {function} function crashes on this input "
            f"({type(exc).__name__}: {error}); its result is unavailable"
        ),
        ctx={"function": function, "error_type": type(exc).__name__, "error_message": error},
    )


def _json(value: Any) -> JsonValue:
    """A ctx value as JSON: JSON values pass through, anything else becomes its repr."""
    return value if _is_json(value) else repr(value)


def _is_json(value: Any) -> bool:
    if value is None or isinstance(value, str | bool | int):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_is_json(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and _is_json(item) for key, item in value.items())
    return False


def verdict_to_batch_line(case_id: Any, verdict: Verdict) -> dict[str, Any]:
    """The `verify-batch` output line for a verdict.

    `valid` / `total_issues` / `issue_counts` describe plan validity only (as the official
    `plan_validity` reports it): they are null when the validity function itself crashed, and
    a crash in scoring does not change them. Violations whose code starts with `input.` are
    not official issue types: they are listed under `input_errors` and not counted.

    Built as plain dicts (`part_json`, `gu_json`) for orjson: this runs once per batch line,
    where pydantic's serializer cost a third of the batch.
    """
    validity_crashed = False
    judged = 0
    counts: dict[str, int] = {}
    input_errors: list[dict[str, Any]] = []
    for violation in verdict.violations:
        code = violation.code
        if code.startswith("input."):
            input_errors.append(part_json(violation))
            function = violation.ctx.get("function") if code == OFFICIAL_CRASH else None
            validity_crashed = validity_crashed or function == "plan_validity"
            judged += function not in SCORING_FUNCTIONS
        else:
            counts[code] = counts.get(code, 0) + 1
            judged += 1
    issues = sum(counts.values())
    return {
        "id": case_id,
        "profile": verdict.profile,
        "plan_extractable": verdict.plan_extractable,
        "valid": None if validity_crashed else judged == 0,
        "total_issues": None if validity_crashed else issues,
        "issue_counts": None if validity_crashed else counts,
        "input_errors": input_errors,
        "gu": _gu_line(verdict.gu),
        "gf": None if verdict.gf is None else part_json(verdict.gf),
        "pc": None if verdict.pc is None else part_json(verdict.pc),
    }


def part_json(part: BaseModel) -> dict[str, Any]:
    """A verdict part as `part.model_dump(mode="json")` gives it: its fields in model order.

    Nested models are left as they are (`gu_json` handles GU's). The values are the stored
    ones, not copies: verdict parts hold JSON values only (built from our own official results,
    or validated), which orjson writes as pydantic's JSON mode does.
    """
    values = part.__dict__
    return {name: values[name] for name in type(part).__pydantic_fields__}


def gu_json(gu: GroupUtility) -> dict[str, Any]:
    """`gu.model_dump(mode="json")` without pydantic's serializer (see `part_json`)."""
    line = part_json(gu)
    line["per_user"] = {user: part_json(utility) for user, utility in gu.per_user.items()}
    line["split_penalty"] = part_json(gu.split_penalty)
    return line


def _gu_line(gu: GroupUtility | None) -> dict[str, Any] | None:
    if gu is None:
        return None
    return {
        "total_score": gu.total_score,
        "per_user_average_score": gu.per_user_average_score,
        "total_score_before_penalty": gu.total_score_before_penalty,
        "num_users": gu.num_users,
        "split_penalty": part_json(gu.split_penalty),
        "per_user": {user: utility.total_score for user, utility in gu.per_user.items()},
    }
