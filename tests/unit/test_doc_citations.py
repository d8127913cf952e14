"""Code cites this repository's docs, never the shared specs: every `docs/FILE.md#anchor` named in
a module resolves to a heading of that doc, and no module cites a section of the shared spec or notes."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("verifier", "sandbox", "solver", "runner", "tests", "benchmarks", "scripts")
CITATION = re.compile(r"docs/([a-z_]+\.md)(?:#([\w-]+))?")


def slug(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub) gives a heading: lower case, punctuation dropped,
    spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(doc: Path) -> set[str]:
    headings = re.findall(r"^#+ (.+)$", doc.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return {slug(heading) for heading in headings}


def _modules() -> list[Path]:
    return sorted(
        path for folder in SOURCES for path in (ROOT / folder).rglob("*.py") if ".venv" not in path.parts
    )


def test_every_cited_doc_and_anchor_exists() -> None:
    anchors = {doc.name: _anchors(doc) for doc in (ROOT / "docs").glob("*.md")}
    cited = 0
    wrong = []
    for path in _modules():
        for name, anchor in CITATION.findall(path.read_text(encoding="utf-8")):
            cited += 1
            if name not in anchors or (anchor and anchor not in anchors[name]):
                wrong.append(f"{path.relative_to(ROOT)}: docs/{name}#{anchor}")
    assert cited > 50
    assert wrong == []


def test_no_module_cites_the_shared_specs() -> None:
    this = Path(__file__).resolve()
    found = [
        str(path.relative_to(ROOT))
        for path in _modules()
        if path != this and re.search(r"(spec|DESIGN) §", path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_slug_follows_the_renderer() -> None:
    assert slug("Validation (first failure wins)") == "validation-first-failure-wins"
    assert slug("`tripwright rescore`") == "tripwright-rescore"
    assert slug("Opening hours: semantics") == "opening-hours-semantics"
    assert slug("The `official` profile") == "the-official-profile"


def test_links_between_docs_resolve() -> None:
    docs = {doc.name: doc for doc in (ROOT / "docs").glob("*.md")}
    anchors = {name: _anchors(doc) for name, doc in docs.items()}
    wrong = []
    for name, doc in sorted(docs.items()):
        for target, anchor in re.findall(
            r"\]\(([a-z_]*\.md)?(?:#([\w-]+))?\)", doc.read_text(encoding="utf-8")
        ):
            page = target or name
            if page not in anchors or (anchor and anchor not in anchors[page]):
                wrong.append(f"docs/{name}: {target}#{anchor}")
    assert wrong == []
