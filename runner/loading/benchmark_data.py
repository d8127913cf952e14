"""The benchmark's data loaded into verifier and sandbox objects, with clear errors: tasks, the
official POI file, preference tables, a world and the embedded samples."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from runner.loading.files import InputError, read_json, read_json_or_jsonl, validation_problems
from verifier.model.task import Task
from verifier.official.poi_db import PoiDb, PoiDbError
from verifier.world_facts import WorldFacts

if TYPE_CHECKING:
    from sandbox.world.world import World

SAMPLES = resources.files("runner") / "samples"
SAMPLE_TASK_ID = "task_004175"


def sample_path(name: str) -> Path:
    """Path of an embedded sample file (runner/samples/<name>)."""
    return Path(str(SAMPLES / name))


def parse_task(value: Any, path: str | Path | None, where: str = "") -> Task:
    """A Task from a JSON value; InputError listing every `field: problem` otherwise."""
    if not isinstance(value, dict):
        raise InputError(path, f"a task must be a JSON object, got {type(value).__name__}", where)
    try:
        return Task.model_validate(value)
    except ValidationError as exc:
        raise InputError(path, f"invalid task: {validation_problems(exc)}", where) from exc


def read_tasks(path: str | Path) -> list[tuple[Any, Task]]:
    """Every task of a JSON object / JSON array / JSONL file as (raw value, Task), in file order.

    Duplicate task ids and a file without tasks are errors.
    """
    values = read_json_or_jsonl(path)
    if len(values) == 1 and isinstance(values[0], list):
        values = values[0]
    tasks: list[tuple[Any, Task]] = []
    seen: set[str] = set()
    for number, value in enumerate(values, start=1):
        task = parse_task(value, path, where=f"task {number}")
        if task.task_id in seen:
            raise InputError(path, f"duplicate task_id {task.task_id!r}", where=f"task {number}")
        seen.add(task.task_id)
        tasks.append((value, task))
    if not tasks:
        raise InputError(path, "no task in the file")
    return tasks


def load_tasks(path: str | Path) -> dict[str, Task]:
    """Every task of a task file by task_id, in file order (see `read_tasks`)."""
    return {task.task_id: task for _, task in read_tasks(path)}


def load_task(path: str | Path, task_id: str | None) -> Task:
    """One task: the only one in the file, or the one named by `task_id`."""
    tasks = load_tasks(path)
    if task_id is None:
        if len(tasks) > 1:
            raise InputError(path, f"holds {len(tasks)} tasks; choose one with --task-id")
        return next(iter(tasks.values()))
    if task_id not in tasks:
        raise InputError(path, f"unknown task id {task_id!r} ({len(tasks)} tasks in the file)")
    return tasks[task_id]


def load_poi_db(path: str | Path) -> PoiDb:
    """The official POI file, or an InputError naming the problem."""
    try:
        return PoiDb.load(path)
    except PoiDbError as exc:
        raise InputError(None, str(exc)) from exc


def load_table(path: str | Path, what: str) -> dict[str, Any]:
    """A preference table file (effective ③ or agent ②): a JSON object keyed by user."""
    value = read_json(path)
    if not isinstance(value, dict):
        raise InputError(path, f"the {what} table must be a JSON object keyed by user name")
    return value


def load_world(directory: str | Path) -> WorldFacts:
    """A sandbox World from a directory, as the verifier sees it (it satisfies WorldFacts)."""
    world: WorldFacts = load_sandbox_world(directory)
    return world


def load_sandbox_world(directory: str | Path) -> World:
    """A sandbox World from a directory; InputError naming the directory and the problem."""
    from sandbox.world.world import World  # the sandbox loads only for commands given a world

    if not Path(directory).is_dir():
        raise InputError(directory, "world directory not found")
    try:
        return World.load(directory)
    except (OSError, ValueError) as exc:
        raise InputError(directory, f"cannot load the world: {exc}") from exc


def task_poi_db(world: World, task: Task) -> PoiDb:
    """The world's official POI file (opening hours included) of a task's cities, its departure
    city included: what the official profile checks the task's plans against."""
    from sandbox.world.official_io import export_poi_db

    return PoiDb(export_poi_db(world, (task.metadata.departure_city, *task.metadata.cities)))
