"""Period arithmetic the answers need: how long a fiscal period is, when it starts, which stored periods a
trailing-twelve-month figure or a single quarter is made of, and which fiscal quarter a calendar month
names for a company."""

from __future__ import annotations

import datetime as dt
import re

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


# --------------------------------------------------------------------------- which stored periods a question names
DATE_SLACK_DAYS = 7  # a 52/53-week period ends up to a week from the month end a question names
SPAN_PERIODS = {"FY": ("FY",), "9M": ("9M",), "H1": ("H1",), "Q": ("Q1", "Q2", "Q3", "Q4")}
INSTANT_ORDER = ("FY", "9M", "H1", "Q4", "Q3", "Q2", "Q1")  # one balance sheet date, stored under several periods


def company_named(ref) -> bool:
    """Does a period name the year as the company does ("fiscal 2024", FY2024, 2024财年)? A period named by its
    end date ("the fiscal year ended February 2, 2025") is placed by that date instead."""
    return bool(ref.fiscal) and ref.period_end is None


def loosely_named(ref) -> bool:
    """A company-named year written the short way (FY2023, FY23): analysts use it for the company's own fiscal
    2023 and for the fiscal year ending in 2023 alike. "fiscal 2023" written out is the company's own name."""
    return company_named(ref) and not re.search(r"fiscal", ref.matched or "", re.I)


def keys_at_date(ref, have: list[tuple], period_end_of) -> list[tuple]:
    """The stored keys of one listing whose period ends within a week of the date the question names, of the
    span it names (a quarter: any single quarter; an instant: the first stored period at that date).
    ``period_end_of(key)`` gives a key's stored period end. Each company in its own fiscal calendar: "the
    March 2025 quarter" is Apple's Q2 FY2025 and a December filer's Q1 2025."""
    near = [k for k in have if period_end_of(k) is not None
            and abs((period_end_of(k) - ref.period_end).days) <= DATE_SLACK_DAYS]
    if ref.instant:
        for period in INSTANT_ORDER:
            hits = [k for k in near if k[3] == period]
            if hits:
                return hits[:1]
        return []
    return [k for k in near if k[3] in SPAN_PERIODS[ref.span or ref.fiscal_period or "FY"]]


def keys_for(ref, have: list[tuple], label_of, period_end_of) -> list[tuple]:
    """The stored keys (company, listing, fiscal_year, fiscal_period) that answer one period of a question:
    a date by the stored period ends (:func:`keys_at_date`), "fiscal N" by the company's own label
    (``label_of(key)``), a calendar year ("in 2024", 2024年) by the year in which the fiscal year ends."""
    if ref.period_end is not None:
        return keys_at_date(ref, have, period_end_of)
    want = ref.fiscal_period or "FY"
    if company_named(ref):
        return [k for k in have if k[3] == want and label_of(k) == ref.fiscal_year]
    return [k for k in have if k[2] == ref.fiscal_year and k[3] == want]


def year_offset(keys: list[tuple], label_of) -> int:
    """The company's label minus fiscal_year (Home Depot: -1; most companies 0)."""
    return next((label_of(k) - k[2] for k in keys), 0)


def _asked_year(v, by_label: bool) -> int:
    return v.fiscal_label if by_label and v.fiscal_label is not None else v.fiscal_year


def calendar_caveats(plan, values: list) -> list[str]:
    """What an analyst must know about the calendars behind the values: companies whose periods of the same
    name end in different months (both period ends), and how a calendar year ("in 2024") was read."""
    by_label = any(company_named(p) for p in plan.periods)
    groups: dict[tuple, dict[str, object]] = {}
    for v in values:
        if v.fiscal_period in PERIOD_MONTHS and v.period_end and not v.derived:
            groups.setdefault((_asked_year(v, by_label), v.fiscal_period), {}).setdefault(v.company_id, v.period_end)
    out = []
    for (year, period), per in sorted(groups.items()):
        if len({nominal_end(e).month for e in per.values()}) > 1:
            name = f"fiscal {year}" if by_label and period == "FY" else f"{period}{year}" if period != "FY" else f"FY{year}"
            out.append(f"fiscal years end in different months: {name} ends " +
                       ", ".join(f"{end} for {cid}" for cid, end in sorted(per.items())))
    calendar_years = [p for p in plan.periods if p.relative is None and p.fiscal_year and not p.fiscal
                      and p.period_end is None]
    if calendar_years:
        off = {}
        for v in values:
            if v.fiscal_period == "FY" and v.period_end and not v.derived and nominal_end(v.period_end).month != 12:
                off.setdefault(v.company_id, v.period_end)
        if off:
            years = ", ".join(dict.fromkeys(str(p.fiscal_year) for p in calendar_years))
            out.append(f"a calendar year is read by period end: {years} means the fiscal year ending in that year ("
                       + ", ".join(f"{cid}: ended {end}" for cid, end in sorted(off.items()))
                       + "); “fiscal N” asks for the company's own fiscal N")
    return out
