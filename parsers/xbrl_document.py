"""The DocumentInfo of an XBRL filing from its dei facts: company, CIK, codes, form, fiscal year and period, period
end, and the names the filing prints about its issuer."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from pathlib import Path

from parsers.xbrl_facts import parse_date
from schema.models import DocumentInfo, Fact

_TICKER_PREFIX = re.compile(r"^([a-z][a-z0-9.]{0,9})-\d{8}", re.I)
_ANNUAL_FORMS = ("10-K", "20-F", "40-F", "10-KT", "20-FR", "N-CSR")


def _nominal(d: dt.date) -> tuple[int, int]:
    """(year, month) a 52/53-week period end stands for: an end in the first week of a month belongs to
    the previous month (Home Depot's 2025-02-02 is a January year end)."""
    if d.day <= 7:
        first = d.replace(day=1) - dt.timedelta(days=1)
        return first.year, first.month
    return d.year, d.month


def _dei(facts: list[Fact], name: str) -> list[Fact]:
    return [f for f in facts if f.concept is not None and f.concept.endswith(":" + name)
            and f.concept.split(":", 1)[0].startswith("dei")]


def _first_text(facts: list[Fact], name: str) -> str | None:
    cands = _dei(facts, name)
    cands.sort(key=lambda f: len(f.dimensions))
    for f in cands:
        if f.value_text:
            return f.value_text.strip()
    return None


def document_info(path: Path, facts: list[Fact], warnings: list[str]) -> DocumentInfo:
    company = _first_text(facts, "EntityRegistrantName")
    cik_raw = _first_text(facts, "EntityCentralIndexKey")
    cik = None
    if cik_raw and re.fullmatch(r"\d{1,10}", cik_raw.strip()):
        cik = cik_raw.strip().zfill(10)

    m = _TICKER_PREFIX.match(path.name)
    file_ticker = m.group(1).upper() if m else None
    symbols = [(len(f.dimensions), (f.value_text or "").strip().upper()) for f in _dei(facts, "TradingSymbol")]
    symbols = [s for s in symbols if s[1] and re.fullmatch(r"[A-Z0-9.\-]{1,12}", s[1])]
    stock_code = None
    if symbols:
        if file_ticker and any(s == file_ticker for _, s in symbols):
            stock_code = file_ticker
        else:
            stock_code = sorted(symbols)[0][1]
    if stock_code is None:
        stock_code = file_ticker

    form = _first_text(facts, "DocumentType")
    form = form.strip().upper() if form else None

    period_end = None
    pe_facts = _dei(facts, "DocumentPeriodEndDate")
    for f in pe_facts:
        period_end = parse_date(f.value_text)
        if period_end is None and f.period_end is not None:
            period_end = f.period_end
        if period_end:
            break
    if period_end is None:
        for f in _dei(facts, "DocumentType"):
            if f.period_end:
                period_end = f.period_end
                break
    # the cover's period end should match the document context's end; trust the context when the cover
    # text is off by more than a week (typos in old filings)
    for f in _dei(facts, "DocumentType"):
        if f.period_end and period_end and abs((f.period_end - period_end).days) > 7:
            warnings.append(f"DocumentPeriodEndDate {period_end} differs from the document context end {f.period_end}")
            period_end = f.period_end
        break

    fye_month = None
    fye = _first_text(facts, "CurrentFiscalYearEndDate")
    if fye:
        mm = re.search(r"--(\d{2})-(\d{2})", fye)
        if mm:
            month, day = int(mm.group(1)), int(mm.group(2))
            if 1 <= month <= 12:
                if day <= 7:
                    month = 12 if month == 1 else month - 1
                fye_month = month
    focus_period = (_first_text(facts, "DocumentFiscalPeriodFocus") or "").upper() or None
    focus_year_raw = _first_text(facts, "DocumentFiscalYearFocus")
    focus_year = int(focus_year_raw[:4]) if focus_year_raw and re.match(r"\d{4}", focus_year_raw) else None

    annual = bool(form) and any(form.startswith(a) for a in _ANNUAL_FORMS)
    fiscal_period = None
    fiscal_year = None
    if period_end is not None:
        ny, nm = _nominal(period_end)
        if annual:
            fiscal_period = "FY"
            if fye_month is None:
                fye_month = nm
            elif fye_month != nm:
                warnings.append(f"CurrentFiscalYearEndDate month {fye_month} differs from period end {period_end}")
            fiscal_year = period_end.year if not (period_end.month == 1 and period_end.day <= 7) else period_end.year - 1
        else:
            if fye_month is None and focus_period in ("Q1", "Q2", "Q3"):
                fye_month = (nm - 1 + (4 - int(focus_period[1])) * 3) % 12 + 1
            if fye_month is not None:
                to_end = (fye_month - nm) % 12
                end_year = ny + (1 if nm + to_end > 12 else 0)
                fiscal_year = end_year
                q = (12 - to_end) // 3 if to_end % 3 == 0 else None
                if q in (1, 2, 3):
                    fiscal_period = f"Q{q}"
                elif q == 4 or to_end == 0:
                    fiscal_period = "FY" if form is None else None
            if fiscal_period is None and focus_period in ("Q1", "Q2", "Q3", "Q4", "H1", "FY"):
                fiscal_period = focus_period
    if fiscal_year is None:
        fiscal_year = focus_year
    if focus_year is not None and fiscal_year is not None and focus_year != fiscal_year:
        warnings.append(
            f"dei:DocumentFiscalYearFocus {focus_year} differs from the year the fiscal year ends ({fiscal_year}); "
            "using the latter")
    if focus_period and fiscal_period and focus_period != fiscal_period:
        warnings.append(f"dei:DocumentFiscalPeriodFocus {focus_period} differs from derived {fiscal_period}")

    currencies: Counter[str] = Counter()
    standards: Counter[str] = Counter()
    for f in facts:
        if f.unit and re.fullmatch(r"[A-Z]{3}", f.unit) and f.value is not None:
            currencies[f.unit] += 2 if not f.dimensions else 1
        if f.concept:
            p = f.concept.split(":", 1)[0]
            if p.startswith("ifrs"):
                standards["IFRS"] += 1
            elif p.startswith("us-gaap"):
                standards["US_GAAP"] += 1
    standard = "IFRS" if standards["IFRS"] > standards["US_GAAP"] else "US_GAAP"
    return DocumentInfo(
        file_name=path.name,
        market="US",
        company_name=company,
        stock_code=stock_code,
        cik=cik,
        form=form,
        fiscal_year=fiscal_year,
        fiscal_period=fiscal_period,
        period_end=period_end,
        fiscal_year_end_month=fye_month,
        language="en",
        currency=currencies.most_common(1)[0][0] if currencies else None,
        accounting_standard=standard,
        pages=None,
    )
