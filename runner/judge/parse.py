"""Reading the judge's answers: rating words, XML with tag repair, and a regex fallback.

Models do not always write clean XML. Before parsing, the answer is cleaned (code fences, XML
comments and declarations dropped) and rebuilt from its recognisable tags: tag names are
matched loosely (spacing, case, hyphens, small misspellings, a dimension's leading word or its
Chinese title), a missing `<response>` wrapper is added, tags left open are closed, stray
closing tags are dropped, and any other `<`, `>` or `&` in the text is escaped. The rebuilt
document is read with ElementTree. Dimensions still missing (an answer in prose, or characters
XML forbids) are looked for by regex: the dimension's name or title, then a `<rating>` tag, an
"评级：" line or the first rating word after it.
"""

from __future__ import annotations

import difflib
import html
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from runner.judge.prompts import DIMENSIONS, RATING_WORDS, TITLES

FIELDS = ("reasoning", "rating")
ROOT = "response"
CANONICAL = (*DIMENSIONS, *FIELDS, ROOT)
LEADING_WORDS = {"hallucination": DIMENSIONS[0], "tool_usage": DIMENSIONS[1], "interaction": DIMENSIONS[2]}
LEADING_WORDS |= {"conflict": DIMENSIONS[3], "plan_human": DIMENSIONS[4]}
BY_TITLE = {title: dim for dim, title in TITLES.items()}
FUZZY_CUTOFF = 0.8

_FENCE = re.compile(r"^[ \t]*```[\w-]*[ \t]*$", re.MULTILINE)
_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.DOTALL)
_DECLARATION = re.compile(r"<\?.*?\?>", re.DOTALL)
_TAG = re.compile(r"<\s*(/?)\s*([^<>/\s][^<>/]*?)\s*(/?)\s*>")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_RATING_PREFIX = re.compile(r"^\s*评级\s*[:：]")
_RATING_TAG = re.compile(r"<\s*rating\s*>(.*?)<", re.DOTALL | re.IGNORECASE)
_RATING_LINE = re.compile(r"评级\s*[:：]([^\n]*)")
_REASONING_TAG = re.compile(r"<\s*reasoning\s*>(.*?)(?:<\s*/\s*reasoning\s*>|<\s*rating|$)", re.DOTALL)
_REASONING_LINE = re.compile(r"理由\s*[:：]([^\n]*)")
_META_BLOCK = re.compile(r"<meta_evaluation>.*?</meta_evaluation>", re.DOTALL)


@dataclass(frozen=True)
class Judgement:
    """The ratings (1–5) and reasons read from one answer; `fallback` names the dimensions the
    regex fallback found (the others came from the XML)."""

    ratings: dict[str, int]
    reasoning: dict[str, str]
    fallback: tuple[str, ...] = ()


def rating_value(text: str) -> int | None:
    """1–5 for a rating word (a leading "评级：" is ignored): the exact word, else the first of
    极差, 较差, 一般, 较好, 优秀 that the text contains; None when it holds none."""
    word = _RATING_PREFIX.sub("", text).strip()
    if word in RATING_WORDS:
        return RATING_WORDS.index(word) + 1
    return next((value for value, known in enumerate(RATING_WORDS, start=1) if known in word), None)


def canonical_tag(name: str) -> str | None:
    """The tag a loosely written name stands for (a dimension, reasoning, rating, response), or None."""
    key = re.sub(r"[\s\-_]+", "_", name.strip().lower())
    if key in CANONICAL:
        return key
    if name.strip() in BY_TITLE:
        return BY_TITLE[name.strip()]
    leading = next((dim for word, dim in LEADING_WORDS.items() if key.startswith(word)), None)
    if leading is not None:
        return leading
    close = difflib.get_close_matches(key, CANONICAL, n=1, cutoff=FUZZY_CUTOFF)
    return close[0] if close else None


def clean(text: str) -> str:
    """The answer without code fences, XML comments and declarations, or control characters."""
    text = _FENCE.sub("", text)
    text = _COMMENT.sub("", text)
    text = _DECLARATION.sub("", text)
    return _CONTROL.sub("", text)


def repair(text: str) -> str:
    """A well-formed `<response>` document rebuilt from the recognisable tags of a cleaned answer."""
    out: list[str] = []
    stack: list[str] = []
    at = 0
    for match in _TAG.finditer(text):
        _text(out, stack, text[at : match.start()])
        at = match.end()
        name = canonical_tag(match.group(2))
        if name is None:
            _text(out, stack, match.group(0))
        elif match.group(1):
            _close(out, stack, name)
        else:
            _open(out, stack, name)
            if match.group(3):
                _close(out, stack, name)
    _text(out, stack, text[at:])
    while stack:
        out.append(f"</{stack.pop()}>")
    return "".join(out) or f"<{ROOT}></{ROOT}>"


