"""US 10-K Item 6, Selected Financial Data (the five-year summary 10-Ks printed until fiscal 2020): the years
before the statements' two or three, as ``statement="key_figures"`` facts.

A page with a line that titles it ("Selected Financial Data", "Selected Consolidated Financial Data", "Five-Year
Financial Summary") is read when it prints a unit caption ("(Amounts in millions, except per share data)") and a
header of three or more consecutive years ("2018 2017 2016 2015 2014"); a row is a label and exactly one value per
year, read as ``parsers.us_summary_rows`` reads summary rows (footnote marks, headings, per-share rows, only labels
``mappings/labels_us.yaml`` maps under ``key_figures``): a balance (``period: instant``) at the year's end, a flow
over the year. The most recent year's column ends on the report's
own period end and each earlier column a year before it (a 52/53-week year is within the duration rules). The
statements rank above these rows for the years they print (``warehouse.metrics``); a contents page or a page
without a caption gives nothing (the scale is never guessed)."""

from __future__ import annotations

import datetime as dt
import re

from parsers.statement_units import rule_unit
from parsers.us_summary_rows import SummaryRows, period_back, summary_fact
from schema.models import DocumentInfo, Fact, Page

# over the line with its spaces removed: a text layer splits words ("Selected Financial Dat a.")
TITLE = re.compile(r"^(?:item6\.?)?(?:selected(?:consolidated)?financial(?:data|information)|five-?year(?:financial)?summary)"
                   r"(?![a-z])", re.I)
HEADER_LINES = 12  # the years' header sits within this many lines below the title
UNIT_BELOW = 2  # the unit caption may follow the years' header by this many lines
MIN_YEARS = 3
_YEARS = re.compile(r"(?:^|\s)((?:19|20)\d\d)(?=\s|$)")
_FOOTNOTE = re.compile(r"\s*\(\d{1,2}\)|\*")  # "2017 (1)", "2015 (2) 2014 (2)", "2018*"
_SHORT_YEAR = re.compile(r"\b(?:[1-9]|1[01])[- ]months?\b|\b(?:eleven|ten|nine|seven|five|four|two)[- ]months?\b|"
                         r"transition period", re.I)


def _years(line: str) -> list[int]:
    """The years a header line ends with, when they are consecutive (descending or ascending)."""
    line = _FOOTNOTE.sub("", line).rstrip()
    found = [int(y) for y in _YEARS.findall(line)]
    if len(found) < MIN_YEARS or not line.endswith(str(found[-1])):
        return []
    steps = {b - a for a, b in zip(found, found[1:])}
    return found if steps in ({1}, {-1}) else []


def read(pages: list[Page], info: DocumentInfo) -> list[Fact]:
    """Key-figure facts of the first selected-data page that gives any."""
    if not info.company_metrics or info.period_end is None:
        return []
    for page in pages:
        lines = [x.strip() for x in page.text.split("\n") if x.strip()]
        title = next((i for i, x in enumerate(lines) if TITLE.match(re.sub(r"\s+", "", x)) and len(x) < 80), None)
        if title is None:
            continue
        facts = _read_page(page.page, lines, title, info)
        if facts:
            return facts
    return []


def _read_page(page: int, lines: list[str], title: int, info: DocumentInfo) -> list[Fact]:
    header = next((i for i in range(title + 1, min(len(lines), title + HEADER_LINES)) if _years(lines[i])), None)
    if header is None:
        return []
    unit = next((u for u in (rule_unit("us", x) for x in lines[title: header + UNIT_BELOW + 1]) if u), None)
    if unit is None:
        return []
    if any(_SHORT_YEAR.search(x) for x in lines[title: header + 1]):
        return []  # a column of a short (transition) year, "12-Month 11-Month": not every column is a year
    years = _years(lines[header])
    rows = SummaryRows()
    out: list[Fact] = []
    for idx in range(header + 1, len(lines)):
        if _years(lines[idx]):
            years = _years(lines[idx])  # a second block of the table with its own header
            continue
        read = rows.row(lines[idx])
        if read is None or read[2] is None or len(read[1]) != len(years):
            continue
        label, cells, metric = read
        for ci, (cell, year) in enumerate(zip(cells, years)):
            end = period_back(info.period_end, years=max(years) - year)  # the latest column ends on the report's own
            fact = summary_fact(info, metric, label, cell, unit[1], period_back(end, years=1) + dt.timedelta(days=1), end,
                                page, f"p{page} r{idx + 1} c{ci + 1}", str(year))
            if fact is not None:
                out.append(fact)
    return out
