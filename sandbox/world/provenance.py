"""Say what is real: counts of a world's POIs by kind and source ("ChinaTravel", "scenic5a",
"synthetic"), and how a task's named place was grounded."""

from __future__ import annotations

from collections import Counter

from sandbox.world.model import POI_KINDS
from sandbox.world.world import World

SYNTHETIC = "synthetic"


def by_source(world: World) -> dict[str, dict[str, int]]:
    """{kind: {source: count}} over every city, sources sorted, kinds in `POI_KINDS` order."""
    counts = Counter((p.kind, p.source) for city in world.cities for p in world.pois(city))
    return {kind: {source: n for (k, source), n in sorted(counts.items()) if k == kind} for kind in POI_KINDS}


def summary_line(sources: dict[str, dict[str, int]]) -> str:
    """ "attraction: 3411 ChinaTravel + 25 scenic5a real, 5960 synthetic; …"."""
    parts = []
    for kind, counts in sources.items():
        real = " + ".join(f"{n} {s}" for s, n in counts.items() if s != SYNTHETIC) or "0"
        parts.append(f"{kind}: {real} real, {counts.get(SYNTHETIC, 0)} synthetic")
    return "; ".join(parts)
