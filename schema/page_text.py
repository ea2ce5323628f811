"""Conventions of ``Page.text`` shared by the parsers (which produce it) and the vectorstore (which cuts it):
running headers and footers that repeat at the edges of a document's pages, how a page over its size
limit is cut, and how a transcript's page (one speaker turn) names its speaker."""

from __future__ import annotations

import math
import re
from collections import Counter

from schema.models import Page

def strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` of ``text`` without the whitespace at either end (spans stay exact substrings of a page)."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


HEADER_EDGE = 3  # running headers / footers are looked for among the first / last lines of a page
_DIGITS = re.compile(r"\d+")
PAGE_NUMBER = re.compile(r"^[-–—\s]*(#|第#页|第 # 页|#/#|# / #|page #|Page #)[-–—\s]*$")


def line_pattern(line: str) -> str:
    """A line with its digit runs replaced by '#', so page numbers and years do not tell pages apart."""
    return _DIGITS.sub("#", line.strip())


def repeated_lines(pages: list[Page], edge: int = HEADER_EDGE, min_share: float = 0.3, min_pages: int = 3) -> set[str]:
    """Running headers / footers: the exact lines (as they appear in ``Page.text``) among the first or last
    ``edge`` lines of a page whose digit-blind pattern recurs at a page edge on at least ``min_share`` of the
    pages (and at least ``min_pages`` pages). Bare page numbers ("63", "- 12 -", "第5页") at page edges count."""
    counts: Counter[str] = Counter()
    edges: list[list[str]] = []
    for p in pages:
        lines = p.text.split("\n") if p.text else []
        ends = lines[:edge] + lines[-edge:] if len(lines) > 2 * edge else lines
        edges.append(ends)
        counts.update({line_pattern(x) for x in ends})
    need = max(min_pages, math.ceil(min_share * len(pages)))
    frequent = {pat for pat, n in counts.items() if n >= need and pat}
    out: set[str] = set()
    for ends in edges:
        for x in ends:
            pat = line_pattern(x)
            if pat in frequent or (len(pages) >= min_pages and PAGE_NUMBER.match(pat)):
                out.add(x)
    return out


def cap_text(text: str, limit: int) -> tuple[str, bool]:
    """Cut at the last line break at or before ``limit`` (at ``limit`` if none); (text, was_cut)."""
    if len(text) <= limit:
        return text, False
    cut = text.rfind("\n", 0, limit + 1)
    return text[: cut if cut > 0 else limit].rstrip(), True


# ------------------------------------------------------------------------------ transcript speaker turns
# A transcript's page is one turn: "Name (Role): speech" for management, "Name (Analyst, Firm): speech" for an
# analyst, "Operator: speech" for the operator, "Name: speech" when the role is unknown, and no prefix at all in
# plain-text calls that carry no speaker labels.
SPEAKER_KINDS = ("management", "analyst", "operator")
_TURN = re.compile(r"^(?:(Operator): |[A-Z][\w.'’-]*(?: [A-Za-z][\w.'’-]*){0,5} \((Analyst)?[^()\n]*\): )")


def turn_prefix(speaker: str, kind: str, role: str | None, firm: str | None) -> str:
    """The prefix of a turn's page text (see above)."""
    if kind == "operator":
        return "Operator: "
    if kind == "analyst":
        inner = ", ".join(x for x in ("Analyst", firm) if x)
        return f"{speaker} ({inner}): "
    if role:
        return f"{speaker} ({role}): "
    return f"{speaker}: "


def turn_speaker(text: str) -> str | None:
    """"management", "analyst" or "operator" for a turn's page text; None when its prefix names no role."""
    m = _TURN.match(text or "")
    if not m:
        return None
    return "operator" if m.group(1) else "analyst" if m.group(2) else "management"
