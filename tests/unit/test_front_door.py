"""The README is a front door: it links every doc of `docs/` and its Layout names the four
packages, and every file it points a newcomer to exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_doc_is_linked() -> None:
    docs = sorted(path.name for path in (ROOT / "docs").glob("*.md"))
    assert docs
    assert [name for name in docs if f"](docs/{name})" not in README] == []


def test_the_layout_names_the_four_packages() -> None:
    layout = README.split("## Layout", 1)[1].split("\n## ", 1)[0]
    assert [
        name for name in ("verifier", "sandbox", "solver", "runner") if f"**`{name}/`**" not in layout
    ] == []


def test_every_file_the_readme_names_exists() -> None:
    named = set(re.findall(r"`((?:verifier|sandbox|solver|runner)/[\w/]+\.py)`", README))
    assert len(named) >= 10
    assert sorted(path for path in named if not (ROOT / path).is_file()) == []
