"""`tripwright run`: benchmark trials with resume, retries and backends.

`config` (what decides a record; the config hash), `seeds` (trial seeds), `tasks` (lenient task
reading), `records` (the §7.8 lines), `log` (resume), `cast` and `planner` (agent, users and the
cached oracle planner), `trial` (one trial with retries), `pool` and `ray_backend` (backends),
`run` (the orchestration), `setup` (checks before the first trial).
"""
