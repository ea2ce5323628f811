"""The plain-text layout of earnings-call transcripts (one paragraph, no speaker labels; see
``parsers.transcripts``): pseudo-turns of ~150-300 words cut at sentence ends, never across the start of the Q&A
or of a question, and one span per exchange."""

from __future__ import annotations

import bisect
import re
from pathlib import Path

from parsers.transcript_turns import ANNOUNCE, HEAD, Turn, announced_analyst, fold, looks_like_call
from schema.errors import ParseError
from schema.models import DocumentInfo, Page, SectionSpan

# Only the word before a sentence-ending "." is looked at to tell an abbreviation ("Mr.") from a sentence end:
# that word is never longer than this, so the look-back never grows with the distance to the previous cut.
_WORD_BACK = 64
_ABBREV = {"mr", "mrs", "ms", "dr", "st", "inc", "co", "corp", "ltd", "vs", "jr", "sr", "no", "u.s", "e.g", "i.e",
           "approx", "etc"}
_QA_START = re.compile(
    r"(?:we(?:'ll| will)? now (?:begin|open|move|be conducting|conduct|take|go)[^.?!]{0,60}?(?:question|q&a)|"
    r"let's (?:go to|move to|begin|start|open)[^.?!]{0,30}?(?:q&a|questions)|compile the q&a roster|"
    r"go to investor questions|open (?:up )?the (?:call|line|lines|floor) (?:up )?(?:to|for) questions|"
    r"(?:may|can|could) we (?:have|get) the first question|(?:at this time, )?we(?:'ll| will)? (?:now )?be "
    r"conducting a question[- ]and[- ]answer session)", re.I)
_QA_END = re.compile(r"(?:reached the end of (?:our|the) question|wraps up the q&a|concludes (?:our|the|today's) "
                     r"(?:question|q&a)|(?:there are )?no further questions|that concludes the q&a)", re.I)
_RETAIL = re.compile(r"(?:\b(?:[Tt]he|[Oo]ur) |(?<=[.?!] )|^)(?:[Ff]irst|[Nn]ext|[Ll]ast|[Ff]inal) (?:question|one) "
                     r"(?:is|was)\b,?:?\s+(?!from\b|covered\b|also covered\b)")


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sentence spans of text[start:end] (start/end at non-space characters)."""
    cuts = []
    for m in re.finditer(r"[.?!](?=\s+[\"'“A-Z0-9])", text[start:end]):
        pos = start + m.end()
        prev = re.search(r"([\w.]+)[.?!]$", text[max(cuts[-1] if cuts else start, pos - _WORD_BACK):pos])
        word = prev.group(1).lower() if prev else ""
        if m.group(0) == "." and (word in _ABBREV or re.fullmatch(r"[a-z]", word) or re.fullmatch(r"(?:[a-z]\.)+[a-z]", word)):
            continue
        cuts.append(pos)
    out = _between(text, start, end, cuts)
    # hard-split run-on "sentences" (speech-to-text without punctuation) at 300 words
    final = []
    for a, b in out:
        words = [m.start() + a for m in re.finditer(r"\S+", text[a:b])]
        if len(words) <= 300:
            final.append((a, b))
            continue
        for k in range(0, len(words), 250):
            ks = words[k]
            ke = words[k + 250] if k + 250 < len(words) else b
            final.append((ks, ke if ke == b else ke - 1))
    return final


def _chunks(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Group the sentences of text[start:end] into pseudo-turns of about 150-300 words."""
    sents = _sentences(text, start, end)
    if not sents:
        return []
    counts = [len(text[a:b].split()) for a, b in sents]
    total = sum(counts)
    n = max(1, round(total / 225))
    target = total / n
    ends, acc, k = [], 0, 1
    for (_, b), c in zip(sents, counts):
        acc += c
        if k < n and acc >= k * target:
            ends.append(b)
            k += 1
    return [(a, b) for a, b in _between(text, sents[0][0], end, ends) if text[a:b].strip()]


def _between(text: str, start: int, end: int, cuts: list[int]) -> list[tuple[int, int]]:
    """Contiguous spans of text[start:end] cut at ``cuts``; each span after a cut starts past its spaces."""
    out, s = [], start
    for pos in cuts:
        out.append((s, pos))
        s = pos
        while s < end and text[s] == " ":
            s += 1
    if s < end:
        out.append((s, end))
    return out


