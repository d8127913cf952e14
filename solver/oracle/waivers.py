"""Waivers in the CP-SAT model: a waivable user may give up two fields, each worth its loss.

Every detail of an official field has the field's sign (must_visit +2, reject_visit −2,
category_pref.positive +1, …), so giving up a field only helps when it is one of the losing
ones: reject_visit, category_pref.negative, reject_eat and avoid_eat (per city),
transport.reject, transport.avoid, hotel_preference.avoid, the two intensity caps and the
budget. Per waivable user and losing field the model states the field's *loss* (minus its
total) exactly as a sum of *pieces* — each a non-negative expression with the most it can
reach — and adds a waiver literal and a gain with `gain ≤ loss`, `gain ≤ most · waiver` and at
most `MAX_WAIVED` waivers a user. Only upper bounds: the objective maximises the gains, and
`settle` sets them to their best for a fixed plan so the model's objective of any solution is
the ceiling of the plan it writes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from solver.greedy_prefs import Parts
from solver.oracle.ceiling import MAX_WAIVED, FieldKey


@dataclass
class Losses:
    """One waivable user's losing fields: per field, pieces `(expression, most)` whose sum is
    the field's loss (minus its total)."""

    pieces: dict[FieldKey, list[tuple[cp_model.LinearExprT, int]]] = field(
        default_factory=lambda: defaultdict(list)
    )

    def add(self, key: FieldKey, loss: cp_model.LinearExprT, most: int) -> None:
        """One piece of a field's loss, at most `most`."""
        if most > 0:
            self.pieces[key].append((loss, most))

    def add_exclusive(self, city: str | None, options: Iterable[tuple[Parts, cp_model.LinearExprT]]) -> None:
        """The losses of choices of which at most one is taken (the legs of a transition, the
        hotels of a night, the visits of one place, the meals of a kind): per losing field,
        Σ |part| · choice, at most the largest |part|."""
        by_field: dict[str, list[tuple[int, cp_model.LinearExprT]]] = defaultdict(list)
        for parts, chosen in options:
            for name, score in parts:
                if score < 0:
                    by_field[name].append((-score, chosen))
        for name, terms in by_field.items():
            self.add((city, name), sum(weight * chosen for weight, chosen in terms), max(w for w, _ in terms))


@dataclass(frozen=True)
class Waiver:
    """The variables of one (user, losing field): its loss, whether it is waived, the gain."""

    user: int
    key: FieldKey
    loss: cp_model.IntVar
    waived: cp_model.IntVar
    gain: cp_model.IntVar


def add_waivers(
    model: cp_model.CpModel, user: int, losses: Losses
) -> tuple[cp_model.LinearExpr, list[Waiver]]:
    """The user's gain from waivers (to add to the user's utility) and its variables."""
    waivers: list[Waiver] = []
    for key in sorted(losses.pieces, key=_order):
        pieces = losses.pieces[key]
        most = sum(cap for _, cap in pieces)
        name = f"{user}|{key[0] or ''}|{key[1]}"
        loss = model.new_int_var(0, most, f"loss{name}")
        model.add(loss == sum(expression for expression, _ in pieces))
        waived = model.new_bool_var(f"waive{name}")
        gain = model.new_int_var(0, most, f"gain{name}")
        model.add(gain <= loss)
        model.add(gain <= most * waived)
        waivers.append(Waiver(user, key, loss, waived, gain))
    if waivers:
        model.add(sum(w.waived for w in waivers) <= MAX_WAIVED)
    return cp_model.LinearExpr.sum([w.gain for w in waivers]), waivers


def settle(waivers: Sequence[Waiver], solution: Sequence[int]) -> list[int]:
    """`solution` with every user's waivers on the largest losses (ties: the first field in
    model order) and each gain at its loss: the best waivers for the plan the solution writes."""
    out = list(solution)
    by_user: dict[int, list[Waiver]] = defaultdict(list)
    for waiver in waivers:
        by_user[waiver.user].append(waiver)
    for own in by_user.values():
        ranked = sorted(own, key=lambda w: -out[w.loss.index])
        chosen = {w.loss.index for w in ranked[:MAX_WAIVED] if out[w.loss.index] > 0}
        for waiver in own:
            taken = waiver.loss.index in chosen
            out[waiver.waived.index] = int(taken)
            out[waiver.gain.index] = out[waiver.loss.index] if taken else 0
    return out


def _order(key: FieldKey) -> tuple[str, str]:
    return (key[0] or "", key[1])
