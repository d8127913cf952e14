#!/usr/bin/env bash
# The main command: install tripwright in a local .venv, verify the embedded sample plans, run the oracle
# on the sample task and close with the baseline agents against it (files and reports in sample-out/).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e .
.venv/bin/tripwright sample --out sample-out "$@"
