"""Fiscal years as each company names them.

Two year columns, two meanings (DESIGN.md section 3):

- ``fiscal_year``: the calendar year in which the fiscal year ends (a period ending in the first week of a
  month counts for the month before). One rule for every company: sorting, joins, comparisons.
- ``fiscal_year_label``: the number the company itself puts on that year ("fiscal 2024"). Home Depot names
  the year ended 2025-02-02 "fiscal 2024" (fiscal_year 2025, label 2024); Nvidia and Walmart name a year by
  the year it ends in (label = fiscal_year); A-share and HK reports name the calendar year of the period end.

Where the label comes from, first that applies, per company:
1. its XBRL filings' ``dei:DocumentFiscalYearFocus`` against their fiscal_year (the offset of the latest
   filing that tags it; the filings of one company agree on it);
2. the company master's naming rule (``fiscal_year_named_by: start`` in mappings/companies.yaml): the year in
   which the fiscal year starts;
3. otherwise the year in which it ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import duckdb

from mappings.companies import start_year_labels

# The label rules a company can follow.
RULES = ("dei", "start", "end")


@dataclass(frozen=True)
class Naming:
    rule: str  # dei | start | end
    offset: int | None = None  # label - fiscal_year, for rule "dei"
    source: str | None = None  # the document the offset was read from

    def label(self, fiscal_year: int, fye_month: int | None) -> int:
        if self.rule == "dei" and self.offset is not None:
            return fiscal_year + self.offset
        if self.rule == "start":
            # a year that ends in December starts in the same calendar year; any other starts the year before
            return fiscal_year if fye_month in (None, 12) else fiscal_year - 1
        return fiscal_year


FOCUS_SQL = """
SELECT d.stock_code, d.fiscal_year, f.value_text, d.doc_name
FROM facts f JOIN documents d USING (document_id)
WHERE f.concept = 'dei:DocumentFiscalYearFocus' AND d.fiscal_year IS NOT NULL
  AND d.stock_code IN (SELECT unnest(?))
ORDER BY d.period_end DESC NULLS LAST, d.document_id
"""


def namings(con: duckdb.DuckDBPyConnection, stock_codes: list[str]) -> dict[str, Naming]:
    """The naming rule of each listing."""
    out: dict[str, Naming] = {}
    for code, fiscal_year, text, doc_name in con.execute(FOCUS_SQL, [stock_codes]).fetchall():
        match = re.match(r"\s*(\d{4})", text or "")
        if code in out or not match:
            continue
        out[code] = Naming("dei", int(match.group(1)) - fiscal_year, doc_name)
    starts = start_year_labels()
    for code in stock_codes:
        if code not in out:
            out[code] = Naming("start") if code in starts else Naming("end")
    return out


def fye_months(con: duckdb.DuckDBPyConnection, stock_codes: list[str]) -> dict[str, int]:
    """The nominal month in which each listing's fiscal year ends (from its documents)."""
    rows = con.execute(
        """SELECT stock_code, fiscal_year_end_month FROM documents WHERE stock_code IN (SELECT unnest(?))
           AND fiscal_year_end_month IS NOT NULL ORDER BY period_end DESC NULLS LAST""", [stock_codes]).fetchall()
    out: dict[str, int] = {}
    for code, month in rows:
        out.setdefault(code, month)
    return out


def label_offsets(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """company_id -> (the company's own name for a fiscal year) - fiscal_year, for every company with documents
    whose names differ from the year they end in (Home Depot: -1)."""
    pairs = con.execute("SELECT DISTINCT company_id, stock_code FROM documents "
                        "WHERE company_id IS NOT NULL AND stock_code IS NOT NULL").fetchall()
    codes = sorted({code for _c, code in pairs})
    names, months = namings(con, codes), fye_months(con, codes)
    offsets = {company: names[code].label(2000, months.get(code)) - 2000 for company, code in pairs}
    return {company: off for company, off in offsets.items() if off}

