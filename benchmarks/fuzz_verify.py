"""Throw seeded fuzz at `verify` in both profiles; every input must give a Verdict, never an exception.

Inputs: the sample plans of `tripwright sample` (greedy, quirk, broken; checked against the
sample world) mutated at random (delete / retype / duplicate a node, 1–4 times), random JSON
values as whole plans, and random effective / inferred tables.
Prints the count, the time and every exception (there must be none). Usage:
    python benchmarks/fuzz_verify.py [--count 100000] [--seed 1]
"""

from __future__ import annotations

import argparse
import copy
import random
import time
import traceback
from typing import Any

from runner.sample.plans import build_sample
from verifier.referee import verify

SCALARS: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    3.5,
    -0.0,
    10**9,
    "",
    "09:00",
    "25:00",
    "All",
    "User1",
    "x",
)


def random_value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth >= 3 or roll < 0.6:
        return rng.choice(SCALARS)
    if roll < 0.8:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {
        rng.choice(["days", "type", "city", "location", "k"]): random_value(rng, depth + 1) for _ in range(2)
    }


def paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = []
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        found.append((*path, key))
        found.extend(paths(child, (*path, key)))
    return found


def mutate(rng: random.Random, plan: Any) -> Any:
    for _ in range(rng.randint(1, 4)):
        options = paths(plan)
        if not options:
            return plan
        path = rng.choice(options)
        parent = plan
        for key in path[:-1]:
            parent = parent[key]
        key, op = path[-1], rng.choice(("delete", "retype", "duplicate"))
        if op == "delete":
            del parent[key]
        elif op == "retype":
            parent[key] = random_value(rng)
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        else:
            parent[f"{key}_copy"] = copy.deepcopy(parent[key])
    return plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sample = build_sample()
    task, poi_db, world = sample.task, sample.poi_db, sample.world
    bases = list(sample.plans.values())
    failures: list[str] = []
    start = time.perf_counter()
    for number in range(args.count):
        roll = rng.random()
        plan = random_value(rng) if roll < 0.1 else mutate(rng, copy.deepcopy(rng.choice(bases)))
        effective = {"User1": random_value(rng)} if roll > 0.9 else None
        inferred = random_value(rng) if rng.random() < 0.2 else None
        for profile in ("official", "strict"):
            try:
                verify(
                    task,
                    plan,
                    profile=profile,
                    poi_db=poi_db,
                    world=world,
                    effective=effective,
                    inferred=inferred,
                )
            except Exception:
                failures.append(f"input {number} ({profile}):\n{traceback.format_exc()}")
    elapsed = time.perf_counter() - start
    print(f"fuzzed inputs: {args.count} (seed {args.seed}), both profiles: {2 * args.count} verdicts")
    print(f"time: {elapsed:.1f} s ({2 * args.count / elapsed:.0f} verdicts/s)")
    print(f"exceptions: {len(failures)}")
    for failure in failures[:5]:
        print(failure)
    raise SystemExit(1 if failures else 0)


if __name__ == "__main__":
    main()
