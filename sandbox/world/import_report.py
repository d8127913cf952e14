"""`ImportReport`: what an import of the official POI file took, skipped and filled in."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class ImportReport:
    """What an import took, skipped and filled in."""

    pois: int = 0
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    coords_from_cache: int = 0
    prices_from_cache: int = 0
