"""The `strict` profile: the nine checks as they are meant, grounded in `WorldFacts`
(docs/checks.md: one entry per rule); `strict_violations` runs them all.

Imported on first use: its helpers (meal windows, clocks) serve other modules that must not load
every check.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from verifier.strict.profile import CHECKS, strict_violations

_HOMES = {
    "CHECKS": "verifier.strict.profile",
    "strict_violations": "verifier.strict.profile",
}
"""Each public name and the module it lives in."""

__all__ = [
    "CHECKS",
    "strict_violations",
]


def __getattr__(name: str) -> Any:
    """Import a public name from its home module on first use (PEP 562), then keep it here."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
