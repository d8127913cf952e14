"""Teams of one city block: who goes with whom, the split penalty, per-user views of team sums.

In a block the users divide into teams (one team: everyone, the plan writes `["All"]`); each
team follows its own route between the block's shared start and end (hotel or hub), children
go with team 0 (which always holds the first user, so a child is never without an adult).
`y[k][u]` puts user u in team k; users may only join teams k ≤ u (symmetry breaking); a team
is active when someone is in it. The official split rule charges a block with K ≥ 2 disjoint
teams K − 1 (docs/official.md#scoring); the relaxed model that proves the bound charges the least penalty any
phase structure with the same overall partition could be charged (`phase_penalty`,
docs/oracle.md), so its bound also covers plans that regroup mid-block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model


def phase_penalty(groups: int) -> int:
    """Least split penalty of a block whose users end up in `groups` distinct groups over its
    phases: phases with K₁, K₂, … teams cost Σ(Kᵢ − 1) and separate at most ∏Kᵢ groups, so this
    is the least Σ(Kᵢ − 1) with ∏Kᵢ ≥ groups."""
    best = {1: 0}
    for product in range(2, groups + 1):
        best[product] = min(best[-(-product // k)] + k - 1 for k in range(2, product + 1))
    return best[groups]


@dataclass
class Teams:
    """The team variables of one block."""

    member: list[list[cp_model.IntVar]]
    """member[k][u]: user u is in team k."""
    active: list[cp_model.IntVar]
    split: cp_model.IntVar
    """At least two teams."""
    penalty: cp_model.IntVar

    def of_user(
        self,
        model: cp_model.CpModel,
        user: int,
        per_team: Sequence[cp_model.LinearExprT],
        bounds: tuple[int, int],
    ) -> cp_model.LinearExprT:
        """The value of `per_team[k]` for the team of `user` (0 when the block does not exist)."""
        if len(self.active) == 1:
            return per_team[0]
        value = model.new_int_var(min(bounds[0], 0), max(bounds[1], 0), "")
        for k, team in enumerate(self.member):
            model.add(value == per_team[k]).only_enforce_if(team[user])
        model.add(value == 0).only_enforce_if([team[user].Not() for team in self.member])
        return value


def add_teams(
    model: cp_model.CpModel, users: int, exists: cp_model.IntVar, teams: int, *, relaxed: bool, name: str
) -> Teams:
    """Team variables of a block with at most `teams` teams (1: no split); `exists` is the
    block's literal. With `relaxed`, the penalty is `PHASE_PENALTY` instead of K − 1."""
    member = [[model.new_bool_var(f"{name}y{k}u{u}") for u in range(users)] for k in range(teams)]
    for u in range(users):
        model.add(sum(member[k][u] for k in range(teams)) == exists)
        for k in range(u + 1, teams):
            model.add(member[k][u] == 0)
    active = []
    for k in range(teams):
        literal = model.new_bool_var(f"{name}act{k}")
        model.add_max_equality(literal, member[k])
        active.append(literal)
    for k in range(1, teams):
        model.add_implication(active[k], active[k - 1])
    split = model.new_bool_var(f"{name}split")
    penalty = model.new_int_var(0, max(teams - 1, 0), f"{name}pen")
    if teams == 1:
        model.add(split == 0)
        model.add(penalty == 0)
        return Teams(member, active, split, penalty)
    model.add(split == active[1])
    for count in range(2, teams + 1):
        charge = phase_penalty(count) if relaxed else count - 1
        model.add(penalty >= charge).only_enforce_if(active[count - 1])
    return Teams(member, active, split, penalty)
