"""The fiscal-year convention of the data contract: ``fiscal_year`` is the calendar year in which the fiscal
year ends, and a period that ends in the first week of a month counts for the previous month (52/53-week
years: a year "ending" 2023-01-01 is the 2022 fiscal year of a December filer)."""

from __future__ import annotations

import datetime as dt


def nominal_end(end: dt.date) -> dt.date:
    return end - dt.timedelta(days=8) if end.day <= 7 else end


def fiscal_year_of(end: dt.date) -> int:
    """The fiscal year of an annual period ending on ``end``."""
    return nominal_end(end).year