def parse_text(path: Path, raw: str, info: DocumentInfo, warnings: list[str]):
    text = fold(raw)
    if not looks_like_call(text[:HEAD]):
        raise ParseError(str(path), "text does not read like an earnings call (no call phrases such as "
                                    "'earnings call', 'listen-only mode' or 'thank you for joining' in the first 4 KB)")
    # exchange starts: the operator's announcement of an analyst, or a question read out by the host
    starts: list[tuple[int, str, str, str]] = []  # (pos, analyst, firm, kind)
    for m in ANNOUNCE.finditer(text):
        if m.start() < 500:
            continue
        lead = re.search(r"(?:(?:and|thank you)[,.]?\s+)?(?:(?:our|your|the)\s+)?$", text[max(0, m.start() - 20):m.start()],
                         re.I)
        pos = m.start() - (len(lead.group(0)) if lead else 0)
        name, firm = announced_analyst(text, m.end())
        if name and not all(re.fullmatch(r"[A-Za-z][A-Za-z'\-]*|(?:[A-Za-z]\.)+", w) for w in name.split()):
            # "the last question from say.com is ...": a question read out by the host
            starts.append((pos, "", "", "shareholder"))
            continue
        starts.append((pos, name, firm, "analyst"))
    first_analyst = starts[0][0] if starts else len(text)
    announced_at = sorted(p for p, *_ in starts)
    retail: list[tuple[int, str, str, str]] = []
    for m in _RETAIL.finditer(text):
        # questions read out by the host (Tesla's shareholder questions) come before the analysts' turn
        if m.start() < 500 or m.start() > first_analyst or re.match(r"(?:from|with)\b", text[m.end():m.end() + 5], re.I):
            continue
        k = bisect.bisect_left(announced_at, m.start() - 39)
        if k < len(announced_at) and announced_at[k] < m.start() + 40:
            continue  # the operator's announcement of the same question
        if retail and m.start() - retail[-1][0] < 40:
            continue  # the same question read out (matches come in order: only the last one can be this close)
        retail.append((m.start(), "", "", "shareholder"))
    starts = sorted(starts + retail)
    # drop announcements that sit inside the opening remarks (before any Q&A marker or the first 15% of the call)
    qa_marks = [m.start() for m in _QA_START.finditer(text) if m.start() > 500]
    first = starts[0][0] if starts else None
    qa_start = None
    if first is not None:
        before = [p for p in qa_marks if p < first and first - p < 3000]
        qa_start = before[-1] if before else first
    elif qa_marks:
        qa_start = qa_marks[-1]
        warnings.append("Q&A start found but no question announcements: Q&A kept as one span")
    else:
        warnings.append("no Q&A start found: the whole call is kept as prepared remarks")
    if qa_start is not None:
        # snap to the start of the sentence it sits in
        sent_start = max(text.rfind(". ", 0, qa_start), text.rfind("? ", 0, qa_start), text.rfind("! ", 0, qa_start))
        if sent_start != -1 and qa_start - sent_start < 200:
            qa_start = sent_start + 2
    qa_end = None
    if starts:
        ends = [m.start() for m in _QA_END.finditer(text) if m.start() > starts[-1][0]]
        if ends:
            e = ends[0]
            s = max(text.rfind(". ", 0, e), text.rfind("? ", 0, e))
            qa_end = s + 2 if s != -1 and e - s < 200 else e

    cuts = sorted({0, len(text), *(x for x in [qa_start, qa_end] if x is not None), *(p for p, *_ in starts)})
    pieces: list[tuple[int, int]] = []
    for a, b in zip(cuts, cuts[1:]):
        while a < b and text[a] == " ":
            a += 1
        while b > a and text[b - 1] == " ":
            b -= 1
        if a < b:
            pieces.extend(_chunks(text, a, b))
    pages = [Page(page=i, text=text[a:b]) for i, (a, b) in enumerate(pieces, 1)]

    ends = [b for _, b in pieces]

    def page_at(pos: int) -> int:
        """The page holding ``pos`` (or the first page after it): one binary search, not a scan."""
        return min(bisect.bisect_right(ends, pos) + 1, len(pieces))

    sections: list[SectionSpan] = []
    meta = []
    qa_page = page_at(qa_start) if qa_start is not None else len(pages) + 1
    if qa_page > 1:
        sections.append(SectionSpan(section="prepared_remarks", page_start=1, page_end=qa_page - 1,
                                    confidence=0.8))
    ex_pages: dict[int, int] = {}
    if starts:
        bounds = [p for p, *_ in starts] + [qa_end if qa_end is not None else len(text)]
        for n, ((pos, analyst, firm, kind), stop) in enumerate(zip(starts, bounds[1:]), 1):
            p0 = page_at(pos)
            p1 = page_at(stop) - 1 if stop < len(text) else len(pages)
            if p1 < p0:
                continue
            sections.append(SectionSpan(section="qa", title=f"Q&A exchange {n}", page_start=p0, page_end=p1,
                                        confidence=0.7,
                                        attrs={"exchange": str(n), "analyst": analyst, "firm": firm, "kind": kind}))
            for p in range(p0, p1 + 1):
                ex_pages[p] = n
    elif qa_start is not None:
        sections.append(SectionSpan(section="qa", page_start=qa_page, page_end=len(pages), confidence=0.5))
    for p in pages:
        meta.append(Turn(page=p.page, speaker=None, role=None, firm=None, kind="unknown",
                         section="qa" if p.page >= qa_page else "prepared_remarks", exchange=ex_pages.get(p.page),
                         prefix_len=0))
    return pages, sections, meta, text, {}