def _text(out: list[str], stack: list[str], text: str) -> None:
    """Text counts only inside reasoning or rating; it is unescaped, then escaped once."""
    if stack and stack[-1] in FIELDS and text:
        out.append(html.escape(html.unescape(text), quote=False))


def _open(out: list[str], stack: list[str], name: str) -> None:
    if name == ROOT:
        if not stack:
            stack.append(ROOT)
            out.append(f"<{ROOT}>")
        return
    if name in FIELDS:
        if not stack or stack[-1] not in (*DIMENSIONS, *FIELDS):
            return
        if stack[-1] in FIELDS:
            out.append(f"</{stack.pop()}>")
    else:
        while stack and stack[-1] != ROOT:
            out.append(f"</{stack.pop()}>")
        if not stack:
            stack.append(ROOT)
            out.append(f"<{ROOT}>")
    stack.append(name)
    out.append(f"<{name}>")


def _close(out: list[str], stack: list[str], name: str) -> None:
    """Close `name` and whatever is still open inside it; a closing tag with nothing to close is dropped."""
    if name not in stack:
        return
    while stack:
        top = stack.pop()
        out.append(f"</{top}>")
        if top == name:
            return


def parse_judgement(answer: str) -> Judgement:
    """Every dimension's rating and reason that can be read from `answer` (possibly none)."""
    cleaned = clean(answer)
    ratings: dict[str, int] = {}
    reasoning: dict[str, str] = {}
    try:
        root = ET.fromstring(repair(cleaned))
    except ET.ParseError:
        root = None
    for dim in DIMENSIONS:
        element = None if root is None else root.find(dim)
        value = None if element is None else rating_value(element.findtext("rating") or "")
        if element is not None and value is not None:
            ratings[dim] = value
            reasoning[dim] = (element.findtext("reasoning") or "").strip()
    found = _fallback(cleaned, [dim for dim in DIMENSIONS if dim not in ratings])
    for dim, (value, reason) in found.items():
        ratings[dim], reasoning[dim] = value, reason
    order = {dim: ratings[dim] for dim in DIMENSIONS if dim in ratings}
    return Judgement(order, {dim: reasoning[dim] for dim in order}, tuple(found))


def _fallback(text: str, missing: list[str]) -> dict[str, tuple[int, str]]:
    """Ratings of the `missing` dimensions found by regex in the text between dimension names."""
    starts = sorted((position, dim) for dim in DIMENSIONS if (position := _mention(text, dim)) is not None)
    found: dict[str, tuple[int, str]] = {}
    for index, (position, dim) in enumerate(starts):
        if dim not in missing:
            continue
        end = starts[index + 1][0] if index + 1 < len(starts) else len(text)
        segment = text[position:end]
        value = _segment_rating(segment)
        if value is not None:
            found[dim] = (value, _segment_reasoning(segment))
    return found


def _mention(text: str, dim: str) -> int | None:
    """Where the text first names `dim`: its name (hyphens or spaces for underscores) or title."""
    spelled = dim.replace("_", r"[\s_\-]*")
    match = re.search(f"{spelled}|{TITLES[dim]}", text, re.IGNORECASE)
    return None if match is None else match.start()


def _segment_rating(segment: str) -> int | None:
    for pattern in (_RATING_TAG, _RATING_LINE):
        match = pattern.search(segment)
        if match is not None and (value := rating_value(match.group(1))) is not None:
            return value
    return _earliest_word(segment)


def _earliest_word(segment: str) -> int | None:
    """The rating of the rating word that appears first in the segment."""
    places = [(at, value) for value, word in enumerate(RATING_WORDS, 1) if (at := segment.find(word)) >= 0]
    return min(places)[1] if places else None


def _segment_reasoning(segment: str) -> str:
    for pattern in (_REASONING_TAG, _REASONING_LINE):
        match = pattern.search(segment)
        if match is not None:
            return match.group(1).strip()
    return ""


def parse_meta(answer: str) -> tuple[int, str] | None:
    """The meta-judge's (rating 1–5, reasoning): its `<meta_evaluation>` block read as XML (no
    repair), else the first `<rating>` and `<reasoning>` found by regex; None when not rated."""
    cleaned = clean(answer)
    block = _META_BLOCK.search(cleaned)
    if block is not None:
        try:
            root = ET.fromstring(block.group(0))
        except ET.ParseError:
            root = None
        value = None if root is None else rating_value(root.findtext("rating") or "")
        if root is not None and value is not None:
            return value, (root.findtext("reasoning") or "").strip()
    match = _RATING_TAG.search(cleaned)
    value = None if match is None else rating_value(match.group(1))
    if value is None:
        return None
    reason = _REASONING_TAG.search(cleaned)
    return value, "" if reason is None else reason.group(1).strip()
