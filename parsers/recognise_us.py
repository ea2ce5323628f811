"""US filings as PDF (e.g. FinanceBench): form, period, fiscal year and registrant name from the cover.

Rules: "FORM 10-K" / "10-Q" / "8-K" / "20-F" on the cover, the period from "for the fiscal year ended
December 31, 2022" / "quarterly period ended" / "Date of Report" (an 8-K); currency USD, standard US GAAP
(IFRS for a 20-F that names it), language en.
"""

from __future__ import annotations

import re
from pathlib import Path

from parsers.recognise_text import MONTHS, date_or_none, text_of
from schema.errors import UnrecognisedDocument
from schema.fiscal import fiscal_year_of, nominal_end
from schema.models import DocumentInfo, Page

_US_FORM = re.compile(r"FORM\s+(10-K|10-Q|8-K|20-F)\b", re.I)
_US_DATE = r"(January|February|March|April|May|June|July|August|September|October|November|December)\s+(\d{1,2}),\s*(\d{4})"
# the date may follow on the next line, after words of a column printed beside it ("For the quarterly period ended
# Commission file" / "March 31, 2021 number 1-5805")
_US_PERIOD = re.compile(r"(?:fiscal\s+)?(year|quarterly period|period)\s+ended:?\s*(?:[^\n\d]{0,40}\n\s*)?" + _US_DATE, re.I)
_US_8K = re.compile(r"Date of Report[^\n]{0,80}?\n?\s*" + _US_DATE + r"|" + _US_DATE + r"\s*\n?[^\n]{0,20}Date of Report", re.I)


def recognise_us(path: Path, pages: list[Page], info: DocumentInfo) -> DocumentInfo:
    head = text_of(pages, 3)
    m = _US_FORM.search(head)
    if not m:
        raise UnrecognisedDocument(str(path), "SEC filing but no FORM 10-K/10-Q/8-K/20-F on its cover")
    info.form = m.group(1).upper()
    if info.form == "8-K":
        dm = _US_8K.search(head)
        if not dm:
            raise UnrecognisedDocument(str(path), "8-K without a date of report")
        g = [x for x in dm.groups() if x]
        info.period_end = date_or_none(int(g[2]), MONTHS[g[0].lower()], int(g[1]))
        info.fiscal_year = info.period_end.year if info.period_end else None
    else:
        pm = _US_PERIOD.search(head)
        if not pm:
            raise UnrecognisedDocument(str(path), f"{info.form} without 'for the (fiscal year|quarterly period) ended'")
        info.period_end = date_or_none(int(pm.group(4)), MONTHS[pm.group(2).lower()], int(pm.group(3)))
        if info.form in ("10-K", "20-F"):
            info.fiscal_period = "FY"
            info.fiscal_year = fiscal_year_of(info.period_end)  # J&J's year "ending" 2023-01-01 is 2022
            info.fiscal_year_end_month = nominal_end(info.period_end).month
        # a 10-Q's quarter number depends on the fiscal year end, which its cover does not state
    nm = re.search(r"\n([^\n]{3,80})\n\(?\s*Exact name of registrant", head, re.I)
    if nm:
        info.company_name = nm.group(1).strip()
    info.currency = "USD"
    info.accounting_standard = "IFRS" if info.form == "20-F" and "IFRS" in head else "US_GAAP"
    info.language = "en"
    return info


def has_sec_cover(pages: list[Page]) -> bool:
    """'SECURITIES AND EXCHANGE COMMISSION' and a FORM 10-K / 10-Q / 8-K / 20-F in the first six pages."""
    head = text_of(pages, 6)
    return bool(re.search(r"SECURITIES AND EXCHANGE COMMISSION", head, re.I) and _US_FORM.search(head))


def has_us_marks(pages: list[Page]) -> bool:
    """The SEC, NYSE, NASDAQ or U.S. GAAP named in the first six pages (weaker than a form cover)."""
    return bool(re.search(r"SECURITIES AND EXCHANGE COMMISSION|\bNYSE\b|NASDAQ|U\.S\. GAAP", text_of(pages, 6), re.I))
