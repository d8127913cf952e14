"""What several runner subpackages share for their files: JSON and JSONL reading with precise
errors and atomic writes (`files`), and the benchmark's data — tasks, the official POI file, a
world, the embedded samples — loaded into verifier and sandbox objects (`benchmark_data`). Every
read failure is an `InputError` naming the file, the place and the problem. Imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import verifier.faces

if TYPE_CHECKING:
    from runner.loading.benchmark_data import (
        load_poi_db,
        load_sandbox_world,
        load_task,
        load_tasks,
        load_world,
        sample_path,
        task_poi_db,
    )
    from runner.loading.files import (
        InputError,
        JsonLine,
        atomic_write_bytes,
        dumps_line,
        iter_jsonl,
        read_json,
        read_json_or_jsonl,
    )

_HOMES = {
    "InputError": "runner.loading.files",
    "JsonLine": "runner.loading.files",
    "atomic_write_bytes": "runner.loading.files",
    "dumps_line": "runner.loading.files",
    "iter_jsonl": "runner.loading.files",
    "load_poi_db": "runner.loading.benchmark_data",
    "load_sandbox_world": "runner.loading.benchmark_data",
    "load_task": "runner.loading.benchmark_data",
    "load_tasks": "runner.loading.benchmark_data",
    "load_world": "runner.loading.benchmark_data",
    "read_json": "runner.loading.files",
    "read_json_or_jsonl": "runner.loading.files",
    "sample_path": "runner.loading.benchmark_data",
    "task_poi_db": "runner.loading.benchmark_data",
}
"""Each public name and the module it lives in."""

__all__ = [
    "InputError",
    "JsonLine",
    "atomic_write_bytes",
    "dumps_line",
    "iter_jsonl",
    "load_poi_db",
    "load_sandbox_world",
    "load_task",
    "load_tasks",
    "load_world",
    "read_json",
    "read_json_or_jsonl",
    "sample_path",
    "task_poi_db",
]


__getattr__ = verifier.faces.lazy_names(__name__, _HOMES)
