"""tripwright sandbox package."""
