"""CLI `oracle` and `normalize`: exit codes, resume, torn lines, structured bad-input lines,
normalize's figures on hand-made inputs, and the Ray backend against the local one.

Most tests replace `solve_task` in `runner.solving.batch` by a counting fake (the batch is the
point, not the solver); one real run solves the sample task with --time-limit 2.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from runner.cli.app import app
from runner.loading.benchmark_data import sample_path
from runner.solving import batch as oracle_batch
from sandbox.world.build import build_world
from tests.fixtures import oracle_fake

RUN = CliRunner()
REPO = Path(__file__).resolve().parents[3]
SAMPLE: dict[str, Any] = json.loads(sample_path("task.json").read_text(encoding="utf-8"))
MUST = "user_preferences.User2.preference.city_specific_preferences.珠海市.attractions.must_visit[0]"


def _run(*args: object) -> Result:
    result = RUN.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def _flat(text: str) -> str:
    """Text without any white space, so a message compares the same however rich wrapped it
    (at a space or inside a long path)."""
    return "".join(text.split())


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _task(task_id: str, **metadata: Any) -> dict[str, Any]:
    return {**SAMPLE, "task_id": task_id, "metadata": {**SAMPLE["metadata"], **metadata}}


def _write_tasks(path: Path, *lines: dict[str, Any] | str) -> Path:
    text = [line if isinstance(line, str) else json.dumps(line, ensure_ascii=False) for line in lines]
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("oracle") / "world"
    build_world([SAMPLE], seed=1).save(root)
    return root


Calls = list[tuple[str, dict[str, Any] | None]]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Calls:
    """The instant fake solver (tests/fixtures/oracle_fake.py) in place; its calls, from empty."""
    oracle_fake.CALLS.clear()
    monkeypatch.setattr(oracle_batch, "solve_task", oracle_fake.fake_solve)
    return oracle_fake.CALLS


def _oracle(tasks: Path, world: Path, *extra: object) -> Result:
    return _run("oracle", "--tasks", tasks, "--world", world, "--time-limit", 1, "--workers", 1, *extra)


# -- the real solver -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_run(world: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, Path, Path]:
    """The sample task solved for real beside four bad tasks (time limit 2 s, one worker)."""
    root = tmp_path_factory.mktemp("real")
    place = json.loads(json.dumps(SAMPLE))
    place["task_id"] = "no_place"
    place["user_preferences"]["User2"]["preference"]["city_specific_preferences"]["珠海市"]["attractions"][
        "must_visit"
    ] = ["不存在的乐园"]
    tasks = _write_tasks(
        root / "tasks.jsonl",
        SAMPLE,
        "{not json",
        _task("no_city", cities=["火星市"]),
        place,
        {"task_id": "bad_prefs", "user_preferences": []},
    )
    out = root / "out.jsonl"
    args = ("--tasks", tasks, "--world", world, "--time-limit", 2, "--workers", 1, "--out", out)
    return _run("oracle", *args), tasks, out


def test_real_run_solves_the_good_task_and_reports_each_bad_one(real_run: tuple[Result, Path, Path]) -> None:
    result, _, out = real_run
    assert result.exit_code == 1
    record, *errors = _lines(out)
    assert record["task_id"] == "task_004175" and record["version"] == 2
    assert record["status"] in ("OPTIMAL", "FEASIBLE") and record["objective"] <= record["bound"]
    assert record["plan"]["days"] and record["time_limit"] == 2 and record["table"] == "original"
    assert [(e["task_id"], e["where"], e["error"]["field"]) for e in errors] == [
        (None, "line 2", "$"),
        ("no_city", "line 3", "metadata.cities[0]"),
        ("no_place", "line 4", MUST),
        ("bad_prefs", "line 5", "user_preferences"),
    ]
    assert errors[1]["error"]["problem"] == "the world knows no city '火星市'"
    assert errors[2]["error"]["problem"] == "the world knows no place '不存在的乐园' in 珠海市"
    assert errors[3]["error"]["problem"] == "Input should be a valid dictionary"
    assert len({line["settings_hash"] for line in _lines(out)}) == 1
    stderr = result.stderr.splitlines()
    assert "error: task no_city (line 3): metadata.cities[0]: the world knows no city '火星市'" in stderr
    assert (
        stderr[-1].startswith("oracle: 5 tasks: ") and "4 failed, 0 already done; median time" in stderr[-1]
    )
    assert record["both_valid"]["valid_under"] == ["strict", "official"]
    assert stderr[-1].endswith("; plan valid under both profiles: 1 of 1")


def test_certify_checks_each_record_and_names_what_it_cannot(
    real_run: tuple[Result, Path, Path], world: Path
) -> None:
    """The real record is recomputed from its multipliers (certified or not, never a crash);
    each error line of the oracle file gets a problem of its own."""
    _, tasks, out = real_run
    result = _run("certify", "--oracle", out, "--tasks", tasks, "--world", world, "--seconds", 1)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    record, *errors = lines
    assert record["task_id"] == "task_004175" and isinstance(record["recomputed"], int)
    assert record["certified"] == (record["bound"] >= record["recomputed"])
    assert [(e["task_id"], e["certified"], e["problem"]) for e in errors] == [
        (None, False, "line 2 is an error line, not a record"),
        ("no_city", False, "line 3 is an error line, not a record"),
        ("no_place", False, "line 4 is an error line, not a record"),
        ("bad_prefs", False, "line 5 is an error line, not a record"),
    ]
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == f"certified {int(record['certified'])} of 5 records"
    bad = _run("certify", "--oracle", out, "--tasks", tasks, "--world", world, "--seconds", 0)
    assert bad.exit_code == 2 and "--seconds: must be positive, not 0" in bad.stderr


def test_resume_skips_finished_tasks_and_retries_errors(
    real_run: tuple[Result, Path, Path], world: Path, fake: Calls, tmp_path: Path
) -> None:
    _, tasks, first = real_run
    out = tmp_path / "out.jsonl"
    out.write_bytes(first.read_bytes())
    args = ("--tasks", tasks, "--world", world, "--time-limit", 2, "--workers", 1, "--out", out)
    result = _run("oracle", *args)
    assert result.exit_code == 1
    assert [task_id for task_id, _ in fake] == ["no_city", "no_place"]  # the faked solver is not asked again
    lines = _lines(out)
    assert lines[:5] == _lines(first) and len(lines) == 9
    assert "1 already done" in result.stderr


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_ray_backend_gives_the_local_lines(world: Path, fake: Calls, tmp_path: Path) -> None:
    """Same fake solver in the Ray workers (a setup hook) as here: same lines, same order."""
    ray = pytest.importorskip("ray")
    tasks = _write_tasks(tmp_path / "t.jsonl", _task("a"), "{not json", _task("boom"), _task("b"))
    local = _oracle(tasks, world)
    try:
        ray.init(
            num_cpus=2,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
            runtime_env={
                "worker_process_setup_hook": "tests.fixtures.oracle_fake.install",
                "env_vars": {"PYTHONPATH": str(REPO)},
            },
        )
    except Exception as exc:
        pytest.skip(f"ray cannot start here: {exc}")
    try:
        remote = _oracle(tasks, world, "--backend", "ray")
    finally:
        ray.shutdown()
    assert [task_id for task_id, _ in fake] == ["a", "boom", "b"]  # the local run only
    assert (remote.exit_code, remote.stdout) == (local.exit_code, local.stdout) == (1, local.stdout)
    lines = [json.loads(line) for line in remote.stdout.splitlines()]
    assert [(x["task_id"], x.get("extra"), "error" in x) for x in lines] == [
        ("a", {"world_seed": 1}, False),
        (None, None, True),
        ("boom", None, True),
        ("b", {"world_seed": 1}, False),
    ]


# -- exit codes and bad input (fake solver) ---------------------------------------------------


def test_exit_0_when_all_solved_and_lines_go_to_stdout(world: Path, fake: Calls, tmp_path: Path) -> None:
    tasks = _write_tasks(tmp_path / "t.jsonl", _task("a"), _task("b"))
    result = _oracle(tasks, world)
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [(x["task_id"], x["objective"], x["bound"], x["gap"], x["average"]) for x in lines] == [
        ("a", 10, 12, 2 / 12, 5.0),
        ("b", 10, 12, 2 / 12, 5.0),
    ]
    assert (
        result.stderr.splitlines()[-1]
        == "oracle: 2 tasks: 2 FEASIBLE, 0 failed, 0 already done; median time 0.50 s; "
        "plan valid under both profiles: 0 of 2"
    )


def test_exit_2_when_nothing_could_be_solved(world: Path, fake: Calls, tmp_path: Path) -> None:
    tasks = _write_tasks(tmp_path / "t.jsonl", "[1]", _task("refused"), _task("boom"))
    out = tmp_path / "out.jsonl"
    result = _oracle(tasks, world, "--out", out)
    assert result.exit_code == 2
    assert [(x["task_id"], x["error"]) for x in _lines(out)] == [
        (None, {"field": "$", "problem": "a task must be a JSON object, got list"}),
        ("refused", {"field": "metadata.cities[0]", "problem": "the world knows no city '火星市'"}),
        ("boom", {"field": "oracle", "problem": "internal error RuntimeError: model exploded"}),
    ]


def test_one_json_array_and_duplicate_ids(world: Path, fake: Calls, tmp_path: Path) -> None:
    tasks = tmp_path / "t.json"
    tasks.write_text(json.dumps([_task("a"), _task("a")]), encoding="utf-8")
    result = _oracle(tasks, world)
    assert result.exit_code == 1
    second = json.loads(result.stdout.splitlines()[1])
    assert second["where"] == "task 2"
    assert second["error"] == {"field": "task_id", "problem": "duplicate task_id 'a' (first at task 1)"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--time-limit", "0"), "--time-limit: must be positive, not 0"),
        (("--time-limit", "-3"), "--time-limit: must be positive, not -3"),
        (("--workers", "0"), "--workers: must be at least 1, not 0"),
        (("--task-id", "zzz"), "unknown task id 'zzz' (1 tasks in the file)"),
    ],
)
def test_bad_options_exit_2_and_write_nothing(
    world: Path, fake: Calls, tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    tasks = _write_tasks(tmp_path / "t.jsonl", _task("a"))
    out = tmp_path / "out.jsonl"
    result = _run("oracle", "--tasks", tasks, "--world", world, "--out", out, *args)
    assert result.exit_code == 2 and _flat(message) in _flat(result.stderr)
    assert not out.exists() and fake == []


def test_missing_world_exits_2(fake: Calls, tmp_path: Path) -> None:
    tasks = _write_tasks(tmp_path / "t.jsonl", _task("a"))
    result = _oracle(tasks, tmp_path / "nowhere")
    assert result.exit_code == 2 and _flat("world directory not found") in _flat(result.stderr)


# -- resume -----------------------------------------------------------------------------------


def test_torn_last_line_is_cut_and_the_task_solved(world: Path, fake: Calls, tmp_path: Path) -> None:
    tasks = _write_tasks(tmp_path / "t.jsonl", _task("a"), _task("b"))
    out = tmp_path / "out.jsonl"
    assert _oracle(tasks, world, "--out", out, "--task-id", "a").exit_code == 0
    whole = out.read_bytes()
    out.write_bytes(whole + b'{"version":1,"task_id":"b","stat')
    result = _oracle(tasks, world, "--out", out)
    assert result.exit_code == 0
    assert [task_id for task_id, _ in fake] == ["a", "b"]
    assert out.read_bytes().startswith(whole) and [x["task_id"] for x in _lines(out)] == ["a", "b"]
    assert "cut off a torn last line (32 bytes)" in result.stderr
    assert "oracle: 2 tasks: 1 FEASIBLE, 0 failed, 1 already done" in result.stderr
    again = _oracle(tasks, world, "--out", out)
    assert again.exit_code == 0 and len(fake) == 2 and len(_lines(out)) == 2


def test_other_settings_or_a_foreign_file_are_refused(world: Path, fake: Calls, tmp_path: Path) -> None:
    tasks = _write_tasks(tmp_path / "t.jsonl", _task("a"))
    out = tmp_path / "out.jsonl"
    assert _oracle(tasks, world, "--out", out).exit_code == 0
    before = out.read_bytes()
    for extra in (("--seed", 7), ("--no-splits",), ("--objective", "maxmin")):
        result = _oracle(tasks, world, "--out", out, *extra)
        assert result.exit_code == 2 and _flat("made with other settings") in _flat(result.stderr)
    assert out.read_bytes() == before and len(fake) == 1
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text('{"id": 1}\n', encoding="utf-8")
    result = _oracle(tasks, world, "--out", foreign)
    assert result.exit_code == 2 and _flat("not a tripwright oracle output line") in _flat(result.stderr)


def test_table_file_by_task_id(world: Path, fake: Calls, tmp_path: Path) -> None:
    tasks = _write_tasks(tmp_path / "t.jsonl", _task("a"), _task("b"))
    table = tmp_path / "tables.json"
    table.write_text(json.dumps({"a": {"User1": {"preference": {}}}}), encoding="utf-8")
    result = _oracle(tasks, world, "--table", table)
    assert result.exit_code == 1 and fake == [("a", {"User1": {"preference": {}}})]
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["table"] == str(table)
    assert second["error"] == {
        "field": "table",
        "problem": f"{table} has no table (a JSON object keyed by user) for this task",
    }
    single = _oracle(tasks, world, "--table", tmp_path / "t2.json")
    assert single.exit_code == 2 and _flat("file not found") in _flat(single.stderr)


# -- normalize --------------------------------------------------------------------------------


def _oracle_line(task_id: str, objective: int | None, bound: int | None, users: int = 2) -> dict[str, Any]:
    status = "UNKNOWN" if objective is None else "OPTIMAL" if objective == bound else "FEASIBLE"
    per_user = {f"User{k}": 0 for k in range(1, users + 1)}
    return {
        "task_id": task_id,
        "status": status,
        "objective": objective,
        "bound": bound,
        "per_user": per_user,
    }


def _verdict_line(case_id: str, total: float | None, valid: bool = True) -> dict[str, Any]:
    gu = None if total is None else {"total_score": total, "per_user_average_score": total / 2}
    return {"id": case_id, "profile": "strict", "valid": valid, "gu": gu}


def _jsonl(path: Path, lines: list[dict[str, Any]], tail: str = "") -> Path:
    path.write_text("".join(json.dumps(x) + "\n" for x in lines) + tail, encoding="utf-8")
    return path


@pytest.fixture
def normalized(tmp_path: Path) -> Callable[..., Result]:
    oracle = _jsonl(
        tmp_path / "oracle.jsonl",
        [
            _oracle_line("t1", 16, 20),
            _oracle_line("t2", 10, 10),
            _oracle_line("t3", 0, 8),
            _oracle_line("t3", 5, 8, users=4),  # the last line of a task wins
            _oracle_line("t4", None, 12),
            _oracle_line("t5", None, None),
            {"task_id": "t6", "error": {"field": "time", "problem": "not a date"}},
            _oracle_line("t7", 3, 3),
        ],
        tail='{"task_id": "t8", "sta',
    )

    def run(verdicts: Path, *extra: str) -> Result:
        return _run("normalize", "--verdicts", verdicts, "--oracle", oracle, *extra)

    return run


def test_normalize_verify_batch_lines_exact_figures(
    normalized: Callable[..., Result], tmp_path: Path
) -> None:
    verdicts = _jsonl(
        tmp_path / "verdicts.jsonl",
        [
            _verdict_line("t1", 12),
            _verdict_line("t2", 10),
            {**_verdict_line("plan-b", 2, valid=False), "task_id": "t3"},
            _verdict_line("t4", 6),
            _verdict_line("t5", 1),
            _verdict_line("t6", 1),
            _verdict_line("t9", 4),
            _verdict_line("t1", None),
            {"id": "t2", "line": 9, "error": "missing field 'plan'"},
        ],
    )
    result = normalized(verdicts, "--json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    figures = [
        (
            r["id"],
            r["task_id"],
            r["gu"],
            r["gu_star"],
            r["ratio"],
            r["regret"],
            r["regret_vs_plan"],
            r["regret_per_user"],
        )
        for r in document["rows"]
    ]
    assert figures == [
        ("t1", "t1", 12.0, 20.0, 0.6, 8.0, 4.0, 4.0),
        ("t2", "t2", 10.0, 10.0, 1.0, 0.0, 0.0, 0.0),
        ("plan-b", "t3", 2.0, 8.0, 0.25, 6.0, 3.0, 1.5),
        ("t4", "t4", 6.0, 12.0, 0.5, 6.0, None, 3.0),
    ]
    assert document["distributions"] == {
        "ratio": {
            "count": 4,
            "min": 0.25,
            "p10": 0.325,
            "median": 0.55,
            "p90": 0.88,
            "max": 1.0,
            "mean": 0.5875,
        },
        "regret": {"count": 4, "min": 0.0, "p10": 1.8, "median": 6.0, "p90": 7.4, "max": 8.0, "mean": 5.0},
        "regret_vs_plan": {
            "count": 3,
            "min": 0.0,
            "p10": 0.6,
            "median": 3.0,
            "p90": 3.8,
            "max": 4.0,
            "mean": 2.3333,
        },
    }
    assert document["missing"] == {
        "oracle": ["t9"],
        "scored": ["t7"],
        "no_bound": [
            {"task_id": "t5", "reason": "no proven bound (status UNKNOWN)"},
            {"task_id": "t6", "reason": "oracle error: time: not a date"},
        ],
        "no_gu": [
            {"id": "t1", "task_id": "t1", "reason": "no group utility (scoring crashed)"},
            {"id": "t2", "task_id": "t2", "reason": "verify-batch error: missing field 'plan'"},
        ],
    }
    text = normalized(verdicts)
    assert text.exit_code == 0
    assert "oracle tasks without a scored plan (1): t7" in text.stdout
    assert "no bound for t6: oracle error: time: not a date" in text.stdout


def test_normalize_rescore_document(normalized: Callable[..., Result], tmp_path: Path) -> None:
    def row(task_id: str, official: float, strict: float | None) -> dict[str, Any]:
        scores = (
            {} if strict is None else {"group_utility_total_score": strict, "plan_validity_valid_ratio": 1.0}
        )
        return {"task_id": task_id, "official": {"group_utility_total_score": official}, "strict": scores}

    document = {
        "tasks": [row("t1", 18, 15), row("t2", 11, None)],
        "profiles": {"official": {}, "strict": {}},
    }
    path = tmp_path / "rescore.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    strict = json.loads(normalized(path, "--json").stdout)
    assert strict["source"] == "rescore" and strict["profile"] == "strict"
    assert [(r["task_id"], r["ratio"], r["regret"], r["valid"]) for r in strict["rows"]] == [
        ("t1", 0.75, 5.0, 1.0)
    ]
    assert strict["missing"]["no_gu"] == [
        {"id": "t2", "task_id": "t2", "reason": "no trial with a group utility"}
    ]
    official = json.loads(normalized(path, "--json", "--profile", "official").stdout)
    assert [(r["task_id"], r["ratio"], r["regret"]) for r in official["rows"]] == [
        ("t1", 0.9, 2.0),
        ("t2", 1.1, -1.0),
    ]
    bad = normalized(path, "--profile", "lenient")
    assert bad.exit_code == 2 and _flat("has no 'lenient' profile") in _flat(bad.stderr)


def test_normalize_bad_inputs_exit_2(normalized: Callable[..., Result], tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    assert _flat("no scored plan in the file") in _flat(normalized(empty).stderr)
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("[1]\n", encoding="utf-8")
    result = normalized(garbage)
    assert result.exit_code == 2 and _flat("line 1: not a verify-batch output line") in _flat(result.stderr)
    assert _run("normalize", "--verdicts", garbage, "--oracle", tmp_path / "none").exit_code == 2


def test_normalize_compares_each_profile_with_its_witness(tmp_path: Path) -> None:
    """Official rows against the both-valid plan, strict rows against the strict-best; a record
    without a both-valid plan, and a version-1 record, say so."""
    both = {"plan": {"days": []}, "objective": 14, "gu": 14, "valid_under": ["strict", "official"]}
    oracle = _jsonl(
        tmp_path / "oracle.jsonl",
        [
            {**_oracle_line("t1", 16, 20), "version": 2, "both_valid": both},
            {
                **_oracle_line("t2", 10, 12),
                "version": 2,
                "both_valid": None,
                "both_valid_missing": "no plan found that both profiles accept",
            },
            {**_oracle_line("t3", 9, 9), "version": 1},
        ],
    )
    lines = [
        {**_verdict_line(task_id, 8), "id": f"{task_id}-{profile}", "task_id": task_id, "profile": profile}
        for task_id in ("t1", "t2", "t3")
        for profile in ("strict", "official")
    ]
    result = _run(
        "normalize", "--verdicts", _jsonl(tmp_path / "v.jsonl", lines), "--oracle", oracle, "--json"
    )
    assert result.exit_code == 0
    rows = json.loads(result.stdout)["rows"]
    assert [
        (r["id"], r["oracle_gu"], r["regret_vs_plan"], r["witness"], r["witness_note"]) for r in rows
    ] == [
        ("t1-strict", 16.0, 8.0, "strict-best", None),
        ("t1-official", 14.0, 6.0, "both-valid", None),
        ("t2-strict", 10.0, 2.0, "strict-best", None),
        ("t2-official", None, None, None, "no plan found that both profiles accept"),
        ("t3-strict", 9.0, 1.0, "strict-best", None),
        (
            "t3-official",
            9.0,
            1.0,
            "strict-best",
            "version 1 record: no both-valid plan, its official validity unknown",
        ),
    ]
    assert [r["regret"] for r in rows] == [12.0, 12.0, 4.0, 4.0, 1.0, 1.0]
    text = _run("normalize", "--verdicts", _jsonl(tmp_path / "v.jsonl", lines), "--oracle", oracle)
    assert "witness: no plan found that both profiles accept" in text.stdout
