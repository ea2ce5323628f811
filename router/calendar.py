"""Period arithmetic the answers need: how long a fiscal period is, when it starts, which stored periods a
trailing-twelve-month figure or a single quarter is made of, and which fiscal quarter a calendar month
names for a company."""

from __future__ import annotations

import datetime as dt

from dateutil.relativedelta import relativedelta

from schema.fiscal import nominal_end

PERIOD_MONTHS = {"FY": 12, "H1": 6, "9M": 9, "Q1": 3, "Q2": 3, "Q3": 3, "Q4": 3}
# year-to-date periods a report prints, by the quarters they cover
YTD_OF_QUARTER = {1: "Q1", 2: "H1", 3: "9M", 4: "FY"}
QUARTER_ENDING = {"Q1": 1, "H1": 2, "Q2": 2, "9M": 3, "Q3": 3, "FY": 4, "Q4": 4}


def period_start(end: dt.date, fiscal_period: str) -> dt.date:
    """First day of a period that ends on ``end`` (52/53-week years: from the nominal month end)."""
    nominal = nominal_end(end)
    return nominal - relativedelta(months=PERIOD_MONTHS[fiscal_period]) + dt.timedelta(days=1)


def fiscal_quarter_of_month(year: int, month: int, fye_month: int) -> tuple[int, str]:
    """(fiscal_year, 'Qn') of the fiscal quarter that ends in calendar ``month`` of ``year`` for a company
    whose fiscal year ends in ``fye_month`` (fiscal_year: the calendar year in which the fiscal year ends).
    Apple (September year end): the quarter ending March 2025 is Q2 of fiscal 2025."""
    offset = (month - fye_month - 1) % 12  # months since the fiscal year began, 0-based
    quarter = offset // 3 + 1
    fiscal_year = year if month <= fye_month else year + 1
    return fiscal_year, f"Q{quarter}"


def quarter_ends_in_month(month: int, fye_month: int) -> bool:
    """Does a fiscal quarter of this company end in ``month``?"""
    return (month - fye_month) % 3 == 0
