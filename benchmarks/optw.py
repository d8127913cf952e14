"""The oracle's routing core on the public OPTW / TOPTW instances of ../shared/optw.

Per (instance, m): N, m, the value found, the proven bound, whether the value is proven optimal,
the published best value (bks.csv) and its kind, the gap to it in %, seconds. m = 1 runs the
exact engine (`solver/oracle/orienteering_dp.py`), m ≥ 2 the column generation
(`solver/oracle/toptw.py`); `--engine cpsat` runs the older CP-SAT model (`solve_optw`) instead,
for comparison. Every route is replayed by the independent checker (`optw.replay`), and a value
above or a bound below a proven optimum stops the run. Then a summary and peak memory.

Default: the 29 Solomon 1-series instances with m = 1 (60 s each). TOPTW runs are chosen with
`--m`, e.g. `--instances 'pr0*' pr10 --m 2 3 4 --time-limit 30`. Usage:
    python benchmarks/optw.py [--instances c101 'r1*' pr01] [--m 1 2] [--time-limit 60]
                              [--engine dp|cpsat] [--workers 2] [--seed 0] [--shared ../shared]
"""

from __future__ import annotations

import argparse
import fnmatch
import resource
import statistics
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from solver.oracle.optw import Bks, Instance, parse_instance, problem_of, read_bks, replay, solve_optw
from solver.oracle.orienteering_dp import solve
from solver.oracle.toptw import solve_team

ROOT = Path(__file__).resolve().parents[1]
SOLOMON_1 = (
    [f"c10{i}" for i in range(1, 10)]
    + [f"r1{i:02d}" for i in range(1, 13)]
    + [f"rc10{i}" for i in range(1, 9)]
)


@dataclass(frozen=True)
class Outcome:
    """One run: the value, a proven upper bound (None: none), proven optimal, seconds, tours."""

    value: int
    bound: Fraction | None
    proven: bool
    seconds: float
    tours: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Row:
    """One benchmark line."""

    instance: Instance
    m: int
    outcome: Outcome
    bks: Bks | None

    @property
    def gap(self) -> float | None:
        if self.bks is None:
            return None
        return 100.0 * (self.bks.value - self.outcome.value) / self.bks.value

    @property
    def reproduced(self) -> bool:
        """A published optimum matched and proven."""
        return (
            self.bks is not None
            and self.bks.optimal
            and self.outcome.proven
            and self.outcome.value == self.bks.value
        )


def files(shared: Path, patterns: list[str] | None) -> list[Path]:
    """Instance files matching the names or globs (default: the Solomon 1-series)."""
    every = sorted((shared / "optw").glob("*/*.txt"))
    wanted = patterns or SOLOMON_1
    chosen = [path for path in every if any(fnmatch.fnmatch(path.stem, p) for p in wanted)]
    missing = [p for p in wanted if not any(fnmatch.fnmatch(path.stem, p) for path in every)]
    if missing:
        sys.exit(f"no instance matches {', '.join(missing)}")
    return sorted(chosen, key=lambda path: (path.parent.name != "solomon", path.stem))


def run_one(instance: Instance, m: int, args: argparse.Namespace) -> Outcome:
    """One solve with the chosen engine; customers are numbered 1..N in the tours."""
    if args.engine == "cpsat":
        found = solve_optw(instance, m, args.time_limit, args.workers, args.seed)
        bound = None if found.bound is None else Fraction(found.bound)
        return Outcome(found.value, bound, found.status == "OPTIMAL", found.seconds, found.tours)
    problem = problem_of(instance)
    if m == 1:
        route = solve(problem, args.time_limit)
        tours = (tuple(j + 1 for j in route.route or ()),)
        return Outcome(int(route.value), Fraction(route.bound), route.proven, route.seconds, tours)
    team = solve_team(problem, m, args.time_limit)
    tours = tuple(tuple(j + 1 for j in r) for r in team.routes)
    return Outcome(int(team.value), Fraction(team.bound), team.proven, team.seconds, tours)


