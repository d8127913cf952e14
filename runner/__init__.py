"""tripwright runner package."""
