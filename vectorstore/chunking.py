"""Two-layer chunking: small search units inside larger context windows.

``chunk(info, pages, sections, doc_name, table_pages=None) -> (units, windows)``

* **Search units** (what is embedded and BM25-indexed) are about ``UNIT_TARGET`` = 220 words. Size is
  measured in *word equivalents*: Latin words (runs of non-space, non-CJK characters, numbers included)
  count 1, CJK ideographs count ``CJK_WEIGHT`` = 0.55 (so ~400 Chinese characters ~ 220 words; CJK
  punctuation counts 0). Mixed text adds both.
* A unit never crosses a page: ``unit.text == pages[unit.page - 1].text[unit.char_start:unit.char_end]``
  exactly, so a hit is a page-exact citation. Units carry no leading / trailing whitespace. A unit never crosses
  the start of a section either: a page where a section starts is cut there first, so a unit's ``section`` is
  the section of all its text.
* Each page's content (the page text without running header / footer lines at its top and bottom edges,
  found like ``parsers.pdf_pages.repeated_lines``) is cut into ``n`` units with ``n`` chosen so that each
  unit is between ~150 and ``UNIT_MAX_TARGET`` = 300 words (``n = max(round(W/220), ceil(W/300))``),
  so a 330-word page gives two units of ~165 rather than one of 220 and a 110-word orphan. A page with
  less than a unit's worth of text gives one short unit (it is never merged with the next page).
* Cuts are made at the piece boundary closest to the per-unit target, preferring sentence ends
  (``.``/``?``/``!``/``;`` followed by whitespace, ``。！？；``), then line breaks, then spaces / CJK commas,
  then (only for unpunctuated CJK runs) any character.
* **No overlap** between units: units tile each page's content exactly. Context comes from the window
  layer instead (an answer quotes the window), and overlap would cost ~15-25 % more embedding time,
  which is the expensive step on 2 cores.
* **Context windows** are runs of consecutive units (possibly across pages) within the same section and
  of the same kind, closed when they reach about ``WINDOW_TARGET`` = 650 words (usually three units).
  ``windows[window_id]`` is the text of those units' pages from the first unit's start to the last
  unit's end on each page, pages joined by a blank line.
* ``kind`` is ``"transcript"`` for ``info.form == "transcript"``; ``"table"`` for pages in
  ``table_pages`` / ``page_statements``, pages where most lines are mostly numbers (statements) and units of
  other pages whose characters are mostly figures (``FIGURE_SHARE``: a grid the text layer flattened); otherwise
  ``"narrative"``. A table page's prose (``prose_runs``: the MD&A sentences under a results table, a note's text
  under its grid) is cut apart from the grids and is ``"narrative"``. A table page's ``statement`` (income / balance / cashflow / equity) is the one its facts
  come from (``page_statements``), else the statement title heading the page
  (``mappings.statements.title_statement``), else ``None``.
* Transcripts (``form == "transcript"``): pages are speaker turns, so a unit never spans two turns and
  short turns give short units; no header / footer detection there. Each unit carries its turn's ``speaker``
  (management / analyst / operator, from the turn's prefix: ``schema.page_text.turn_speaker``).
* ``context`` is the heading lines printed above the unit on its page (``vectorstore.headings``): BM25 matches a
  unit by them too, so the rows of a table cut off from its heading ("International Streaming Segment") are found
  by the heading's words. Not part of ``text``; transcripts have none.
* ``section`` is the :class:`SectionSpan` covering the unit's start (the innermost / latest-starting one
  when spans nest), or ``None``.

Pure Python string operations: the FinanceBench corpus (~9.9k pages) chunks in a few seconds.
"""

from __future__ import annotations

import hashlib
import math
import re

from mappings.statements import title_statement
from schema.models import DocumentInfo, Page, SearchUnit, SectionSpan
from schema.page_text import HEADER_EDGE, repeated_lines, strip_span, turn_speaker
from vectorstore.headings import unit_context
from vectorstore.table_lines import FIGURE_SHARE, figure_share, is_table_page, prose_runs
from vectorstore.text_measure import words

UNIT_TARGET = 220.0  # word equivalents per search unit
UNIT_MAX_TARGET = 300.0  # a page is split so no unit's target exceeds this
WINDOW_TARGET = 650.0  # word equivalents per context window
PIECE_MAX = 60.0  # sentences longer than this are split further (at line breaks, then spaces)

# Boundaries, strongest first. Each regex matches the *separator*; a cut falls at its end.
_SENTENCE_END = re.compile(r"(?<=[.?!;])\s+(?=\S)|(?<=[。！？；])\s*(?=\S)")
_LINE = re.compile(r"\n")
_SOFT = re.compile(r"(?<=[，,、：])\s*(?=\S)|\s+")


# --------------------------------------------------------------------------------------------------
# running headers / footers (schema.page_text.repeated_lines, the rule the parsers use too)


