"""Deriving task variants: certified-unsolvable wishes, mid-dialogue transitions, intent shifts."""
