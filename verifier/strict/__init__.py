"""The `strict` profile: the nine checks as they are meant, grounded in `WorldFacts`
(docs/checks.md: one entry per rule); `strict_violations` runs them all.

Imported on first use: its helpers (meal windows, clocks) serve other modules that must not load
every check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import verifier.faces

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


__getattr__ = verifier.faces.lazy_names(__name__, _HOMES)
