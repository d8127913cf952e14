"""The run report: `report.md` and a self-contained `report.html` from a runs file.

`inputs` reads the files, `scores` re-scores the trials with the official aggregation,
`figures` computes the figures (ours against the oracle, tool use, completion reasons, the LLM
judge), `plots` draws them with matplotlib, `trajectory` lays one episode out, `sections`
assembles the document (`document` blocks) and `markdown` / `html` render it.
"""
