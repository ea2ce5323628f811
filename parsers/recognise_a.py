"""A-share reports (Simplified Chinese, CSRC formats): stock code, report kind, period and name.

Rules:
  * code: "公司代码：600080" / "证券代码：000999" / "股票代码 300347" in the first pages; H-share
    codes printed as "H股 ... 02359" or "06821.HK" go to ``other_codes`` as "2359.HK".
  * kind from the title: 半年度报告摘要 -> interim_summary (H1), 年度报告摘要 -> summary (FY),
    半年度报告 -> interim (H1), 第一季度报告 -> q1, 第三季度报告 -> q3, 年度报告 -> annual (FY).
  * year from "2024年年度报告" etc.; period_end the calendar quarter/half/year end (A-share fiscal
    years are calendar years); currency CNY; standard CAS; language from the first 20 pages (zh-Hans).
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from parsers.recognise_text import language_of, text_of
from schema.errors import UnrecognisedDocument
from schema.models import DocumentInfo, Page

_A_CODE = re.compile(r"(?:公司代码|证券代码|股票代码|A股代码)\s*[：:]?\s*(\d{6})")
_A_KIND = [
    (re.compile(r"(\d{4})\s*年\s*半年度报告摘要"), "interim_summary", "H1"),
    (re.compile(r"(\d{4})\s*年\s*年度报告摘要"), "summary", "FY"),
    (re.compile(r"(\d{4})\s*年\s*半年度报告"), "interim", "H1"),
    (re.compile(r"(\d{4})\s*年\s*第?一季度报告"), "q1", "Q1"),
    (re.compile(r"(\d{4})\s*年\s*第?三季度报告"), "q3", "Q3"),
    (re.compile(r"(\d{4})\s*年\s*年度报告"), "annual", "FY"),
]
_A_PERIOD_END = {"FY": (12, 31), "H1": (6, 30), "Q1": (3, 31), "Q3": (9, 30)}
_A_NAME = re.compile(r"^([\u4e00-\u9fff（）()]{2,40}?(?:股份有限公司|有限责任公司|有限公司))\s*(?:\d{4}\s*年[^\n]{0,12}报告[^\n]{0,4})?$")
_H_CODE = re.compile(r"H股[^\n]{0,30}?\b(\d{4,5})\b|\b(\d{4,5})\.HK\b")


def has_a_share_cover(pages: list[Page]) -> bool:
    """An A-share stock code in the first pages and a report title (年度报告 ...) on the first three."""
    return bool(_A_CODE.search(text_of(pages, 12)) and any(rx.search(text_of(pages, 3)) for rx, _, _ in _A_KIND))


def recognise_a(path: Path, pages: list[Page], info: DocumentInfo) -> DocumentInfo:
    head = text_of(pages, 12)
    m = _A_CODE.search(head)
    info.stock_code = m.group(1) if m else None
    first = text_of(pages, 3)
    for rx, kind, period in _A_KIND:
        km = rx.search(first)
        if km:
            info.form, info.fiscal_period, info.fiscal_year = kind, period, int(km.group(1))
            break
    else:
        raise UnrecognisedDocument(str(path), "A-share report but no report title (年度报告/半年度报告/季度报告) found")
    mo, d = _A_PERIOD_END[info.fiscal_period]
    info.period_end = dt.date(info.fiscal_year, mo, d)
    info.fiscal_year_end_month = 12
    for line in first.split("\n"):
        nm = _A_NAME.match(line.strip())
        if nm:
            info.company_name = nm.group(1)
            break
    others = []
    for hm in _H_CODE.finditer(head):
        code = (hm.group(1) or hm.group(2)).lstrip("0").zfill(4) + ".HK"
        if code not in others:
            others.append(code)
    info.other_codes = others
    info.currency = "CNY"
    info.accounting_standard = "CAS"
    info.language = language_of(text_of(pages, 20))
    return info
