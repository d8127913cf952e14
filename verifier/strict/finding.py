"""Building strict violations: one constructor so every rule reports the same shape."""

from __future__ import annotations

from verifier.model.verdict import CheckId, Violation


def violation(code: str, check: CheckId, loc: str, message: str, **ctx: object) -> Violation:
    """A violation with its stable `strict.*` code, check number, JSON path, message and the compared
    facts as `ctx` (JSON values; validated by the model)."""
    return Violation.model_validate(
        {"code": code, "check": check, "loc": loc, "message": message, "ctx": ctx}
    )