def content_span(text: str, repeated: set[str], edge: int = HEADER_EDGE) -> tuple[int, int]:
    """``(start, end)`` of a page's text without the repeated lines that lead / trail it (only among
    its first / last ``edge`` lines) and without surrounding whitespace. ``start == end`` when nothing
    remains."""
    lines = text.split("\n")
    offsets = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    first, last = 0, len(lines)  # content lines [first, last)
    while first < min(edge, last) and (lines[first] in repeated or not lines[first].strip()):
        first += 1
    while last > max(first, len(lines) - edge) and (lines[last - 1] in repeated or not lines[last - 1].strip()):
        last -= 1
    if first >= last:
        return 0, 0
    start = offsets[first]
    end = offsets[last - 1] + len(lines[last - 1])
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


# --------------------------------------------------------------------------------------------------
# cutting one page


def _split(text: str, a: int, b: int, regexes: list[tuple[re.Pattern, int]], out: list[tuple[int, int, float, int]], strength_end: int) -> None:
    """Append pieces ``(start, end, words, strength_of_boundary_after)`` of ``text[a:b]``, splitting at
    the first regex's separators and recursing with the next regexes into pieces still too long."""
    if a >= b:
        return
    if not regexes:
        # unpunctuated run (long CJK text or a giant token): cut every ~PIECE_MAX word equivalents
        size = words(text[a:b])
        if size <= PIECE_MAX:
            out.append((a, b, size, strength_end))
            return
        n = math.ceil(size / PIECE_MAX)
        step = math.ceil((b - a) / n)
        for s in range(a, b, step):
            e = min(b, s + step)
            out.append((s, e, words(text[s:e]), strength_end if e == b else 0))
        return
    regex, strength = regexes[0]
    spans: list[tuple[int, int]] = []
    pos = a
    for m in regex.finditer(text, a, b):
        if m.start() <= pos:  # separator at the very start
            pos = max(pos, m.end())
            continue
        spans.append((pos, m.start()))
        pos = m.end()
    if pos < b:
        spans.append((pos, b))
    for i, (s, e) in enumerate(spans):
        # trim whitespace left inside the piece (separators eat most of it)
        while e > s and text[e - 1].isspace():
            e -= 1
        if e <= s:
            continue
        end_strength = strength if i < len(spans) - 1 else strength_end
        size = words(text[s:e])
        if size > PIECE_MAX and len(regexes) > 1:
            _split(text, s, e, regexes[1:], out, end_strength)
        elif size > PIECE_MAX and len(regexes) == 1:
            _split(text, s, e, [], out, end_strength)
        else:
            out.append((s, e, size, end_strength))


_LEVELS = [(_SENTENCE_END, 3), (_LINE, 2), (_SOFT, 1)]
_STRENGTH_COST = {3: 0.0, 2: 0.12, 1: 0.3, 0: 0.6}


def cut_page(text: str, start: int, end: int) -> list[tuple[int, int, float]]:
    """Cut ``text[start:end]`` into unit spans ``(char_start, char_end, words)``."""
    pieces: list[tuple[int, int, float, int]] = []
    _split(text, start, end, _LEVELS, pieces, 3)
    if not pieces:
        return []
    total = sum(p[2] for p in pieces)
    n = max(1, round(total / UNIT_TARGET), math.ceil(total / UNIT_MAX_TARGET))
    units: list[tuple[int, int, float]] = []
    i = 0
    remaining = total
    while i < len(pieces):
        left = n - len(units)
        if left <= 1:
            units.append((pieces[i][0], pieces[-1][1], remaining))
            break
        target = remaining / left
        # choose the cut after piece j minimising distance to the target plus a boundary-strength cost
        acc = 0.0
        best_j, best_cost = None, float("inf")
        j = i
        while j < len(pieces) - 1:
            acc += pieces[j][2]
            if acc >= 0.6 * target:
                cost = abs(acc - target) / target + _STRENGTH_COST[pieces[j][3]]
                if cost < best_cost:
                    best_j, best_cost = j, cost
            if acc > 1.35 * target:
                break
            j += 1
        if best_j is None:  # everything left is smaller than 0.6 of a target
            units.append((pieces[i][0], pieces[-1][1], remaining))
            break
        size = sum(p[2] for p in pieces[i : best_j + 1])
        units.append((pieces[i][0], pieces[best_j][1], size))
        remaining -= size
        i = best_j + 1
    return units


# --------------------------------------------------------------------------------------------------
# the document


def _hash(*parts: object) -> str:
    return hashlib.sha256("|".join(str(p) for p in parts).encode("utf-8")).hexdigest()[:32]


def unit_id(document_id: str, page: int, char_start: int, char_end: int) -> str:
    return _hash(document_id, page, char_start, char_end)


def _section_index(sections: list[SectionSpan]):
    spans = []
    for s in sections:
        end = (s.page_end, s.char_end if s.char_end is not None else math.inf)
        spans.append(((s.page_start, s.char_start), end, s.confidence, s.section))
    spans.sort(key=lambda x: (x[0], x[2]))

    def find(page: int, char: int) -> str | None:
        pos = (page, char)
        best = None
        for start, end, _conf, name in spans:
            if start > pos:
                break
            if pos < end:
                best = name  # latest start wins (innermost), higher confidence on ties (sorted)
        return best

    return find


