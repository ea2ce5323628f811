"""Fiscal-period arithmetic: a fact's dates -> (fiscal_year, fiscal_period).

fiscal_year is the calendar year in which the fiscal year ends. A period that ends in the first week of a
month is taken to end in the previous month (52/53-week years: a year "ending" 2023-01-01 is the 2022
fiscal year of a December filer)."""

from __future__ import annotations

import datetime as dt

from schema.fiscal import nominal_end



def _quarter_and_year(end: dt.date, fye_month: int) -> tuple[int, int]:
    nominal = nominal_end(end)
    quarter = ((nominal.month - fye_month - 1) % 12) // 3 + 1
    fiscal_year = nominal.year if nominal.month <= fye_month else nominal.year + 1
    return quarter, fiscal_year


def classify_duration(start: dt.date, end: dt.date, fye_month: int) -> tuple[int, str] | None:
    days = (end - start).days + 1
    quarter, fiscal_year = _quarter_and_year(end, fye_month)
    if 350 <= days <= 380 and quarter == 4:
        return fiscal_year, "FY"
    if 80 <= days <= 100:
        return fiscal_year, f"Q{quarter}"
    if 170 <= days <= 192 and quarter == 2:
        return fiscal_year, "H1"
    if 260 <= days <= 285 and quarter == 3:
        return fiscal_year, "9M"
    return None


def classify_instant(day: dt.date, fye_month: int, market: str, doc_period_end: dt.date | None = None,
                     doc_fiscal_period: str | None = None) -> tuple[int, str]:
    quarter, fiscal_year = _quarter_and_year(day, fye_month)
    if doc_period_end is not None and day == doc_period_end and doc_fiscal_period:
        period = "FY" if quarter == 4 else doc_fiscal_period
        if period == "9M":
            period = "Q3"
        return fiscal_year, period
    if quarter == 4:
        return fiscal_year, "FY"
    if quarter == 2:
        return fiscal_year, "Q2" if market == "US" else "H1"
    return fiscal_year, f"Q{quarter}"
