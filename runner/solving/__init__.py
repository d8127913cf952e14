"""The oracle over a task file: lenient task reading, the batch, its append-only log, Ray."""
