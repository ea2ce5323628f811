"""Sections of US 10-K / 10-Q / 20-F filings: Item headings (Part I / II for a 10-Q), a table of contents that
names the pages when the headings are not found, and bare titles for filings without Item headings."""

from __future__ import annotations

import re

from parsers.section_lines import PAGE_NO, Cand, Line, chain_candidates, finish, mark_toc
from schema.models import Page, SectionSpan

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


def _us_candidates(lines: list[Line], specs: list[tuple[str, str, str]], quarterly: bool) -> list[Cand]:
    order = {k: i for i, (k, _, _) in enumerate(specs)}
    by_key = {k: (s, t) for k, s, t in specs}
    out: list[Cand] = []
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
        out.append(Cand(key, section, order[key], ln, title_line[:200], quality, attrs={"item": key}))
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


def _toc_inferred(pages: list[Page], lines: list[Line], cands: list[Cand], chain: list[Cand]) -> list[Cand]:
    """Sections with no body heading, placed at the printed page the table of contents gives
    (JPMorgan's 10-Q: headings are not Items, the TOC maps Items to pages). Confidence 0.5."""
    have = {c.section for c in chain}
    toc = [c for c in cands if c.toc and c.section in _INFER and c.section not in have]
    if not toc:
        return []
    offset = _page_offset(pages)
    if offset is None:
        return []
    out: list[Cand] = []
    first_line_of_page: dict[int, Line] = {}
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
        out.append(Cand(c.key, c.section, c.order, ln, re.sub(r"\s*\d{1,3}\s*$", "", c.line.text), 0.5,
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


def us_sections(pages: list[Page], lines: list[Line], form: str) -> list[SectionSpan]:
    quarterly = form == "10-Q"
    specs = _10Q_ITEMS if quarterly else _20F_ITEMS if form == "20-F" else _10K_ITEMS
    cands = _us_candidates(lines, specs, quarterly)
    mark_toc(cands, lines)
    body = [c for c in cands if not c.toc]
    chain = chain_candidates(body)
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
        out.append(finish(pages, lines, c.section, c.title, c.line.idx, end, conf, c.attrs,
                           min_words.get(c.section, 0)))
    for c in nested:
        nxt = [x.line.idx for x in chain + nested if x.line.idx > c.line.idx]
        end = min(nxt) if nxt else len(lines)
        out.append(finish(pages, lines, c.section, c.title, c.line.idx, end, 0.8, c.attrs, 1000))
    found = {s.section for s in out}
    # fallback: bare titles ("RISK FACTORS") for documents without Item headings (cross-reference index)
    starts = sorted(c.line.idx for c in chain + nested)
    for section, rx in _BARE_US:
        if section in found:
            continue
        hits = [ln for ln in lines if len(ln.text) < 130 and rx.match(ln.text) and ln.page >= 1]
        hits = [h for h in hits if not PAGE_NO.search(h.text)]
        if not hits:
            continue
        h = hits[0]
        others = [x for x in starts if x > h.idx]
        bare_next = [ln.idx for s2, rx2 in _BARE_US if s2 != section for ln in lines
                     if ln.idx > h.idx and len(ln.text) < 130 and rx2.match(ln.text)]
        end = min(others + bare_next + [len(lines)])
        out.append(finish(pages, lines, section, h.text, h.idx, end, 0.5, {"fallback": "bare_title"},
                           min_words.get(section, 0)))
    return sorted(out, key=lambda s: (s.page_start, s.char_start))
