"""The run report: `report.md` and a self-contained `report.html` from a runs file.

`inputs` reads the files; `official` re-scores the trials for the official aggregation;
`figures` (against the oracle), `frontier`, `tool_stats` and `judge_figures` compute the
figures; `plots` draws them with matplotlib (`fonts`: the CJK font); `trajectory` lays one
episode out; `episode_sections` shows elicitation, tool faults, unsolvable variants and intent
shifts; `sections` and `build` assemble the document (`document` blocks) that `markdown`
and `html` render.
"""
