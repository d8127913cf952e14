"""The oracle on disk: one solve per (task, world, preference table, settings), shared by every
trial, every re-run and every process that uses the same cache directory.

An entry is the file `<dir>/<key[:2]>/<key>.json` where `key` hashes the task id, the world hash,
the table's canonical JSON and the oracle settings. It holds either the oracle's record
(`OracleResult.to_json()`) or the input error the oracle raised for that table (deterministic, so
it is cached too). Writes are atomic (`atomic_write_bytes`), and a solve holds an exclusive
`flock` on `<key>.lock`, so concurrent callers of the same key (threads or processes) wait for
the first one and read its entry instead of solving again. Internal oracle failures are returned
but not cached: the next call tries again.
"""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from runner.loading.benchmark_data import task_poi_db
from runner.loading.files import atomic_write_bytes, read_bytes
from sandbox.world.errors import WorldError
from sandbox.world.world import World
from solver.oracle.solve import OracleInputError, OracleSettings, solve_task
from verifier.model.task import Task

CACHE_VERSION = 2
"""2: oracle records of version 2 (with the both-valid plan); entries of version 1 are solved again."""


def canonical_hash(value: Any) -> str:
    """sha256 of the canonical JSON of a value (sorted keys, UTF-8): equal tables, equal hashes."""
    return hashlib.sha256(orjson.dumps(value, option=orjson.OPT_SORT_KEYS)).hexdigest()


def world_hash(world_dir: str | Path) -> str:
    """The world's identity: sha256 of its `manifest.json` (which holds every city file's sha256)."""
    return hashlib.sha256(read_bytes(Path(world_dir) / "manifest.json")).hexdigest()


def default_cache_dir() -> Path:
    """`$XDG_CACHE_HOME/tripwright/oracle`, else `~/.cache/tripwright/oracle`."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tripwright" / "oracle"


@dataclass(frozen=True, slots=True)
class Solved:
    """One oracle answer: the record, or why there is none (`problem`); `cached` when read from disk."""

    record: dict[str, Any] | None
    problem: str | None = None
    cached: bool = False

    @property
    def plan(self) -> dict[str, Any] | None:
        return None if self.record is None else self.record.get("plan")


@dataclass(frozen=True)
class OracleCache:
    """The cached oracle of one world with one set of settings (picklable: workers rebuild nothing)."""

    directory: Path
    world_hash: str
    settings: OracleSettings

    def key(self, task_id: str, table: dict[str, Any]) -> str:
        parts = [CACHE_VERSION, task_id, self.world_hash, canonical_hash(table), self.settings_hash]
        return hashlib.sha256(orjson.dumps(parts)).hexdigest()

    @property
    def settings_hash(self) -> str:
        return canonical_hash(dataclasses.asdict(self.settings))

    def path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def lookup(self, task_id: str, table: dict[str, Any]) -> Solved | None:
        """The cached answer, without solving (None: not solved yet)."""
        return _read(self.path(self.key(task_id, table)))

    def solve(self, task: Task, world: World, table: dict[str, Any]) -> Solved:
        """The oracle's answer for `task` scored against `table`, solved at most once per key."""
        path = self.path(self.key(task.task_id, table))
        found = _read(path)
        if found is not None:
            return found
        path.parent.mkdir(parents=True, exist_ok=True)
        with _locked(path.with_suffix(".lock")):
            found = _read(path)
            if found is not None:
                return found
            entry, cache = _solve(task, world, self.settings, table)
            if cache:
                atomic_write_bytes(path, orjson.dumps(entry))
        return Solved(entry.get("result"), entry.get("problem"))


def _solve(
    task: Task, world: World, settings: OracleSettings, table: dict[str, Any]
) -> tuple[dict[str, Any], bool]:
    """(cache entry, whether to cache it): the record, or a deterministic input problem; other
    failures are reported but not cached."""
    try:
        result = solve_task(task, world, settings, table=table, official=task_poi_db(world, task))
    except OracleInputError as exc:
        return {"problem": f"oracle refused the task: {exc.field}: {exc.problem}"}, True
    except WorldError as exc:
        return {"problem": f"oracle: world: {exc}"}, True
    except Exception as exc:  # a table the oracle cannot read must not end a scoring run
        return {"problem": f"oracle internal error {type(exc).__name__}: {exc}"}, False
    return {"result": result.to_json()}, True


def _read(path: Path) -> Solved | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        entry = orjson.loads(data)
    except orjson.JSONDecodeError:  # writes are atomic: only a hand-damaged entry gets here
        return None
    return Solved(entry.get("result"), entry.get("problem"), cached=True)


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)
