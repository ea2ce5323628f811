"""Sections of A-share reports: the numbered chapters (第N节), and the risk factors enumerated inside the MD&A chapter."""

from __future__ import annotations

import re

from parsers.section_lines import PAGE_NO, Cand, Line, chain_candidates, finish, mark_toc
from schema.models import Page, SectionSpan

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


def cn_sections(pages: list[Page], lines: list[Line]) -> list[SectionSpan]:
    cands: list[Cand] = []
    for ln in lines:
        m = _CN_CHAPTER.match(ln.text)
        if not m:
            continue
        title = m.group(2).strip()
        section = next((s for s, rx in _CN_TITLES if re.search(rx, title)), "other")
        cands.append(Cand(m.group(1), section, _cn_num(m.group(1)), ln, ln.text, 1.0))
    mark_toc(cands, lines, re.compile(r"^目\s*录$"))
    chain = chain_candidates([c for c in cands if not c.toc])
    out: list[SectionSpan] = []
    for i, c in enumerate(chain):
        end = chain[i + 1].line.idx if i + 1 < len(chain) else len(lines)
        if c.section == "other":
            continue
        out.append(finish(pages, lines, c.section, c.title, c.line.idx, end, 0.95, {"chapter": c.key},
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


def _cn_risk(pages: list[Page], lines: list[Line], lo: int, hi: int, conf: float) -> list[SectionSpan]:
    for ln in lines[lo:hi]:
        if len(ln.text) > 40:
            continue
        m = _CN_RISK.match(ln.text)
        if not m or PAGE_NO.search(ln.text) and re.search(r"[.…]{3,}", ln.text):
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
        span = finish(pages, lines, "risk_factors", ln.text, ln.idx, end, conf, {"parent": "mdna"}, 50)
        return [span]
    return []
