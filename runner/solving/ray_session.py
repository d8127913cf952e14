"""One Ray session for the batch backends (the oracle's, beside it here, and the runs' in
`runner.runs.ray_backend`): import, connect, shut down.

`ray.init()` connects to the cluster named by `RAY_ADDRESS` when it is set and starts a local
instance otherwise; a session that started Ray shuts it down again when it ends, one that found
Ray running leaves it running.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from runner.loading.files import InputError


@contextmanager
def ray_session() -> Iterator[Any]:
    """The `ray` module, initialised; InputError when Ray is missing or cannot start."""
    try:
        import ray
    except ImportError as exc:
        raise InputError(None, "--backend ray needs Ray: pip install 'tripwright[ray]'") from exc
    started = not ray.is_initialized()
    if started:
        try:
            ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
        except Exception as exc:  # Ray reports start-up failures with many exception types
            raise InputError(None, f"cannot start or reach Ray: {exc}") from exc
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()
