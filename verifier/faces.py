"""Lazy public faces: a package's public names, imported from their home modules on first use.

A face lists each public name's home module and sets `__getattr__ = lazy_names(__name__,
HOMES)` (PEP 562), so importing the package loads nothing until a name is used — what keeps
`tripwright --help` light (docs/api.md). Like `verifier.errors`, this module imports nothing of
ours, so every package may use it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """The module-level `__getattr__` of the face `package`: a public name is imported from
    its home module (`homes[name]`) on first use and then kept on the package; any other name
    raises AttributeError as a module would."""

    def resolve(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(sys.modules[package], name, value)
        return value

    return resolve
