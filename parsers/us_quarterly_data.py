"""A US 10-K's quarterly financial data (the unaudited note "Quarterly Financial Data", "Selected Quarterly Financial
Data", "Quarterly Results of Operations"): each quarter's figures of the report's years, as ``key_figures`` facts
of single quarters. A fourth quarter is printed nowhere else in a 10-K.

A page with a line naming such data ("Note 17. Quarterly Financial Data (Unaudited)", "Unaudited quarterly results are
as follows (in millions, except per share data):") is read when a unit caption is among its lines before the first
row. The columns are the quarters the header lines name in order (Q1 .. Q4, 1st .. 4th, First .. Fourth, "1ST QUARTER";
a quarter word may stand on its own line), a year's total after them when printed ("Total", "Fiscal Year"), and, when
a header line prints years under the quarters ("2019 2018 2019 2018 ..."), each quarter of each year. Otherwise the
year is the block's: a line naming it ("Fiscal Year Ended January 31, 2018", "Fiscal 2019", "Year Ended December 31,
2016"). A row is read only with one figure per column, as ``parsers.us_summary_rows`` reads summary rows; totals are
not read (the statements print the year). The latest year's fourth quarter ends on the report's own period end, each
quarter three months (a 52/53-week year: 13 weeks) after the one before (``parsers.us_summary_rows.period_back``)."""

from __future__ import annotations

import datetime as dt
import re

from parsers.statement_lines import split_row
from parsers.statement_units import rule_unit
from parsers.us_summary_rows import NOTE_MARKS, SummaryRows, period_back, summary_fact
from schema.models import DocumentInfo, Fact, Page

TITLE = re.compile(r"quarterly\s+(?:financial\s+)?(?:data|results|information|operating\s+results)", re.I)
HEADER_LINES = 16  # the columns' header sits within this many lines below the title
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4,
             "q1": 1, "q2": 2, "q3": 3, "q4": 4}
_QUARTER = re.compile(r"\b(q[1-4]|[1-4](?:st|nd|rd|th)|first|second|third|fourth)\b", re.I)
_TOTAL = re.compile(r"\b(?:total|fiscal\s+year|full\s+year|year)\s*$", re.I)
_BLOCK_YEAR = re.compile(r"^(?:fiscal\s+(?:year\s+)?(?:ended\s+[a-z]+\s+\d{1,2},\s*)?|(?:fiscal\s+)?years?\s+ended\s+[a-z]+\s+"
                         r"\d{1,2},\s*)?((?:19|20)\d\d)\b", re.I)
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_YEAR_MARK = re.compile(r"(?<=\d{4})\s*\(\d{1,2}\)")  # "2018 (1)" in a header


def read(pages: list[Page], info: DocumentInfo) -> list[Fact]:
    """Single-quarter facts of the first quarterly-data page that gives any."""
    if not info.company_metrics or info.period_end is None or info.fiscal_period not in (None, "FY"):
        return []
    for page in pages:
        lines = [x.strip() for x in page.text.split("\n") if x.strip()]
        for title in (i for i, x in enumerate(lines) if len(x) < 200 and TITLE.search(x)):
            facts = _read_block(page.page, lines, title, info)
            if facts:
                return facts
    return []


def _block_year(line: str) -> int | None:
    cleaned = NOTE_MARKS.sub("", re.sub(r"\s*\(\d\)", "", line)).strip()
    m = _BLOCK_YEAR.match(cleaned)
    return int(m.group(1)) if m and not split_row(cleaned)[1][1:] else None


def _columns(lines: list[str], start: int) -> tuple[list[tuple[int, int | None]], bool, int] | None:
    """(columns as (quarter, year or None), a total column after them, index of the first value row)."""
    quarters: list[int] = []
    years: list[int] = []
    total = False
    for i in range(start, min(len(lines), start + HEADER_LINES)):
        line = _YEAR_MARK.sub("", NOTE_MARKS.sub("", lines[i]))
        label, cells = split_row(line)
        if cells and all(_YEAR.match(c) for c in cells) and len(cells) >= 2 * max(len(quarters), 1) and quarters:
            years = [int(c) for c in cells]
            continue
        if cells and not all(_YEAR.match(c) for c in cells):
            if len(quarters) == 4:
                cols = [(q, None) for q in quarters]
                if years and len(years) == 2 * len(quarters):
                    cols = [(q, y) for q in quarters for y in years[2 * (q - 1): 2 * q]]
                return cols, total, i
            return None
        found = [_ORDINALS[m.lower()] for m in _QUARTER.findall(line)]
        if found and found == list(range(len(quarters) + 1, len(quarters) + 1 + len(found))):
            quarters += found
            total = total or bool(_TOTAL.search(line))
        elif len(quarters) == 4 and _TOTAL.search(line):
            total = True
    return None


def _read_block(page: int, lines: list[str], title: int, info: DocumentInfo) -> list[Fact]:
    got = _columns(lines, title + 1)
    if got is None:
        return []
    cols, total, first = got
    unit = next((u for u in (rule_unit("us", x) for x in lines[title: first]) if u), None)
    if unit is None:
        return []
    year = next((y for y in (_block_year(x) for x in lines[title: first]) if y), None)
    rows = SummaryRows()
    found: list[tuple[int, int, str, str, int, str]] = []  # (year, quarter, metric, label, line, cell)
    for idx in range(first, len(lines)):
        block = _block_year(lines[idx])
        if block:
            year = block
            continue
        read = rows.row(lines[idx])
        if read is None or read[2] is None:
            continue
        label, cells, metric = read
        if len(cells) == len(cols) + 1 and total:
            cells = cells[:-1]
        if len(cells) != len(cols):
            continue
        for (quarter, col_year), cell in zip(cols, cells):
            y = col_year or year
            if y is None:
                continue
            found.append((y, quarter, metric, label, idx, cell))
    if not found:
        return []
    latest = max(y for y, *_ in found)
    out = []
    for y, quarter, metric, label, idx, cell in found:
        end = period_back(info.period_end, years=latest - y, quarters=4 - quarter)
        start = period_back(end, quarters=1) + dt.timedelta(days=1)
        fact = summary_fact(info, metric, label, cell, unit[1], start, end, page, f"p{page} r{idx + 1} q{quarter}",
                            f"Q{quarter} {y}")
        if fact is not None:
            out.append(fact)
    return out
