"""The headings a search unit sits under on its page: the words BM25 matches a unit by besides its own.

A page prints "International Streaming Segment" and the segment's table below it; when the page is cut into
units, the unit holding the table's rows no longer holds the heading, and a question naming the segment cannot
find it by keywords. :func:`unit_context` gives a unit the heading lines printed above it on its page (the page's
first heading and the two nearest above the unit); the index encodes them with the unit's text for BM25. The unit's
text, its citation and its dense vector stay as they are.

A heading line (:func:`is_heading`) is short, holds words and at most one figure (a year, a note's number), ends in
no sentence stop, and in Latin script has most of its longer words capitalised ("Results of Operations",
"CONSOLIDATED BALANCE SHEETS"); a line of a wrapped sentence does not ("in the year ended December 31").
"""

from __future__ import annotations

import re

from vectorstore.text_measure import CJK

HEADING_CHARS = 70  # a heading line is at most this long (stripped)
CJK_HEADING_CHARS = 32  # a numbered Chinese heading ("（三）主营业务分析"); one without a number at most 14
CJK_BARE_CHARS = 14
CONTEXT_LINES = 3  # the page's first heading and the two nearest above the unit
_FIGURE = re.compile(r"\d[\d,.]*")
_SENTENCE_STOP = re.compile(r"[.;,，。；、:：]$")
_NUMBERING = re.compile(r"^(?:[(（]?[0-9一二三四五六七八九十]+[)）.、．]|[A-Z][.)]|Note\s+\d+[.:]?|Item\s+\d+[A-Z]?[.:]?)\s*", re.I)
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’&-]*")
# a page number, a tick box, a wrapped line, a table's period columns ("Year Ended December 31, Change")
_NOT_A_HEADING = re.compile(r"^(?:page\s*)?\d+$|[□√☑■]|^[的之及和与或等及其中]|;\s|\b(?:years?|quarters?|months?|weeks?)\s+"
                            r"ended\b|\bas\s+of\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d", re.I)
# lower-case words a sentence has and a heading has not; a full stop inside the line
_SENTENCE_WORDS = re.compile(r"\b(?:is|are|was|were|which|that|who|has|have|had|will|would|be|been|we|our|its|their)\b|"
                             r"[a-z]\.\s+[A-Z]")
_SMALL = frozenset("a an and as at by for from in into of on or per the to vs with".split())


def is_heading(line: str) -> bool:
    """Is a page line a heading (see the module docstring)?"""
    s = line.strip()
    if len(s) < 3 or _SENTENCE_STOP.search(s):  # a sentence, a label ("Memberships:") or an intro ("...as follows:")
        return False
    if _NOT_A_HEADING.search(s):
        return False
    bare = _NUMBERING.sub("", s)
    if len(_FIGURE.findall(bare)) > 1:
        return False
    cjk = len(CJK.findall(bare))
    if cjk:
        limit = CJK_HEADING_CHARS if bare != s else CJK_BARE_CHARS
        return cjk >= 2 and len(s) <= limit and not re.search(r"[，。；]", s)
    if len(s) > HEADING_CHARS:
        return False
    latin = _LATIN_WORD.findall(bare)
    if not latin or sum(len(w) for w in latin) < 3:
        return False
    if _SENTENCE_WORDS.search(bare):
        return False
    longer = [w for w in latin if w.lower() not in _SMALL]
    if not longer or not (longer[0][0].isupper()):
        return False
    capitalised = sum(w[0].isupper() for w in longer)
    return capitalised >= 0.75 * len(longer) or len(longer) <= 4 and len(s) <= 40  # "Segment information"


def _headings(text: str, start: int, end: int) -> list[str]:
    """The heading lines that begin in ``text[start:end]``, in page order (whitespace folded). A Latin line the
    next line goes on from in lower case is a wrapped label ("Average monthly revenue per paying" / "membership")."""
    lines = text[start:end].split("\n")
    out = []
    for i, line in enumerate(lines):
        if not is_heading(line):
            continue
        nxt = next((x.strip() for x in lines[i + 1:] if x.strip()), "")
        if nxt[:1].islower() and not CJK.search(line):
            continue
        out.append(" ".join(line.split()))
    return out


def unit_context(text: str, content_start: int, unit_start: int) -> str | None:
    """The headings above a unit on its page: the page's first heading and the nearest one above the unit (one line
    when they are the same), or None when the unit starts before any heading (its page's own heading, if any, is in
    its text)."""
    found = _headings(text, content_start, unit_start)
    if found and _headings(text, unit_start, text.find("\n", unit_start) if "\n" in text[unit_start:] else len(text)):
        found = found[:1]  # the unit opens with a heading of its own: the ones just above head what came before it
    if not found:
        return None
    picked = list(dict.fromkeys([found[0], *found[-(CONTEXT_LINES - 1):]]))
    return "\n".join(picked)
