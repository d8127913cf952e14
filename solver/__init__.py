"""tripwright solver package."""
