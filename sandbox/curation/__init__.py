"""Build-time curation, run by hand (never at runtime): the scripts that write the real data in
`sandbox/data/` from openly licensed sources, and their helpers (docs/world.md).

`python -m sandbox.curation.cities` (cities and airports), `python -m sandbox.curation.real_places`
(real places), `python -m sandbox.curation.timetable_data` (trains, flights, stations).
"""
