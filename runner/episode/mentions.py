"""Who a message @-mentions: the LAST mention of a known name (docs/runner.md#the-protocol-as-implemented,
@-mentions).

A mention is an ASCII "@" followed by a participant name that is not itself followed by an ASCII
letter, digit or underscore (so "@User1" does not match inside "@User10", while Chinese text may
follow directly: "@User1你好"). Names are tried longest first at each position. The full-width
"＠" is not a mention; an e-mail-like "a@User2.com" is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def mention_pattern(names: Iterable[str]) -> re.Pattern[str]:
    """The regular expression matching "@" + any of `names`, longest name first."""
    ordered = sorted(set(names), key=lambda name: (-len(name), name))
    alternatives = "|".join(re.escape(name) for name in ordered)
    return re.compile(f"@({alternatives})(?![A-Za-z0-9_])")


def last_mention(text: str, names: Iterable[str]) -> str | None:
    """The name of the last @-mention in `text` among `names`, or None."""
    names = list(names)
    if not names:
        return None
    found = None
    for match in mention_pattern(names).finditer(text):
        found = match.group(1)
    return found