def chunk(
    info: DocumentInfo,
    pages: list[Page],
    sections: list[SectionSpan],
    doc_name: str,
    table_pages: set[int] | None = None,
    page_statements: dict[int, str] | None = None,
) -> tuple[list[SearchUnit], dict[str, str]]:
    """Search units (~220 words, never crossing a page) and context windows (~650 words) of a document.

    Returns ``(units, windows)`` with ``windows`` mapping ``window_id`` to the window text."""
    transcript = (info.form or "").lower() == "transcript"
    # a transcript's "pages" are speaker turns: no running headers, and "Thank you." is content
    repeated = set() if transcript else repeated_lines(pages)
    section_of = _section_index(sections or [])
    table_pages = set(table_pages or ()) | set(page_statements or {})
    page_statements = page_statements or {}
    base = dict(
        document_id=info.document_id,
        doc_name=doc_name,
        company_id=info.company_id,
        stock_code=info.stock_code,
        market=info.market,
        fiscal_year=info.fiscal_year,
        fiscal_period=info.fiscal_period,
        report_type=info.form,
        language=info.language,
    )
    text_of = {p.page: p.text for p in pages}

    # a section that starts inside a page starts a unit there ("Item 3. Legal Proceedings" under the end of Item 2)
    starts: dict[int, set[int]] = {}
    for sec in sections or []:
        starts.setdefault(sec.page_start, set()).add(sec.char_start)
    raw: list[tuple[int, int, int, float, str, str | None, str | None]] = []  # page, start, end, words, kind, section, statement
    context: dict[tuple[int, int], str | None] = {}  # (page, start) -> the headings above the unit on its page
    for p in pages:
        text = p.text
        if not text or not text.strip():
            continue
        a, b = content_span(text, repeated)
        if a >= b:
            continue
        if transcript:
            kind = "transcript"
        elif p.page in table_pages or is_table_page(text[a:b]):
            kind = "table"
        else:
            kind = "narrative"
        # a table page's prose (what drove the figures above it) is cut apart from its grids and is prose
        prose = prose_runs(text, a, b) if kind == "table" else []
        edges = {c for c in starts.get(p.page, ()) if a < c < b} | {c for run in prose for c in run if a < c < b}
        cuts = [a, *sorted(edges), b]
        spans = [span for lo, hi in zip(cuts, cuts[1:]) for span in cut_page(text, *strip_span(text, lo, hi))]
        for s, e, w in spans:
            # a prose page's piece that is mostly figures is a table the page layout did not show as one
            piece = "table" if kind == "narrative" and figure_share(text[s:e]) >= FIGURE_SHARE else kind
            if kind == "table" and any(lo <= s and e <= hi for lo, hi in prose):
                piece = "narrative"
            statement = (page_statements.get(p.page) or title_statement(text)) if piece == "table" else None
            raw.append((p.page, s, e, w, piece, section_of(p.page, s), statement))
            context[p.page, s] = None if transcript else unit_context(text, a, s)

    # context windows: consecutive units of one section and kind, closed near WINDOW_TARGET words
    groups: list[list[int]] = []
    acc = 0.0
    for k, (_page, _s, _e, w, kind, section, _statement) in enumerate(raw):
        if groups:
            prev = raw[groups[-1][-1]]
            same = prev[4] == kind and prev[5] == section
            # close the window when adding this unit overshoots more than stopping short
            if same and not (acc + w > WINDOW_TARGET and abs(acc + w - WINDOW_TARGET) > abs(acc - WINDOW_TARGET)):
                groups[-1].append(k)
                acc += w
                continue
        groups.append([k])
        acc = w

    units: list[SearchUnit] = []
    windows: dict[str, str] = {}
    for g in groups:
        first = raw[g[0]]
        wid = _hash(info.document_id, "window", first[0], first[1])
        parts: list[str] = []
        per_page: dict[int, list[int]] = {}
        for k in g:
            page, s, e = raw[k][:3]
            span = per_page.setdefault(page, [s, e])
            span[0], span[1] = min(span[0], s), max(span[1], e)
        for page, (s, e) in per_page.items():
            parts.append(text_of[page][s:e])
        windows[wid] = "\n\n".join(parts)
        for k in g:
            page, s, e, _w, kind, section, statement = raw[k]
            units.append(
                SearchUnit(
                    unit_id=unit_id(info.document_id, page, s, e),
                    page=page,
                    char_start=s,
                    char_end=e,
                    text=text_of[page][s:e],
                    window_id=wid,
                    section=section,
                    kind=kind,
                    statement=statement,
                    context=context[page, s],
                    speaker=turn_speaker(text_of[page]) if transcript else None,
                    **base,
                )
            )
    return units, windows
