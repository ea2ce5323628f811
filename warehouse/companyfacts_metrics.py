"""Canonical metric values of an SEC companyfacts document: one set per filing its values were copied from.

companyfacts lists each period's value once per filing that tagged it (the period's own 10-K / 10-Q and later
ones as comparatives). The values of one filing are read exactly as that filing's own XBRL facts would be
(``warehouse.metrics.document_metric_rows`` with the filing's form, period and fiscal-year end), so a quarter,
a year to date or a year lands on the same fiscal year and period as in the iXBRL filing itself. Each row
keeps its filing: ``report_type`` its form, ``doc_period_end`` its period, ``filed`` the day it was filed,
``source_kind`` own_report / comparative relative to that filing, and ``form_rank`` the rank of a copy
(``warehouse.basis.COPY_RANK``), so that the basis rules rank it by the filing it came from and a filing in
the warehouse that prints the same figure stays the cited source.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections import defaultdict
from decimal import Decimal

from parsers.us_companyfacts import ANNUAL_FORMS, SourceFiling, filing_period_end, source_of
from schema.fiscal import nominal_end
from schema.models import DocumentInfo, Fact
from warehouse.basis import COPY_RANK

# Forms whose tagged figures are the company's financial statements: periodic reports, their amendments, and
# current reports that re-issue statements (Apple's 8-Ks of 2013 and 2015 carry a full year). Other forms tag a
# few figures for another purpose (a proxy statement's pay-versus-performance table, a prospectus cover): their
# values stay facts of the document and are not metric candidates.
REPORT_FORMS = frozenset({"10-K", "10-KT", "10-Q", "10-QT", "20-F", "40-F", "8-K", "6-K"})


def is_report(form: str) -> bool:
    return form.split("/")[0].strip() in REPORT_FORMS


def tagged_rounding(value: Decimal) -> int:
    """The rounding of a copied value. companyfacts drops each fact's ``decimals``; a value is taken as rounded
    to its last non-zero digit (7201000000 to 10^6, 7201368000 to 10^3, 1.21 to 10^-2), the precision its
    digits show, as a printed "7,201" in millions would. Nvidia tagged its FY2015 total assets as 7,201,368
    thousand and printed them as 7,201 million a year later: the same amount, not a restatement."""
    if not value:
        return 0
    return value.normalize().as_tuple().exponent


def _fye_month(end: dt.date, annual_ends: list[dt.date], default: int | None) -> int:
    """The fiscal-year end of the year a period belongs to: the first annual period ending on or after it (a
    company that moved its year end keeps the old one for the old years), else the latest one, else the
    document's."""
    i = bisect.bisect_left(annual_ends, end)
    if i < len(annual_ends):
        return nominal_end(annual_ends[i]).month
    if annual_ends:
        return nominal_end(annual_ends[-1]).month
    return default or 12


def copied_metric_rows(info: DocumentInfo, facts: list[Fact]):
    """[(MetricRow, Report)] for every filing of the document that is a financial report."""
    from warehouse.metrics import Report, document_metric_rows

    by_filing: dict[SourceFiling, list[Fact]] = defaultdict(list)
    for fact in facts:
        src = source_of(fact.locator)
        if src is not None and is_report(src.form):
            by_filing[src].append(fact)
    ends = {src: filing_period_end(group, src.filed) for src, group in by_filing.items()}
    annual_ends = sorted({end for src, end in ends.items()
                          if end is not None and src.form.split("/")[0] in ANNUAL_FORMS})
    out = []
    for src, group in sorted(by_filing.items(), key=lambda kv: (kv[0].filed, kv[0].accn)):
        end = ends[src]
        if end is None:
            continue
        annual = src.form.split("/")[0] in ANNUAL_FORMS
        filing = DocumentInfo(market=info.market, stock_code=info.stock_code, form=src.form,
                              fiscal_period="FY" if annual else None, period_end=end,
                              fiscal_year_end_month=_fye_month(end, annual_ends, info.fiscal_year_end_month))
        report = Report(src.form, end, COPY_RANK, src.filed)
        for row in document_metric_rows(filing, group):
            row.rounding = tagged_rounding(row.value)
            out.append((row, report))
    return out
