"""The `tripwright` command line: one module per command group, thin wrappers over the engine."""
