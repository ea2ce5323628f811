"""Sections of HK reports: the chairman's statement, MD&A, principal risks and the other titled parts of an HK
annual or interim report, found by their (English or Chinese) titles."""

from __future__ import annotations

import re

from parsers.section_lines import Cand, Line, finish, mark_toc
from schema.models import DocumentInfo, Page, SectionSpan

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


def hk_sections(pages: list[Page], lines: list[Line], info: DocumentInfo) -> list[SectionSpan]:
    extract = (info.form or "") == "mda_extract" or "mda-extract" in (info.file_name or "")
    out: list[SectionSpan] = []
    if extract and lines:
        out.append(finish(pages, lines, "mdna", lines[0].text[:120], 0, len(lines), 0.9, {"whole_document": "true"}))
        parent_bounds = [(0, len(lines))]
    else:
        cands: list[Cand] = []
        for ln in lines:
            hit = _hk_match(ln.text)
            if hit:
                cands.append(Cand(hit[0], hit[0], 0, ln, hit[1], 1.0))
        contents = re.compile(r"^(contents|table\s+of\s+contents|目錄|目录|contents\s+目錄|目錄\s+contents)$", re.I)
        mark_toc(cands, lines, contents)
        for c in cands:  # a contents page lists titles with page numbers: "Chairman's Statement 4"
            if re.search(r"\d{1,3}\s*$", c.line.text) and any(
                    contents.match(ln.text) for ln in lines if ln.page == c.line.page):
                c.toc = True
        first: dict[str, Cand] = {}
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
            out.append(finish(pages, lines, c.section, c.title, c.line.idx, end, 0.85, {}, min_words))
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
            span = finish(pages, lines, "principal_risks", ln.text, ln.idx, end, 0.7 if caps else 0.55,
                           {"family": "risk_factors"}, 100)
            out.append(span)
            break
        else:
            continue
        break
    return sorted(out, key=lambda s: (s.page_start, s.char_start))
