"""Named narrative sections of a filing as spans over its pages (:class:`schema.models.SectionSpan`).

``find_sections(pages, info)`` works on page text only (PDF pages from :mod:`parsers.pdf_pages`,
iXBRL pages from :mod:`parsers.html_pages`), so it is a pure function of the parsed pages.

How a section is found
----------------------

* **Headings are lines.** Every line of every page is tested against the heading grammar of the
  document's kind: US ``Item 1A. Risk Factors`` (10-K, 10-Q by item title, 20-F ``Item 5`` / ``3.D``),
  A-share ``第三节 管理层讨论与分析``, HK title lines (``Chairman's Statement`` / ``主席報告``...).
  A heading is a short line that *is* the title: cross references that start a wrapped line
  (``Item 1A, "Risk Factors" of this report``) are rejected (quote or comma after the item number,
  ``of this`` / ``in this`` / ``see`` ...).
* **The table of contents is never a section start.** A candidate is a TOC entry when its line ends
  with a page number (``Item 1A. Risk Factors 5``, ``第三节 管理层讨论与分析 ....... 10``), when the next
  line is a bare page number, or when it sits on a contents page (several candidates with only short
  lines between them, most of them numbered; ``目录`` / ``Contents`` pages).
* **Order.** US items and A-share chapters are numbered: the body headings are chosen as the best
  increasing chain of candidates (dynamic programming over (item order, position)), so a stray
  cross reference or a running header cannot reorder sections. HK sections take their first
  non-TOC occurrence.
* **Ends.** A section ends where the next accepted heading of the same level starts (any item: when
  Items 1B..6 are missing, Item 1A still stops at the next item heading found, never runs into
  Item 7's text). Nested subsections (A-share 可能面对的风险 inside MD&A, HK Principal Risks inside
  the Directors' Report / MD&A) end at the next sibling heading or the parent's end.
* **Pointers.** A short section body that only says where the content is ("incorporated herein by
  reference", "Refer to pages 6 through 42 of ... Annual Report", "can be found in", 详见, 请参阅...)
  gives ``pointer=True`` and confidence 0.2; ``attrs['pointer_text']`` holds the sentence.
* **Confidence.** 0.95 for a clean body heading with a plausible length; lower for a heading whose
  title is on the next line, for a mismatched title, for bare-title fallbacks (a 10-K without Item
  headings), for implausibly short bodies, and for nested subsections found by style.

Section ids: US ``business``, ``risk_factors``, ``unresolved_staff_comments``, ``cybersecurity``,
``properties``, ``legal``, ``mine_safety``, ``market_equity``, ``selected_data``, ``mdna``,
``market_risk``, ``financial_statements``, ``accountant_changes``, ``controls``, ``other_information``,
``foreign_inspections``, ``directors``, ``executive_compensation``, ``security_ownership``,
``relationships``, ``accountant_fees``, ``exhibits``, ``form_summary``, 10-Q also
``unregistered_sales``, ``defaults``; A-share ``company_profile``, ``business``, ``mdna``,
``risk_factors``, ``governance``, ``esg``, ``significant_events``, ``shares``, ``preferred_shares``,
``bonds``, ``financial_statements``; HK ``chairman_statement``, ``mdna``, ``principal_risks``
(``attrs['family']='risk_factors'``), ``corporate_governance``, ``directors_report``,
``esg``, ``biographies``, ``auditor_report``, ``financial_statements``. US spans carry
``attrs['item']`` (``"1A"``, ``"II-1A"`` for 10-Q Part II).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from schema.models import DocumentInfo, Page, SectionSpan

# ----------------------------------------------------------------------------------------- lines


@dataclass
class _Line:
    idx: int  # global line index
    page: int  # index into pages
    char: int  # offset of the line in the page text
    text: str


@dataclass
class _Cand:
    key: str  # item / chapter / section key
    section: str
    order: float
    line: _Line
    title: str
    quality: float
    toc: bool = False
    attrs: dict[str, str] = field(default_factory=dict)


def _lines(pages: list[Page]) -> list[_Line]:
    out: list[_Line] = []
    for pi, p in enumerate(pages):
        pos = 0
        for raw in p.text.split("\n"):
            text = raw.strip()
            if text:
                out.append(_Line(len(out), pi, pos + (len(raw) - len(raw.lstrip())), text))
            pos += len(raw) + 1
    return out


_PAGE_NO = re.compile(r"(?:\.{2,}|…+|\s)\s*(?:\d{1,3}|[ivxlc]{1,6}|[A-Z]-\d{1,3}|\d{1,3}\s*[-–]\s*\d{1,3})\s*$", re.I)
_BARE_NO = re.compile(r"^(?:\d{1,3}|[ivxlc]{1,6}|[A-Z]-\d{1,3})$", re.I)


def _mark_toc(cands: list[_Cand], lines: list[_Line], page_words: re.Pattern | None = None) -> None:
    """Flag TOC entries: numbered line ends, bare page number on the next line, contents pages."""
    for c in cands:
        tail = c.line.text
        if _PAGE_NO.search(tail) and not re.search(r"(?i)(10-K|20-F|10-Q|\[reserved\])\s*$", tail):
            c.toc = True
        nxt = lines[c.line.idx + 1] if c.line.idx + 1 < len(lines) else None
        if nxt is not None and nxt.page == c.line.page and _BARE_NO.match(nxt.text) and nxt.idx + 1 < len(lines) \
                and lines[nxt.idx + 1].page == c.line.page:
            # "Item 1A." / "Risk Factors" / "5" laid out in columns; a page footer is the last line
            c.toc = True
        if re.search(r"(\.{4,}|…{2,})", tail):
            c.toc = True
    by_page: dict[int, list[_Cand]] = {}
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


def _chain(cands: list[_Cand]) -> list[_Cand]:
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


def _span_text(pages: list[Page], lines: list[_Line], start: int, end: int) -> str:
    """Text from line ``start`` (included) to line ``end`` (excluded)."""
    return "\n".join(ln.text for ln in lines[start:end])


def _make_span(pages: list[Page], lines: list[_Line], section: str, title: str, start: int, end: int,
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


def _finish(pages: list[Page], lines: list[_Line], section: str, title: str, start: int, end: int,
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


# --------------------------------------------------------------------------------------------- US

# item -> (section id, expected title)
_10K_ITEMS: list[tuple[str, str, str]] = [
    ("1", "business", r"business"),
    ("1A", "risk_factors", r"risk\s*factors"),
    ("1B", "unresolved_staff_comments", r"unresolved"),
    ("1C", "cybersecurity", r"cyber"),
    ("2", "properties", r"propert"),
    ("3", "legal", r"legal"),
    ("4", "mine_safety", r"mine|submission|reserved|removed|executive\s+officers"),
    ("5", "market_equity", r"market\s+for"),
    ("6", "selected_data", r"selected|reserved|consolidated\s+financial\s+data"),
    ("7", "mdna", r"management.{0,3}\s*discussion"),
    ("7A", "market_risk", r"quantitative|market\s+risk"),
    ("8", "financial_statements", r"financial\s+statements"),
    ("9", "accountant_changes", r"changes\s+in\s+and\s+disagreements|changes\s+in\s+accountants"),
    ("9A", "controls", r"controls\s+and\s+procedures"),
    ("9B", "other_information", r"other\s+information"),
    ("9C", "foreign_inspections", r"disclosure\s+regarding\s+foreign"),
    ("10", "directors", r"directors"),
    ("11", "executive_compensation", r"executive\s+compensation"),
    ("12", "security_ownership", r"security\s+ownership"),
    ("13", "relationships", r"certain\s+relationships"),
    ("14", "accountant_fees", r"principal\s+account"),
    ("15", "exhibits", r"exhibits?"),
    ("16", "form_summary", r"form\s+10-K\s+summary|summary"),
]
_10Q_ITEMS: list[tuple[str, str, str]] = [
    ("I-1", "financial_statements", r"financial\s+statements"),
    ("I-2", "mdna", r"management.{0,3}\s*discussion"),
    ("I-3", "market_risk", r"quantitative|market\s+risk"),
    ("I-4", "controls", r"controls\s+and\s+procedures"),
    ("II-1", "legal", r"legal"),
    ("II-1A", "risk_factors", r"risk\s*factors"),
    ("II-2", "unregistered_sales", r"unregistered|purchases"),
    ("II-3", "defaults", r"defaults"),
    ("II-4", "mine_safety", r"mine|submission|reserved|removed"),
    ("II-5", "other_information", r"other\s+information"),
    ("II-6", "exhibits", r"exhibits?"),
]
_20F_ITEMS: list[tuple[str, str, str]] = [
    ("3", "key_information", r"key\s+information"),
    ("3.D", "risk_factors", r"risk\s*factors"),
    ("4", "business", r"information\s+on\s+the\s+company"),
    ("4A", "unresolved_staff_comments", r"unresolved"),
    ("5", "mdna", r"operating\s+and\s+financial\s+review"),
    ("6", "directors", r"directors"),
    ("7", "shareholders", r"major\s+shareholders"),
    ("8", "financial_information", r"financial\s+information"),
    ("9", "offer_listing", r"offer\s+and\s+listing"),
    ("10", "additional_information", r"additional\s+information"),
    ("11", "market_risk", r"quantitative|market\s+risk"),
    ("12", "other_securities", r"description\s+of\s+securities"),
    ("15", "controls", r"controls\s+and\s+procedures"),
    ("16C", "accountant_fees", r"principal\s+account"),
    ("16K", "cybersecurity", r"cyber"),
    ("17", "financial_statements", r"financial\s+statements"),
    ("18", "financial_statements_18", r"financial\s+statements"),
    ("19", "exhibits", r"exhibits?"),
]

_ITEM_LINE = re.compile(
    r"^(?:PART\s+(?P<part>I{1,3}|IV)\b\s*[,.:;–—-]?\s*)?ITEMS?\s*(?P<num>\d{1,2})\s*(?:\.\s*)?(?P<letter>[A-K])?"
    r"(?:\s*(?:and|&|,)\s*\d{1,2}[A-K]?)*(?![\w])(?P<sep>\s*[.:;–—\-|]?)\s*(?P<rest>.*)$",
    re.I)
_SUB_20F = re.compile(r"^(?:ITEM\s*)?(?P<num>\d{1,2})\s*\.\s*(?P<letter>[A-F])\.?\s+(?P<rest>.+)$|^(?P<letter2>[A-F])\.\s+(?P<rest2>Risk\s+Factors.*)$", re.I)
_XREF = re.compile(r"(?i)(\bof\s+this\b|\bin\s+this\b|\bof\s+our\b|\bincluded\s+in\b|\bcontained\s+in\b|\bsee\b|"
                   r"\bpursuant\b|\bunder\s+this\b|\bthis\s+(annual\s+)?report\b|\brequired\s+by\b|\bin\s+part\b)")
_PART = re.compile(r"^PART\s+(I{1,3}|IV)\b", re.I)


def _us_candidates(lines: list[_Line], specs: list[tuple[str, str, str]], quarterly: bool) -> list[_Cand]:
    order = {k: i for i, (k, _, _) in enumerate(specs)}
    by_key = {k: (s, t) for k, s, t in specs}
    out: list[_Cand] = []
    part = "I"
    for ln in lines:
        text = ln.text
        pm = _PART.match(text)
        if pm and len(text) < 80:
            part = pm.group(1).upper()
        if len(text) > 200:
            continue
        m = _ITEM_LINE.match(text)
        sub = None
        if not m:
            sub = _SUB_20F.match(text)
            if not sub:
                continue
        if m:
            key = m.group("num").lstrip("0") + (m.group("letter") or "").upper()
            rest = m.group("rest").strip()
            if m.group("part"):
                part = m.group("part").upper()
            if rest[:1] in "\"“”'‘’,(" or re.match(r"(?i)(of|and|in|to|through|under|as|for)\b", rest):
                continue
        else:
            key = (sub.group("num") or "3") + "." + (sub.group("letter") or sub.group("letter2")).upper()
            rest = (sub.group("rest") or sub.group("rest2")).strip()
        title_line = text
        quality = 1.0
        if not rest:  # title on the next line
            nxt = lines[ln.idx + 1] if ln.idx + 1 < len(lines) else None
            if nxt is None or nxt.page != ln.page:
                continue
            rest = nxt.text
            title_line = f"{text} {nxt.text}"
            quality = 0.9
        if _XREF.search(rest[:120]) and not re.match(r"(?i)\s*(form\s+10-K|other\s+information)", rest):
            continue
        if quarterly:
            num = key
            cands = [k for k in (f"{part}-{num}", f"I-{num}", f"II-{num}") if k in by_key]
            hit = None
            for k in cands:
                if re.match(r"(?i)\W*" + by_key[k][1], rest):
                    hit = k
                    break
            if hit is None:
                if not cands:
                    continue
                hit, quality = cands[0], 0.5
            key = hit
        elif key not in by_key:
            continue
        section, title_rx = by_key[key]
        if not re.match(r"(?i)\W*(?:" + title_rx + ")", rest):
            if len(rest) > 60 or key in ("1A", "7", "3.D"):
                continue  # "Item 7 ..." that is not MD&A's title: a sentence, not a heading
            quality = min(quality, 0.5)
        if len(rest) > 150:
            continue
        out.append(_Cand(key, section, order[key], ln, title_line[:200], quality, attrs={"item": key}))
    return out


def _page_offset(pages: list[Page]) -> int | None:
    """physical - printed page number, from bare page numbers at page edges (None when unclear)."""
    counts: dict[int, int] = {}
    for i, p in enumerate(pages):
        ls = [x.strip() for x in p.text.split("\n") if x.strip()]
        for x in ls[:1] + ls[-1:]:
            if re.fullmatch(r"\d{1,3}", x):
                counts[i + 1 - int(x)] = counts.get(i + 1 - int(x), 0) + 1
                break
    if not counts:
        return None
    off, n = max(counts.items(), key=lambda kv: kv[1])
    return off if n >= max(3, 0.3 * len(pages)) else None


_INFER = ("business", "risk_factors", "mdna", "market_risk", "financial_statements", "legal", "controls")


def _toc_inferred(pages: list[Page], lines: list[_Line], cands: list[_Cand], chain: list[_Cand]) -> list[_Cand]:
    """Sections with no body heading, placed at the printed page the table of contents gives
    (JPMorgan's 10-Q: headings are not Items, the TOC maps Items to pages). Confidence 0.5."""
    have = {c.section for c in chain}
    toc = [c for c in cands if c.toc and c.section in _INFER and c.section not in have]
    if not toc:
        return []
    offset = _page_offset(pages)
    if offset is None:
        return []
    out: list[_Cand] = []
    first_line_of_page: dict[int, _Line] = {}
    for ln in lines:
        first_line_of_page.setdefault(ln.page, ln)
    for c in toc:
        if c.section in have:
            continue
        num = None
        for ln in lines[c.line.idx : c.line.idx + 4]:
            if ln.page != c.line.page or (ln is not c.line and _ITEM_LINE.match(ln.text)):
                break
            m = re.search(r"\s(\d{1,3})\s*$", ln.text)
            if m:
                num = int(m.group(1))
                break
        if num is None:
            continue
        pi = num + offset - 1
        if not (c.line.page < pi < len(pages)) or pi not in first_line_of_page:
            continue
        ln = first_line_of_page[pi]
        if any(x.line.idx == ln.idx for x in chain + out):
            continue
        out.append(_Cand(c.key, c.section, c.order, ln, re.sub(r"\s*\d{1,3}\s*$", "", c.line.text), 0.5,
                         attrs={"item": c.key, "inferred": "toc"}))
        have.add(c.section)
    return out


_BARE_US = [
    ("risk_factors", re.compile(r"^(?:\d+\.?\s*)?RISK\s+FACTORS\.?$", re.I)),
    ("mdna", re.compile(r"^(?:\d+\.?\s*)?MANAGEMENT.{0,3}S?\s+DISCUSSION\s+AND\s+ANALYSIS(?:\s+OF\s+(?:FINANCIAL\s+CONDITION|RESULTS).{0,60})?$", re.I)),
    ("financial_statements", re.compile(r"^(?:CONSOLIDATED\s+)?FINANCIAL\s+STATEMENTS(?:\s+AND\s+SUPPLEMENTARY\s+DATA)?$", re.I)),
]
_US_MIN_WORDS = {"risk_factors": 1500, "mdna": 2000, "business": 800, "financial_statements": 2000}
_10Q_MIN_WORDS = {"mdna": 1500, "financial_statements": 1500, "risk_factors": 0}


def _us_sections(pages: list[Page], lines: list[_Line], form: str) -> list[SectionSpan]:
    quarterly = form == "10-Q"
    specs = _10Q_ITEMS if quarterly else _20F_ITEMS if form == "20-F" else _10K_ITEMS
    cands = _us_candidates(lines, specs, quarterly)
    _mark_toc(cands, lines)
    body = [c for c in cands if not c.toc]
    chain = _chain(body)
    # a 20-F "3.D Risk Factors" sits inside Item 3: handled as a nested span below
    nested = [c for c in chain if "." in c.key]
    chain = [c for c in chain if "." not in c.key]
    chain = sorted(chain + _toc_inferred(pages, lines, cands, chain), key=lambda c: c.line.idx)
    out: list[SectionSpan] = []
    min_words = _10Q_MIN_WORDS if quarterly else _US_MIN_WORDS
    for i, c in enumerate(chain):
        end = chain[i + 1].line.idx if i + 1 < len(chain) else len(lines)
        conf = 0.95 if c.quality >= 1.0 else 0.85 if c.quality >= 0.9 else 0.6
        if c.attrs.get("inferred"):
            conf = 0.5
        out.append(_finish(pages, lines, c.section, c.title, c.line.idx, end, conf, c.attrs,
                           min_words.get(c.section, 0)))
    for c in nested:
        nxt = [x.line.idx for x in chain + nested if x.line.idx > c.line.idx]
        end = min(nxt) if nxt else len(lines)
        out.append(_finish(pages, lines, c.section, c.title, c.line.idx, end, 0.8, c.attrs, 1000))
    found = {s.section for s in out}
    # fallback: bare titles ("RISK FACTORS") for documents without Item headings (cross-reference index)
    starts = sorted(c.line.idx for c in chain + nested)
    for section, rx in _BARE_US:
        if section in found:
            continue
        hits = [ln for ln in lines if len(ln.text) < 130 and rx.match(ln.text) and ln.page >= 1]
        hits = [h for h in hits if not _PAGE_NO.search(h.text)]
        if not hits:
            continue
        h = hits[0]
        others = [x for x in starts if x > h.idx]
        bare_next = [ln.idx for s2, rx2 in _BARE_US if s2 != section for ln in lines
                     if ln.idx > h.idx and len(ln.text) < 130 and rx2.match(ln.text)]
        end = min(others + bare_next + [len(lines)])
        out.append(_finish(pages, lines, section, h.text, h.idx, end, 0.5, {"fallback": "bare_title"},
                           min_words.get(section, 0)))
    return sorted(out, key=lambda s: (s.page_start, s.char_start))


# -------------------------------------------------------------------------------------- A-shares

_CN_CHAPTER = re.compile(r"^第\s*([一二三四五六七八九十]{1,3})\s*[节章]\s*(.{2,40})$")
_CN_TITLES = [
    ("company_profile", r"公司简介|公司基本情况|主要财务指标"),
    ("business", r"公司业务概要"),
    ("mdna", r"管理层讨论与分析|经营情况讨论与分析|董事会报告"),
    ("governance", r"公司治理"),
    ("esg", r"环境和社会责任|环境与社会责任"),
    ("significant_events", r"重要事项"),
    ("shares", r"股份变动|股东情况"),
    ("preferred_shares", r"优先股"),
    ("bonds", r"债券"),
    ("financial_statements", r"财务报告"),
]
_CN_NUM = {c: i + 1 for i, c in enumerate("一二三四五六七八九")}


def _cn_num(s: str) -> int:
    if s == "十":
        return 10
    if s.startswith("十"):
        return 10 + _CN_NUM.get(s[1:], 0)
    if "十" in s:
        a, _, b = s.partition("十")
        return _CN_NUM.get(a, 0) * 10 + (_CN_NUM.get(b, 0) if b else 0)
    return _CN_NUM.get(s, 0)


_CN_RISK = re.compile(r"^(?:[（(]\s*([一二三四五六七八九十]+)\s*[)）]|([一二三四五六七八九十]+)\s*、|(\d+)\s*[、.．])\s*"
                      r"(.{0,16}(?:可能面[对臨临]的.{0,6}风险|风险因素|主要风险|风险提示|面临的风险|风险及应对).{0,12})$")
_CN_ENUM = re.compile(r"^(?:[（(]\s*([一二三四五六七八九十]+)\s*[)）]|([一二三四五六七八九十]+)\s*、|(\d+)\s*[、.．](?!\d))")


def _cn_sections(pages: list[Page], lines: list[_Line]) -> list[SectionSpan]:
    cands: list[_Cand] = []
    for ln in lines:
        m = _CN_CHAPTER.match(ln.text)
        if not m:
            continue
        title = m.group(2).strip()
        section = next((s for s, rx in _CN_TITLES if re.search(rx, title)), "other")
        cands.append(_Cand(m.group(1), section, _cn_num(m.group(1)), ln, ln.text, 1.0))
    _mark_toc(cands, lines, re.compile(r"^目\s*录$"))
    chain = _chain([c for c in cands if not c.toc])
    out: list[SectionSpan] = []
    for i, c in enumerate(chain):
        end = chain[i + 1].line.idx if i + 1 < len(chain) else len(lines)
        if c.section == "other":
            continue
        out.append(_finish(pages, lines, c.section, c.title, c.line.idx, end, 0.95, {"chapter": c.key},
                           200 if c.section in ("mdna", "financial_statements") else 0))
    # risk subsection: inside MD&A when there is one, else anywhere after the first chapter
    mdna = next((c for c in chain if c.section == "mdna"), None)
    if mdna is not None:
        i = chain.index(mdna)
        lo, hi = mdna.line.idx, (chain[i + 1].line.idx if i + 1 < len(chain) else len(lines))
    else:
        lo, hi = (chain[0].line.idx if chain else 0), len(lines)
    risk_spans = _cn_risk(pages, lines, lo, hi, 0.85 if mdna is not None else 0.6)
    out.extend(risk_spans)
    return sorted(out, key=lambda s: (s.page_start, s.char_start))


def _enum_level(text: str) -> tuple[int, int] | None:
    m = _CN_ENUM.match(text)
    if not m:
        return None
    if m.group(1):
        return 2, _cn_num(m.group(1))
    if m.group(2):
        return 1, _cn_num(m.group(2))
    return 3, int(m.group(3))


def _cn_risk(pages: list[Page], lines: list[_Line], lo: int, hi: int, conf: float) -> list[SectionSpan]:
    for ln in lines[lo:hi]:
        if len(ln.text) > 40:
            continue
        m = _CN_RISK.match(ln.text)
        if not m or _PAGE_NO.search(ln.text) and re.search(r"[.…]{3,}", ln.text):
            continue
        level, num = _enum_level(ln.text) or (9, 0)
        end = hi
        for nxt in lines[ln.idx + 1 : hi]:
            if len(nxt.text) > 60:
                continue
            lv = _enum_level(nxt.text)
            if lv is None:
                continue
            if lv[0] < level or (lv[0] == level and lv[1] == num + 1):
                end = nxt.idx
                break
        span = _finish(pages, lines, "risk_factors", ln.text, ln.idx, end, conf, {"parent": "mdna"}, 50)
        return [span]
    return []


# ------------------------------------------------------------------------------------------- HK

_HK_SECTIONS: list[tuple[str, str]] = [
    ("chairman_statement", r"chairman['’]?s['’]?\s+statement|statement\s+(?:from|of)\s+the\s+chairman|"
                           r"chairman['’]?s['’]?\s+(?:letter|message)|主席報告|主席报告|主席致辭|主席函件|主席報告書"),
    ("mdna", r"management(?:['’]s)?\s+discussion(?:\s+(?:and|&)\s+analysis)?|管理層討論及分析|管理层讨论与分析|"
             r"管理層討論與分析"),
    ("corporate_governance", r"corporate\s+governance\s+report|企業管治報告|企业管治报告"),
    ("directors_report", r"report\s+of\s+the\s+directors|directors['’]?\s+report|董事會報告|董事會報告書|董事報告"),
    ("esg", r"environmental,?\s+social\s+and\s+governance\s+report|環境、社會及管治報告"),
    ("biographies", r"biographical\s+details\s+of\s+directors.{0,40}|(?:profile|biographies)\s+of\s+directors.{0,40}|"
                    r"directors\s+and\s+senior\s+management|董事及高級管理層(?:履歷)?|董事及高級管理人員(?:履歷)?"),
    ("auditor_report", r"independent\s+auditor['’]?s['’]?\s+report|獨立核數師報告|独立核数师报告"),
    ("financial_statements", r"consolidated\s+statement\s+of\s+(?:profit\s+or\s+loss|comprehensive\s+income|"
                             r"financial\s+position)[\w\s,]{0,60}|consolidated\s+income\s+statement|"
                             r"綜合損益(?:及其他全面收益)?表|綜合財務狀況表"),
]
_HK_RISK = re.compile(r"^(?:\d+\.?\s*)?(principal\s+risks?(?:\s+and\s+uncertainties)?|key\s+risks?(?:\s+and\s+uncertainties)?|"
                      r"主要風險及不確定(?:因素|性))\.?\s*(?:主要風險及不確定(?:因素|性))?$", re.I)
_HK_RX = [(s, re.compile(r"(?:" + rx + r")", re.I)) for s, rx in _HK_SECTIONS]


def _hk_match(text: str) -> tuple[str, str] | None:
    if len(text) > 120 or text[:1].islower() or text[:1] in "•·-–*(":
        return None  # a bullet / sentence fragment mentioning a title is not a heading
    for section, rx in _HK_RX:
        m = rx.search(text)
        if not m:
            continue
        residue = rx.sub(" ", text)
        residue = re.sub(r"[\s\d()（）.,:;'’&/|\-–—]+", "", residue)
        # bilingual headings: the other language's title is also removed; a page number may remain
        if len(residue) <= 4:
            return section, text
    return None


def _hk_sections(pages: list[Page], lines: list[_Line], info: DocumentInfo) -> list[SectionSpan]:
    extract = (info.form or "") == "mda_extract" or "mda-extract" in (info.file_name or "")
    out: list[SectionSpan] = []
    if extract and lines:
        out.append(_finish(pages, lines, "mdna", lines[0].text[:120], 0, len(lines), 0.9, {"whole_document": "true"}))
        parent_bounds = [(0, len(lines))]
    else:
        cands: list[_Cand] = []
        for ln in lines:
            hit = _hk_match(ln.text)
            if hit:
                cands.append(_Cand(hit[0], hit[0], 0, ln, hit[1], 1.0))
        contents = re.compile(r"^(contents|table\s+of\s+contents|目錄|目录|contents\s+目錄|目錄\s+contents)$", re.I)
        _mark_toc(cands, lines, contents)
        for c in cands:  # a contents page lists titles with page numbers: "Chairman's Statement 4"
            if re.search(r"\d{1,3}\s*$", c.line.text) and any(
                    contents.match(ln.text) for ln in lines if ln.page == c.line.page):
                c.toc = True
        first: dict[str, _Cand] = {}
        body = sorted((c for c in cands if not c.toc), key=lambda c: c.line.idx)
        auditor = next((c.line.idx for c in body if c.section == "auditor_report"), None)
        for c in body:
            if c.section == "financial_statements" and auditor is not None and c.line.idx < auditor:
                continue  # statements follow the auditor's report; an earlier title line is a mention
            first.setdefault(c.section, c)
        starts = sorted(first.values(), key=lambda c: c.line.idx)
        parent_bounds = []
        for i, c in enumerate(starts):
            end = starts[i + 1].line.idx if i + 1 < len(starts) else len(lines)
            min_words = 300 if c.section in ("mdna", "chairman_statement") else 0
            out.append(_finish(pages, lines, c.section, c.title, c.line.idx, end, 0.85, {}, min_words))
            if c.section in ("mdna", "directors_report", "chairman_statement", "corporate_governance"):
                parent_bounds.append((c.line.idx, end))
        if not parent_bounds:
            parent_bounds = [(0, len(lines))]
    # Principal risks: a subsection of MD&A / Directors' Report
    for lo, hi in parent_bounds:
        for ln in lines[lo:hi]:
            m = _HK_RISK.match(ln.text)
            if not m:
                continue
            caps = ln.text.upper() == ln.text
            end = hi
            for nxt in lines[ln.idx + 1 : hi]:
                t = nxt.text
                if 3 <= len(t) <= 70 and not re.search(r"\d", t) and not t.endswith((".", ",", ";")) and (
                        (caps and t.upper() == t and re.search(r"[A-Z]{3}", t) and len(t.split()) >= 2)):
                    end = nxt.idx
                    break
            span = _finish(pages, lines, "principal_risks", ln.text, ln.idx, end, 0.7 if caps else 0.55,
                           {"family": "risk_factors"}, 100)
            out.append(span)
            break
        else:
            continue
        break
    return sorted(out, key=lambda s: (s.page_start, s.char_start))


# ------------------------------------------------------------------------------------------ entry


def _market_form(pages: list[Page], info: DocumentInfo) -> tuple[str | None, str | None]:
    market, form = info.market, (info.form or "").upper() or None
    head = "\n".join(p.text for p in pages[:3])
    if market is None:
        if re.search(r"SECURITIES AND EXCHANGE COMMISSION", head, re.I):
            market = "US"
        elif re.search(r"[\u4e00-\u9fff]", head) and re.search(r"第[一二三四五六七八九十]+节|年度报告|半年度报告", head):
            market = "A"
        elif re.search(r"Hong Kong|香港", "\n".join(p.text for p in pages[:30])):
            market = "HK"
    if market == "US" and form not in ("10-K", "10-Q", "20-F"):
        m = re.search(r"FORM\s+(10-K|10-Q|20-F)\b", head, re.I)
        if m and form is None:
            form = m.group(1).upper()
    return market, form


def find_sections(pages: list[Page], info: DocumentInfo) -> list[SectionSpan]:
    """Named sections of one document (see the module docstring), sorted by start position."""
    if not pages:
        return []
    lines = _lines(pages)
    if not lines:
        return []
    market, form = _market_form(pages, info)
    if market == "US":
        if form in ("10-K", "10-Q", "20-F", "10-KT"):
            return _us_sections(pages, lines, "10-K" if form == "10-KT" else form)
        return []
    if market == "A":
        return _cn_sections(pages, lines)
    if market == "HK":
        return _hk_sections(pages, lines, info)
    return []


def section_text(pages: list[Page], span: SectionSpan) -> str:
    """The text a span covers (pages joined with a newline)."""
    by_no = {p.page: p for p in pages}
    parts = []
    for n in range(span.page_start, span.page_end + 1):
        text = by_no[n].text if n in by_no else ""
        a = span.char_start if n == span.page_start else 0
        b = span.char_end if (n == span.page_end and span.char_end is not None) else len(text)
        parts.append(text[a:b])
    return "\n".join(parts)
