"""Prices in fen from a category's CNY range and the city's price level.

Attraction tickets are rounded to 5 CNY and free-range categories (lower bound 0) are free
half of the time; meal spends to 1 CNY; hotel rooms to 10 CNY, and the per-person price of a
hotel is half the room (two to a room).
"""

from __future__ import annotations

import random

STEP_CNY = {"attraction": 5, "restaurant": 1, "hotel": 10}


def draw_fen(price: tuple[int, int], level: float, kind: str, r: random.Random) -> int:
    """A price in fen for one POI (for hotels, the room)."""
    lo, hi = price
    if hi == 0 or (lo == 0 and kind == "attraction" and r.random() < 0.5):
        return 0
    step = STEP_CNY[kind]
    cny = r.uniform(max(lo, step), hi) * level
    return max(step, round(cny / step) * step) * 100


def per_person_fen(kind: str, price_fen: int) -> int:
    """The per-person price: a hotel room is shared by two."""
    return price_fen // 2 if kind == "hotel" else price_fen
