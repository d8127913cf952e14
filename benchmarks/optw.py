"""The oracle's routing core on the public OPTW / TOPTW instances of ../shared/optw.

Per (instance, m): N, m, the profit found, CP-SAT's bound, status, the published best value
(bks.csv) and whether it is a proven optimum, the gap to it in %, whether a proven optimum was
reproduced (value = optimum, status OPTIMAL), seconds, and — for the Solomon m = 1 instances —
whether the Righini–Salani route, fed as a fixed full hint, is accepted with its profit. Every
tour found is replayed by the independent checker. Then a summary and peak memory.

Default: the 29 Solomon 1-series instances with m = 1, and pr01–pr10 with m = 1..4 (69 runs,
10 s each, 2 workers: 705 s measured on 2 cores). Usage:
    python benchmarks/optw.py [--instances c101 'r1*' pr01] [--m 1 2] [--time-limit 10]
                              [--workers 2] [--seed 0] [--shared ../shared]
"""

from __future__ import annotations

import argparse
import fnmatch
import resource
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

from solver.oracle.optw import (
    Bks,
    Instance,
    LoggedRoute,
    OptwResult,
    parse_instance,
    read_bks,
    read_logged_routes,
    replay,
    solve_optw,
)

ROOT = Path(__file__).resolve().parents[1]
SOLOMON_1 = (
    [f"c10{i}" for i in range(1, 10)]
    + [f"r1{i:02d}" for i in range(1, 13)]
    + [f"rc10{i}" for i in range(1, 9)]
)
CORDEAU_A = [f"pr{i:02d}" for i in range(1, 11)]


@dataclass(frozen=True)
class Row:
    """One benchmark line."""

    instance: Instance
    m: int
    result: OptwResult
    bks: Bks | None
    hint_ok: bool | None

    @property
    def gap(self) -> float | None:
        if self.bks is None:
            return None
        return 100.0 * (self.bks.value - self.result.value) / self.bks.value

    @property
    def reproduced(self) -> bool:
        return (
            self.bks is not None
            and self.bks.optimal
            and self.result.status == "OPTIMAL"
            and self.result.value == self.bks.value
        )


def files(shared: Path, patterns: list[str] | None) -> list[Path]:
    """Instance files matching the names or globs (default: Solomon 1-series and pr01–pr10)."""
    every = sorted((shared / "optw").glob("*/*.txt"))
    wanted = patterns or [*SOLOMON_1, *CORDEAU_A]
    chosen = [path for path in every if any(fnmatch.fnmatch(path.stem, p) for p in wanted)]
    missing = [p for p in wanted if not any(fnmatch.fnmatch(path.stem, p) for path in every)]
    if missing:
        sys.exit(f"no instance matches {', '.join(missing)}")
    return sorted(chosen, key=lambda path: (path.parent.name != "solomon", path.stem))


def hint_accepted(instance: Instance, route: LoggedRoute, args: argparse.Namespace) -> bool:
    """The logged route, fixed as a full hint, is feasible with exactly its profit."""
    fixed = solve_optw(
        instance, 1, args.time_limit, args.workers, args.seed, hint=[route.tour], fix_hint=True
    )
    return fixed.status in ("OPTIMAL", "FEASIBLE") and fixed.value == route.profit


def run(args: argparse.Namespace) -> list[Row]:
    optw = args.shared / "optw"
    bks = read_bks(optw / "bks.csv")
    routes = read_logged_routes(optw / "righini_salani_solomon_m1_routes.csv")
    logged = {route.instance: route for route in routes}
    rows = []
    print(
        f"{'inst':6} {'N':>3} {'m':>1} {'value':>5} {'bound':>5} {'status':8} {'bks':>5} {'kind':10} "
        f"{'gap%':>6} {'repro':5} {'hint':4} {'s':>5}"
    )
    for path in files(args.shared, args.instances):
        instance = parse_instance(path)
        for m in args.m or ([1] if path.parent.name == "solomon" else [1, 2, 3, 4]):
            result = solve_optw(instance, m, args.time_limit, args.workers, args.seed)
            played = replay(instance, result.tours)
            if not played.feasible or played.profit != result.value:
                sys.exit(f"{instance.name} m={m}: the solver's tours do not replay: {played.error}")
            route = logged.get(instance.name) if m == 1 else None
            hint = None if route is None else hint_accepted(instance, route, args)
            row = Row(instance, m, result, bks.get((instance.name, m)), hint)
            rows.append(row)
            print(line(row), flush=True)
    return rows


def line(row: Row) -> str:
    result, known = row.result, row.bks
    gap = "" if row.gap is None else f"{row.gap:6.2f}"
    hint = "" if row.hint_ok is None else ("ok" if row.hint_ok else "FAIL")
    return (
        f"{row.instance.name:6} {row.instance.n:>3} {row.m:>1} {result.value:>5} {result.bound or '-':>5} "
        f"{result.status:8} {known.value if known else '':>5} {known.kind if known else '':10} {gap:>6} "
        f"{'yes' if row.reproduced else '':5} {hint:4} {result.seconds:5.1f}"
    )


def summary(rows: list[Row]) -> None:
    optima = [(row, row.bks.value) for row in rows if row.bks is not None and row.bks.optimal]
    gaps = [row.gap for row in rows if row.gap is not None]
    hints = [row.hint_ok for row in rows if row.hint_ok is not None]
    wrong = [
        row
        for row, best in optima
        if row.result.value > best or (row.result.bound is not None and row.result.bound < best)
    ]
    print(f"runs: {len(rows)}; proven optima reproduced: {sum(row.reproduced for row in rows)}/{len(optima)}")
    print(
        f"OPTIMAL status: {sum(row.result.status == 'OPTIMAL' for row in rows)}/{len(rows)}; "
        f"at the BKS or better: {sum(g <= 0 for g in gaps)}/{len(gaps)}"
    )
    if gaps:
        print(
            f"gap to BKS %: median {statistics.median(gaps):.2f}, mean {statistics.fmean(gaps):.2f}, "
            f"max {max(gaps):.2f}"
        )
    print(
        f"seconds: median {statistics.median(row.result.seconds for row in rows):.1f}, "
        f"total {sum(row.result.seconds for row in rows):.0f}"
    )
    if hints:
        print(f"Righini-Salani routes accepted as fixed hints: {sum(hints)}/{len(hints)}")
    print(f"value above or bound below a proven optimum: {len(wrong)}")
    print(f"peak memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--instances", nargs="+", help="names or globs, e.g. c101 'rc1*' pr01")
    parser.add_argument("--m", nargs="+", type=int, help="tours (default: 1 for Solomon, 1..4 for Cordeau)")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    args = parser.parse_args()
    if args.time_limit <= 0:
        parser.error("--time-limit must be positive")
    summary(run(args))


if __name__ == "__main__":
    main()
