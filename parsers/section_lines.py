"""What the section finders of every market share (``parsers.sections_us``, ``sections_cn``, ``sections_hk``): the
document as numbered lines, heading candidates, table-of-contents marking, chaining candidates into order, and
turning a heading and the next one into a :class:`SectionSpan` (with pointer sections detected)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from schema.models import Page, SectionSpan


@dataclass
class Line:
    idx: int  # global line index
    page: int  # index into pages
    char: int  # offset of the line in the page text
    text: str


@dataclass
class Cand:
    key: str  # item / chapter / section key
    section: str
    order: float
    line: Line
    title: str
    quality: float
    toc: bool = False
    attrs: dict[str, str] = field(default_factory=dict)


def read_lines(pages: list[Page]) -> list[Line]:
    out: list[Line] = []
    for pi, p in enumerate(pages):
        pos = 0
        for raw in p.text.split("\n"):
            text = raw.strip()
            if text:
                out.append(Line(len(out), pi, pos + (len(raw) - len(raw.lstrip())), text))
            pos += len(raw) + 1
    return out


PAGE_NO = re.compile(r"(?:\.{2,}|…+|\s)\s*(?:\d{1,3}|[ivxlc]{1,6}|[A-Z]-\d{1,3}|\d{1,3}\s*[-–]\s*\d{1,3})\s*$", re.I)
_BARE_NO = re.compile(r"^(?:\d{1,3}|[ivxlc]{1,6}|[A-Z]-\d{1,3})$", re.I)


def mark_toc(cands: list[Cand], lines: list[Line], page_words: re.Pattern | None = None) -> None:
    """Flag TOC entries: numbered line ends, bare page number on the next line, contents pages."""
    for c in cands:
        tail = c.line.text
        if PAGE_NO.search(tail) and not re.search(r"(?i)(10-K|20-F|10-Q|\[reserved\])\s*$", tail):
            c.toc = True
        nxt = lines[c.line.idx + 1] if c.line.idx + 1 < len(lines) else None
        if nxt is not None and nxt.page == c.line.page and _BARE_NO.match(nxt.text) and nxt.idx + 1 < len(lines) \
                and lines[nxt.idx + 1].page == c.line.page:
            # "Item 1A." / "Risk Factors" / "5" laid out in columns; a page footer is the last line
            c.toc = True
        if re.search(r"(\.{4,}|…{2,})", tail):
            c.toc = True
    by_page: dict[int, list[Cand]] = {}
    for c in cands:
        by_page.setdefault(c.line.page, []).append(c)
    for page, group in by_page.items():
        if len(group) < 3:
            continue
        numbered = sum(c.toc for c in group)
        idxs = sorted(c.line.idx for c in group)
        between = [ln for ln in lines[idxs[0] : idxs[-1] + 1] if len(ln.text) > 110 and not any(
            ln.idx == c.line.idx for c in group)]
        contents = page_words is not None and any(
            page_words.search(ln.text) for ln in lines if ln.page == page and len(ln.text) < 40)
        if (numbered >= 0.5 * len(group) and len(group) >= 4) or (not between and len(group) >= 5) or (
                contents and not between):
            for c in group:
                c.toc = True


def chain_candidates(cands: list[Cand]) -> list[Cand]:
    """Best chain of candidates strictly increasing in ``order`` and in position (sum of quality)."""
    cands = sorted(cands, key=lambda c: c.line.idx)
    n = len(cands)
    if not n:
        return []
    best = [c.quality for c in cands]
    prev = [-1] * n
    for j in range(n):
        for i in range(j):
            if cands[i].order < cands[j].order and cands[i].line.idx < cands[j].line.idx:
                v = best[i] + cands[j].quality
                if v > best[j] + 1e-9:
                    best[j], prev[j] = v, i
    j = max(range(n), key=lambda k: (best[k], -k))
    out = []
    while j >= 0:
        out.append(cands[j])
        j = prev[j]
    return out[::-1]


# ---------------------------------------------------------------------------------- span helpers


def _span_text(pages: list[Page], lines: list[Line], start: int, end: int) -> str:
    """Text from line ``start`` (included) to line ``end`` (excluded)."""
    return "\n".join(ln.text for ln in lines[start:end])


def _make_span(pages: list[Page], lines: list[Line], section: str, title: str, start: int, end: int,
               confidence: float, attrs: dict[str, str] | None = None) -> SectionSpan:
    a, b = lines[start], lines[end - 1]
    if end < len(lines):
        nxt = lines[end]
        if nxt.page == b.page:
            char_end = nxt.char
        else:
            char_end = None
    else:
        char_end = None
    return SectionSpan(section=section, title=title, page_start=pages[a.page].page, char_start=a.char,
                       page_end=pages[b.page].page, char_end=char_end, confidence=round(confidence, 2),
                       attrs=dict(attrs or {}))


_POINTER_EN = re.compile(
    r"incorporated\s+(?:herein\s+|in\s+this\s+item\s+|into\s+this\s+item\s+)?by\s+reference|"
    r"\brefer\s+to\s+(?:pages?|the\s+(?:section|information|discussion))|can\s+be\s+found\s+(?:in|under)|"
    r"(?:is|are)\s+(?:included|contained|set\s+forth|presented|provided)\s+(?:in|under|on)\s+(?:the\s+)?(?:section|pages?|[\"“']|our|item|part)|"
    r"no\s+material\s+changes?\s+(?:to|from|in)\s+(?:the|our)?\s*risk\s+factors|"
    r"(?:previously\s+)?(?:disclosed|described|discussed)\s+(?:in|under)\s+(?:our|the|part|item)\b|"
    r"\bsee\s+(?:[\"“']|the\s+section|item|part|pages?)|appears?\s+(?:in|under|on)\s+(?:the\s+)?(?:section|pages?|[\"“'])",
    re.I)
_POINTER_ZH = re.compile(r"详见|詳見|请参阅|請參閱|请参见|請參見|参见|參見|载于|載於|见本报告")


_SENTENCE = re.compile(r"[^.!?。；;\n]+(?:[.!?。；;]+|$)", re.M)


def _pointer(body: str, words: int) -> str | None:
    """The pointer sentence when a short body only points elsewhere: the sentences that do not point
    elsewhere hold at most ~60 words (a table of repurchases under a pointer keeps the section real)."""
    if words > 400:
        return None
    first = None
    rest = 0
    for m in _SENTENCE.finditer(body):
        sent = m.group(0)
        if _POINTER_EN.search(sent) or _POINTER_ZH.search(sent):
            first = first or sent.strip()
        else:
            rest += _words(sent)
    if first is None or rest > 60:
        return None
    return first[:300]


def _words(text: str) -> int:
    cjk = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    return len(re.findall(r"[A-Za-z0-9][\w'’.,-]*", text)) + cjk // 2


def finish(pages: list[Page], lines: list[Line], section: str, title: str, start: int, end: int,
            confidence: float, attrs: dict[str, str], min_words: int = 0) -> SectionSpan:
    body = _span_text(pages, lines, start + 1, end)
    words = _words(body)
    ptr = _pointer(body, words)
    span = _make_span(pages, lines, section, title, start, end, confidence, attrs)
    span.attrs["words"] = str(words)
    if ptr is not None:
        span.pointer = True
        span.confidence = 0.2
        span.attrs["pointer_text"] = ptr
    elif min_words and words < min_words:
        span.confidence = round(min(span.confidence, 0.5), 2)
    return span
