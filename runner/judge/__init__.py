"""The optional LLM judge (docs/runner.md#llm-judge): five rated dimensions of an episode, and a meta-judge.

`transcript` formats a run record for the judge, `prompts` holds the rubric (Chinese, our own
wording), `parse` reads the judge's XML answer (tag repair, regex fallback), `scores` turns
ratings into 0–100 figures (meta weighting, crashed trials, statistics) and `judge` drives the
model calls with their retry schedule. Nothing here runs unless `tripwright judge` is called.
"""
