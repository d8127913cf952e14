"""The oracle over a task file, the engine of `tripwright oracle` (docs/cli.md#tripwright-oracle):
tasks read leniently into entries (`task_entries`: `read_task_entries`, `select`, `read_tables`),
one job for the batch (`batch.make_job`, hashed settings), each entry solved into a record or an
error line (`solve_entry`) here (`run_local`) or on Ray (`ray_backend.run_ray`; its
`ray_session` module is shared with the runs' Ray backend), and the records appended to a
resumable log (`log`: `Appender`, `resume`). Imported on first use, so the face loads no solver.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import verifier.faces

if TYPE_CHECKING:
    from runner.solving.batch import OracleJob, Tally, make_job, run_local, solve_entry
    from runner.solving.log import Appender, Resume, resume
    from runner.solving.ray_backend import run_ray
    from runner.solving.task_entries import (
        TableError,
        TaskEntry,
        TaskError,
        read_tables,
        read_task_entries,
        select,
    )

_HOMES = {
    "Appender": "runner.solving.log",
    "OracleJob": "runner.solving.batch",
    "Resume": "runner.solving.log",
    "TableError": "runner.solving.task_entries",
    "Tally": "runner.solving.batch",
    "TaskEntry": "runner.solving.task_entries",
    "TaskError": "runner.solving.task_entries",
    "make_job": "runner.solving.batch",
    "read_tables": "runner.solving.task_entries",
    "read_task_entries": "runner.solving.task_entries",
    "resume": "runner.solving.log",
    "run_local": "runner.solving.batch",
    "run_ray": "runner.solving.ray_backend",
    "select": "runner.solving.task_entries",
    "solve_entry": "runner.solving.batch",
}
"""Each public name and the module it lives in."""

__all__ = [
    "Appender",
    "OracleJob",
    "Resume",
    "TableError",
    "Tally",
    "TaskEntry",
    "TaskError",
    "make_job",
    "read_tables",
    "read_task_entries",
    "resume",
    "run_local",
    "run_ray",
    "select",
    "solve_entry",
]


__getattr__ = verifier.faces.lazy_names(__name__, _HOMES)
