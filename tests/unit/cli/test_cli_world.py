"""CLI `tripwright world …` and `verify --world`: summaries equal the library's facts, builds are
byte-deterministic, export → import round-trips, strict verification runs against a built world,
and bad input exits 2 naming the problem without a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from runner.cli.app import app
from runner.loading.benchmark_data import sample_path
from runner.sample.plans import sample_task
from sandbox.world import World, calibration, official_io
from solver.greedy import greedy_plan
from tests.fixtures.zhuhai import POI_PATH, plan_path

RUN = CliRunner()
TASK = sample_path("task.json")
SEED = "5"


def _run(*args: object) -> tuple[int, str]:
    result = RUN.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.output


def _json(*args: object) -> Any:
    code, output = _run(*args, "--json")
    assert code == 0, output
    return json.loads(output)


def _has(output: str, expected: str) -> bool:
    """Whether `expected` is in the output, ignoring whitespace (rich wraps long lines)."""
    return "".join(expected.split()) in "".join(output.split())


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    out = tmp_path_factory.mktemp("world") / "w"
    return out, _json("world", "build", "--tasks", TASK, "--out", out, "--seed", SEED, "--calibration")


def test_build_summary_is_the_saved_world(built: tuple[Path, dict[str, Any]]) -> None:
    out, summary = built
    world = World.load(out)
    per_city = {
        c: {k: len(world.pois(c, k)) for k in ("attraction", "restaurant", "hotel")}
        for c in ("合肥市", "珠海市")
    }
    assert summary["path"] == str(out) and summary["seed"] == 5
    assert summary["source_hash"] == world.source_hash
    assert summary["cities"] == len(world.cities) and summary["cities_with_pois"] == 2
    assert summary["per_city"] == per_city
    assert summary["pois"] == {k: sum(c[k] for c in per_city.values()) for k in per_city["珠海市"]}
    task = json.loads(TASK.read_text())
    cost = calibration.task_cost(world, task)
    assert summary["calibration"] == {
        "tasks": [
            {
                "task_id": "task_004175",
                "cheapest_fen": cost.cheapest_fen,
                "lavish_fen": cost.lavish_fen,
                "budgets_fen": [320000, 320000],
            }
        ],
        "table": calibration.report(world, [task]),
    }


def test_build_is_byte_deterministic(built: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    out, _ = built
    code, output = _run("world", "build", "--tasks", TASK, "--out", tmp_path / "again", "--seed", SEED)
    assert code == 0 and "world written to" in output and "珠海市" in output
    assert _files(tmp_path / "again") == _files(out)
    assert _run("world", "build", "--tasks", TASK, "--out", tmp_path / "other", "--seed", "6")[0] == 0
    assert _files(tmp_path / "other")["manifest.json"] != _files(out)["manifest.json"]


def test_build_accepts_jsonl_and_prints_calibration(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text(TASK.read_text().strip() + "\n\n")
    code, output = _run("world", "build", "--tasks", tasks, "--out", tmp_path / "w", "--calibration")
    assert code == 0 and "| cheapest trip ≤ budget | 2 / 2 (100.0%) |" in output


def test_info_reports_manifest_and_one_city(built: tuple[Path, dict[str, Any]]) -> None:
    out, summary = built
    info = _json("world", "info", out)
    assert info["format"] == "tripwright-world" and info["schema_version"] == 2
    assert {k: info[k] for k in summary if k in info and k != "path"} == {
        k: summary[k] for k in info if k in summary and k != "path"
    }
    city = _json("world", "info", out, "--city", "珠海")["city"]
    world = World.load(out)
    hotels = [p.price_fen for p in world.pois("珠海市", "hotel")]
    assert city["name"] == "珠海市" and city["pois"] == summary["per_city"]["珠海市"]
    assert sum(row["pois"] for row in city["categories"]) == len(world.pois("珠海市"))
    assert {
        "kind": "attraction",
        "category": "海洋馆",
        "pois": len(world.pois("珠海市", category="海洋馆")),
    } in (city["categories"])
    assert city["price_fen"]["hotel"] == {"min": min(hotels), "max": max(hotels)}
    code, output = _run("world", "info", out, "--city", "珠海市")
    assert code == 0 and output.startswith("珠海市: ") and "海洋馆" in output


def test_export_import_round_trip(built: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    out, _ = built
    poi = tmp_path / "poi.json"
    exported = _json("world", "export-poi-db", out, "--out", poi, "--city", "珠海")
    expected = official_io.export_poi_db(World.load(out), ["珠海市"])
    assert json.loads(poi.read_text()) == expected
    assert exported == {
        "path": str(poi),
        "cities": {"珠海市": len(expected["珠海市"])},
        "pois": len(expected["珠海市"]),
    }
    report = _json("world", "import", "--poi-db", poi, "--out", tmp_path / "bare", "--no-fill")
    assert report["imported_pois"] == len(expected["珠海市"]) and report["skipped"] == report["notes"] == []
    assert report["per_city"] == {"珠海市": _json("world", "info", out)["per_city"]["珠海市"]}
    assert _run("world", "export-poi-db", tmp_path / "bare", "--out", tmp_path / "again.json")[0] == 0
    assert (tmp_path / "again.json").read_bytes() == poi.read_bytes()
    filled = _json("world", "import", "--poi-db", poi, "--out", tmp_path / "filled", "--tasks", TASK)
    assert filled["cities_with_pois"] == 2
    kept = official_io.export_poi_db(World.load(tmp_path / "filled"), ["珠海市"])["珠海市"]
    assert kept[: len(expected["珠海市"])] == expected["珠海市"]


def test_import_takes_facts_from_caches_and_reports_notes(tmp_path: Path) -> None:
    poi = tmp_path / "poi.json"
    entry = {
        "name": "测试海洋馆",
        "custom_category": "海洋馆",
        "poi_type": "attractions",
        "opening_hours": None,
    }
    poi.write_text(json.dumps({"珠海": [entry], "火星": [entry]}, ensure_ascii=False))
    caches = tmp_path / "caches"
    caches.mkdir()
    result = json.dumps({"pois": [{"name": "测试海洋馆", "location": "113.5,22.2", "cost": "88"}]})
    (caches / "search_poi_cache.json").write_text(json.dumps({'[["keywords","海洋馆"]]': result}))
    report = _json(
        "world", "import", "--poi-db", poi, "--caches", caches, "--out", tmp_path / "w", "--no-fill"
    )
    assert report["coords_from_cache"] == 1 and report["prices_from_cache"] == 1
    assert report["notes"] == ["珠海: imported as 珠海市"]
    assert report["skipped"] == ["火星: not a curated city (all its POIs skipped)"]
    place = World.load(tmp_path / "w").poi("珠海市", "测试海洋馆")
    assert place is not None and (place.lon, place.lat, place.price_fen) == (113.5, 22.2, 8800)
    code, output = _run("world", "import", "--poi-db", poi, "--out", tmp_path / "w2", "--no-fill")
    assert code == 0 and "skipped: 火星: not a curated city" in output and "note: 珠海: imported as" in output


def test_verify_against_a_built_world(built: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    out, _ = built
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(greedy_plan(sample_task(), World.load(out)), ensure_ascii=False))
    poi = tmp_path / "poi.json"
    assert _run("world", "export-poi-db", out, "--out", poi)[0] == 0
    strict = ("--profile", "strict", "--world", out)
    verdict = _json("verify", "--task", TASK, "--plan", plan, "--poi-db", poi, *strict)
    assert verdict["profile"] == "strict" and verdict["valid"] is True and verdict["violations"] == []
    assert _json("verify", "--task", TASK, "--plan", plan, "--poi-db", poi)["valid"] is True
    code, output = _run(
        "verify",
        "--task",
        TASK,
        "--plan",
        plan_path("good"),
        "--poi-db",
        poi,
        "--profile",
        "strict",
        "--world",
        out,
    )
    assert code == 1 and "strict.hotel_unknown" in output
    cases = tmp_path / "cases.jsonl"
    lines = [
        {"id": "ours", "plan": json.loads(plan.read_text())},
        {"id": "sample", "plan": json.loads(plan_path("good").read_text())},
    ]
    cases.write_text(
        "".join(json.dumps(line | {"task_id": "task_004175"}, ensure_ascii=False) + "\n" for line in lines)
    )
    code, output = _run(
        "verify-batch", cases, "--poi-db", poi, "--profile", "strict", "--tasks", TASK, "--world", out
    )
    results = [json.loads(line) for line in output.splitlines()]
    assert code == 1 and [(r["id"], r["profile"], r["valid"]) for r in results] == [
        ("ours", "strict", True),
        ("sample", "strict", False),
    ]
    assert results[1]["issue_counts"]["strict.hotel_unknown"] == 1


def _bad_task(tmp_path: Path, content: str) -> Path:
    path = tmp_path / "tasks.json"
    path.write_text(content, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not valid JSON"),
        ("[1]", "task 1: a task must be a JSON object, got int"),
        ("[]", "no task in the file"),
        (
            '{"task_id": "t", "user_preferences": {}, '
            '"metadata": {"departure_city": "火星", "cities": ["珠海市"]}}',
            "tasks.metadata: cities not in sandbox/data/cities.csv: ['火星']",
        ),
        (
            '{"task_id": "t", "metadata": {"cities": ["珠海市"]}}',
            "tasks[0].metadata.departure_city: expected a non-empty string",
        ),
        (
            '{"task_id": "t", "metadata": {"departure_city": "合肥市", "cities": []}}',
            "tasks[0].metadata.cities: expected at least one city",
        ),
        (
            '{"task_id": "t", "user_preferences": {"U": {"preference": []}}}',
            "task 1: invalid task: user_preferences.U.preference: Input should be a valid dictionary",
        ),
    ],
)
def test_build_bad_tasks_exit_2(tmp_path: Path, content: str, expected: str) -> None:
    path = _bad_task(tmp_path, content)
    code, output = _run("world", "build", "--tasks", path, "--out", tmp_path / "w")
    assert code == 2 and _has(output, str(path)) and _has(output, expected)
    assert not (tmp_path / "w").exists()


def test_bad_world_arguments_exit_2(built: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    out, _ = built
    missing = tmp_path / "nope"
    cases: list[tuple[list[object], str]] = [
        (["world", "build", "--tasks", missing, "--out", tmp_path / "w"], "file not found"),
        (["world", "build", "--tasks", TASK, "--out", TASK], "cannot write"),
        (["world", "info", missing], f"{missing}: world directory not found"),
        (["world", "info", tmp_path], "cannot read the world manifest"),
        (["world", "info", out, "--city", "火星"], "--city '火星' is not a city of this world"),
        (
            ["world", "export-poi-db", out, "--out", tmp_path / "p.json", "--city", "北京"],
            "no POIs in 北京市",
        ),
        (["world", "import", "--poi-db", missing, "--out", tmp_path / "w"], "cannot read the POI file"),
        (
            ["world", "import", "--poi-db", TASK, "--out", tmp_path / "w", "--caches", missing],
            "cache directory not found",
        ),
        (
            [
                "verify",
                "--task",
                TASK,
                "--plan",
                TASK,
                "--poi-db",
                POI_PATH,
                "--profile",
                "strict",
                "--world",
                missing,
            ],
            "world directory not found",
        ),
    ]
    for args, expected in cases:
        code, output = _run(*args)
        assert code == 2 and _has(output, expected), (args, output)


def test_corrupt_world_and_poi_file_exit_2(built: tuple[Path, dict[str, Any]], tmp_path: Path) -> None:
    out, _ = built
    copy = tmp_path / "copy"
    for name, data in _files(out).items():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_bytes(data)
    city_file = next((copy / "cities").iterdir())
    city_file.write_bytes(city_file.read_bytes().replace(b'"rating"', b'"Rating"', 1))
    code, output = _run("world", "info", copy)
    assert code == 2 and _has(output, "sha256 differs from the manifest")
    poi = tmp_path / "poi.json"
    poi.write_text(json.dumps({"珠海市": "x"}, ensure_ascii=False))
    code, output = _run("world", "import", "--poi-db", poi, "--out", tmp_path / "w")
    assert code == 2 and _has(output, f"{poi}: 珠海市: expected a list of POI objects")
    poi.write_text(
        json.dumps(
            {"珠海市": [{"name": "a", "poi_type": "food", "opening_hours": {"rules": [{"weekdays": [9]}]}}]}
        )
    )
    code, output = _run("world", "import", "--poi-db", poi, "--out", tmp_path / "w")
    assert code == 2 and _has(output, "珠海市[0].opening_hours.rules[0].weekdays: expected ISO weekdays 1..7")