def run(args: argparse.Namespace) -> list[Row]:
    bks = read_bks(args.shared / "optw" / "bks.csv")
    rows = []
    print(
        f"{'inst':6} {'N':>3} {'m':>1} {'value':>5} {'bound':>8} {'proven':6} {'bks':>5} {'kind':10} "
        f"{'gap%':>6} {'s':>5}"
    )
    for path in files(args.shared, args.instances):
        instance = parse_instance(path)
        for m in args.m:
            outcome = run_one(instance, m, args)
            played = replay(instance, outcome.tours)
            if not played.feasible or played.profit != outcome.value:
                sys.exit(f"{instance.name} m={m}: the tours do not replay: {played.error}")
            row = Row(instance, m, outcome, bks.get((instance.name, m)))
            best = row.bks
            if (
                best is not None
                and best.optimal
                and (outcome.value > best.value or (outcome.bound is not None and outcome.bound < best.value))
            ):
                wrong = f"value {outcome.value} / bound {outcome.bound} contradict {best.value}"
                sys.exit(f"{instance.name} m={m}: {wrong}")
            rows.append(row)
            print(line(row), flush=True)
    return rows


def line(row: Row) -> str:
    outcome, known = row.outcome, row.bks
    gap = "" if row.gap is None else f"{row.gap:6.2f}"
    bound = "-" if outcome.bound is None else f"{float(outcome.bound):8.2f}".rstrip("0").rstrip(".")
    return (
        f"{row.instance.name:6} {row.instance.n:>3} {row.m:>1} {outcome.value:>5} {bound:>8} "
        f"{'yes' if outcome.proven else 'no':6} {known.value if known else '':>5} "
        f"{known.kind if known else '':10} {gap:>6} {outcome.seconds:5.1f}"
    )


def summary(rows: list[Row]) -> None:
    optima = [row for row in rows if row.bks is not None and row.bks.optimal]
    gaps = [row.gap for row in rows if row.gap is not None]
    print(
        f"runs: {len(rows)}; proven optimal: {sum(row.outcome.proven for row in rows)}/{len(rows)}; "
        f"published optima reproduced and proven: {sum(row.reproduced for row in rows)}/{len(optima)}"
    )
    if gaps:
        print(
            f"at the BKS or better: {sum(g <= 0 for g in gaps)}/{len(gaps)}; gap to BKS %: median "
            f"{statistics.median(gaps):.2f}, mean {statistics.fmean(gaps):.2f}, max {max(gaps):.2f}"
        )
    bounded = [row for row in rows if row.outcome.bound is not None and row.outcome.value > 0]
    if bounded:
        own = [100.0 * float(row.outcome.bound - row.outcome.value) / row.outcome.value for row in bounded]
        print(f"own gap (bound − value) / value %: median {statistics.median(own):.2f}, max {max(own):.2f}")
    seconds = [row.outcome.seconds for row in rows]
    print(
        f"seconds: median {statistics.median(seconds):.1f}, max {max(seconds):.1f}, total {sum(seconds):.0f}"
    )
    print(f"peak memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--instances", nargs="+", help="names or globs, e.g. c101 'rc1*' pr01")
    parser.add_argument("--m", nargs="+", type=int, default=[1], help="tours per run (default 1)")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--engine", choices=("dp", "cpsat"), default="dp")
    parser.add_argument("--workers", type=int, default=2, help="CP-SAT workers (cpsat engine)")
    parser.add_argument("--seed", type=int, default=0, help="CP-SAT seed (cpsat engine)")
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    args = parser.parse_args()
    if args.time_limit <= 0:
        parser.error("--time-limit must be positive")
    if any(m < 1 for m in args.m):
        parser.error("--m values must be at least 1")
    summary(run(args))


if __name__ == "__main__":
    main()
