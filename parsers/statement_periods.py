"""Calendar arithmetic shared by the statement readers of every market: fiscal-year bounds from the fiscal
year-end month, shifting a date by whole years, month starts. A column's period always comes from its printed
header; these helpers only turn "fiscal 2024" or "three months ended" into dates."""

from __future__ import annotations

import calendar
import datetime as dt


def month_end(year: int, month: int, day: int | None = None) -> dt.date:
    """The ``day`` of a month, capped at its last day (the last day when ``day`` is None)."""
    last = calendar.monthrange(year, month)[1]
    return dt.date(year, month, min(day or last, last))


def fy_end(year: int, fye_month: int, day: int | None = None) -> dt.date:
    """Last day of fiscal ``year`` (the year in which it ends) for a fiscal year ending in ``fye_month``."""
    return month_end(year, fye_month, day)


def fy_start(year: int, fye_month: int) -> dt.date:
    """First day of fiscal ``year``."""
    if fye_month == 12:
        return dt.date(year, 1, 1)
    return dt.date(year - 1, fye_month + 1, 1)


def shift_years(d: dt.date, years: int) -> dt.date:
    """``d`` moved back ``years`` years (forward when negative), Feb 29 capped to Feb 28."""
    y = d.year - years
    return month_end(y, d.month, d.day)


def add_months(d: dt.date, months: int) -> dt.date:
    """First day of the month ``months`` after ``d``'s month."""
    y, m = divmod(d.month - 1 + months, 12)
    return dt.date(d.year + y, m + 1, 1)


def months_back(end: dt.date, months: int) -> dt.date:
    """First day of a span of ``months`` whole months that ends on ``end`` (a 13-week quarter ending on
    2023-04-29 starts 2023-01-29 by weeks; by months it starts 2023-02-01: callers that know weeks use them)."""
    return add_months(end, 1 - months)
