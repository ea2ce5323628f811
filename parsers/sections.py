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

Where: ``parsers.sections_us`` / ``sections_cn`` / ``sections_hk`` find each market's headings;
``parsers.section_lines`` holds what they share (lines, candidates, TOC marking, spans); this module picks the
market and form and reads a span's text back.
"""

from __future__ import annotations

import re
from parsers.section_lines import read_lines
from parsers.sections_cn import cn_sections
from parsers.sections_hk import hk_sections
from parsers.sections_us import us_sections
from schema.models import DocumentInfo, Page, SectionSpan


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
    lines = read_lines(pages)
    if not lines:
        return []
    market, form = _market_form(pages, info)
    if market == "US":
        if form in ("10-K", "10-Q", "20-F", "10-KT"):
            return us_sections(pages, lines, "10-K" if form == "10-KT" else form)
        return []
    if market == "A":
        return cn_sections(pages, lines)
    if market == "HK":
        return hk_sections(pages, lines, info)
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
