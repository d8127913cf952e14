"""A user's "[pass]" (docs/runner.md#the-protocol-as-implemented, User replies): trailing passes are dropped,
an exact pass says nothing.

`strip_passes` removes the run of "[pass]" tokens (any case, white space between them) that ends
a reply, unless nothing would be left. `is_pass` is the exact, case-sensitive test on the result
(surrounding white space aside): "[pass]" is a pass; "[PASS]" and "[pass]\\n[pass]" are not
and are committed as text.
"""

from __future__ import annotations

import re

PASS = "[pass]"
_TRAILING = re.compile(r"(?:\s*\[pass\])+\s*$", re.IGNORECASE)


def strip_passes(text: str) -> str:
    """`text` without its trailing "[pass]" tokens, unless that would leave nothing."""
    match = _TRAILING.search(text)
    if match is None:
        return text
    kept = text[: match.start()]
    return kept if kept.strip() else text


def is_pass(text: str) -> bool:
    """Whether a (stripped) reply is exactly "[pass]", surrounding white space aside."""
    return text.strip() == PASS
