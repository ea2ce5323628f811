"""The period of a US report whose cover leaves it open, from its own statements.

A 10-Q cover prints the quarter's end date but not which quarter of the fiscal year it is (that depends on the
fiscal-year end, which the cover does not state), and an earnings release or 8-K prints the date of the report,
not the period it reports. The statements say both: their columns run "Three Months Ended July 2, 2023" and
"Six Months Ended July 2, 2023", so the latest column end is the period end and the longest span ending there is
the year to date: 3 months is Q1, 6 Q2, 9 Q3, 12 Q4 (an earnings release of the fourth quarter prints the year).
A 10-Q prints the year to date beside the quarter (Regulation S-X), so three months alone is the first quarter;
a release may print its quarter alone, so there three months leaves the quarter open.

``complete_period(info, facts)`` fills ``fiscal_period``, ``period_end`` (10-Q only: an 8-K keeps its date of
report) and ``fiscal_year_end_month`` where recognition left them open, and sets ``fiscal_year`` to the year the
statements end (a manifest's year or an 8-K's date of report is a guess; a 10-Q whose cover date the statements do
not end on is left alone). Nothing is filled when the statements were not read or their spans are not whole quarters.
"""

from __future__ import annotations

import datetime as dt
import re

from schema.fiscal import fiscal_year_of, nominal_end
from schema.models import DocumentInfo, Fact, Page

QUARTER_OF_SPAN = {3: "Q1", 6: "Q2", 9: "Q3", 12: "Q4"}  # months of the year to date -> the quarter it ends
OPEN_FORMS = ("10-Q", "8-K", "earnings_release")
SAME_END_DAYS = 7  # columns ending within a week of each other end the same period (52/53-week calendars)
MONTH_DAYS = 30.44


def span_months(start: dt.date, end: dt.date) -> int:
    """Whole months of a duration (a 13-week quarter is 3, a 39-week year to date 9)."""
    return round(((end - start).days + 1) / MONTH_DAYS)


def statement_period(facts: list[Fact]) -> tuple[dt.date, int] | None:
    """(period end, months of the longest span ending there) of a report's primary statements, or None."""
    spans = [(f.period_end, f.period_start) for f in facts
             if f.period_type == "duration" and f.period_start and f.period_end and f.statement and not f.dimensions]
    if not spans:
        return None
    latest = max(end for end, _ in spans)
    months = [span_months(start, end) for end, start in spans if (latest - end).days <= SAME_END_DAYS]
    longest = max(months)
    return (latest, longest) if longest in QUARTER_OF_SPAN else None


def _month_end_after(d: dt.date, months: int) -> dt.date:
    """The last day of the month ``months`` after ``d``'s month."""
    y, m = divmod(d.month + months, 12)  # the month after that one, 0-based
    return dt.date(d.year + y, m + 1, 1) - dt.timedelta(days=1)


_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_HEADLINE = [  # "2023 Second-Quarter", "second quarter of fiscal 2023", "Q2 2023", "fourth-quarter and full-year 2022"
    re.compile(r"\b(20\d\d)\s+(first|second|third|fourth)[-\s]quarter\b", re.I),
    re.compile(r"\b(first|second|third|fourth)[-\s]quarter(?:\s+and\s+full[-\s]year)?\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?)?"
               r"(20\d\d)\b", re.I),
    re.compile(r"\bQ([1-4])\s+(?:fiscal\s+)?(20\d\d)\b"),
]
HEADLINE_CHARS = 1500  # a release names its quarter at the top of its first page


def headline_quarter(pages: list[Page]) -> tuple[int, str] | None:
    """(fiscal year, "Q1".."Q4") a release's first page names at its top, the first one named, or None."""
    text = pages[0].text[:HEADLINE_CHARS] if pages else ""
    hits = []
    for rx in _HEADLINE:
        for m in rx.finditer(text):
            a, b = m.group(1), m.group(2)
            year, quarter = (int(a), _ORDINAL[b.lower()]) if a.isdigit() and len(a) == 4 else \
                (int(b), _ORDINAL.get(a.lower()) or int(a))
            hits.append((m.start(), year, f"Q{quarter}"))
    return min(hits)[1:] if hits else None


def complete_period(info: DocumentInfo, facts: list[Fact], pages: list[Page] | None = None) -> DocumentInfo:
    """``info`` with its open period fields filled from ``facts`` (see the module docstring); a release or 8-K
    whose statements leave its quarter open takes the one its first page names ("2023 Second-Quarter")."""
    if info.market != "US" or info.form not in OPEN_FORMS or info.fiscal_period:
        return info
    found = statement_period(facts)
    if (found is None or (found[1] == 3 and info.form != "10-Q")) and info.form != "10-Q":
        named = headline_quarter(pages or [])
        if named:  # a release may print its quarter alone, or its statements were not read: its headline says
            # which quarter; its year is the company's own name for it, kept only where recognition left none
            info.fiscal_year = info.fiscal_year or named[0]
            info.fiscal_period = named[1]
        return info
    if found is None:
        return info
    end, months = found
    if months == 3 and info.form != "10-Q":
        return info  # a release may print its quarter alone: which quarter of the year it is stays open
    if info.form == "10-Q" and info.period_end and abs((info.period_end - end).days) > SAME_END_DAYS:
        return info  # the statements read are not the quarter the cover names
    info.fiscal_period = QUARTER_OF_SPAN[months]
    if info.form == "10-Q":
        info.period_end = info.period_end or end
    year_end = _month_end_after(nominal_end(end), 12 - months)
    info.fiscal_year_end_month = info.fiscal_year_end_month or year_end.month
    info.fiscal_year = fiscal_year_of(year_end)  # the statements' year, over a file name's or the report date's
    return info
