"""Shared pytest fixtures: the location of ../shared (skips `shared`-marked tests when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The read-only ../shared folder beside the checkout; skip when it is not there."""
    if not (SHARED / "golden").is_dir():
        pytest.skip("../shared is not available")
    return SHARED
