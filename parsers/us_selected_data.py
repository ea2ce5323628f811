"""US 10-K Item 6, Selected Financial Data (the five-year summary 10-Ks printed until fiscal 2020): the years
before the statements' two or three, as ``statement="key_figures"`` facts.

A page with a line that titles it ("Selected Financial Data", "Selected Consolidated Financial Data", "Five-Year
Financial Summary") is read when it prints a unit caption ("(Amounts in millions, except per share data)") and a
header of three or more consecutive years ("2018 2017 2016 2015 2014"); a row is a label and exactly one value per
year; a basic or diluted row under a per-share heading carries the heading in front (as statements' "Earnings per
share: Basic" do). Only rows whose label ``mappings/labels_us.yaml`` maps under ``key_figures`` give facts: a balance
(``period: instant``) at the year's end, a flow over the year. The most recent year's column ends on the report's
own period end and each earlier column a year before it (a 52/53-week year is within the duration rules). The
statements rank above these rows for the years they print (``warehouse.metrics``); a contents page or a page
without a caption gives nothing (the scale is never guessed)."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from mappings.metrics import metric_for_label, metrics
from parsers.statement_lines import parse_amount, split_row
from parsers.statement_units import rule_unit
from schema.models import DocumentInfo, Fact, Page

# over the line with its spaces removed: a text layer splits words ("Selected Financial Dat a.")
TITLE = re.compile(r"^(?:item6\.?)?(?:selected(?:consolidated)?financial(?:data|information)|five-?year(?:financial)?summary)"
                   r"(?![a-z])", re.I)
HEADER_LINES = 12  # the years' header sits within this many lines below the title
UNIT_BELOW = 2  # the unit caption may follow the years' header by this many lines
MIN_YEARS = 3
_YEARS = re.compile(r"(?:^|\s)((?:19|20)\d\d)(?=\s|$)")
_PER_SHARE = re.compile(r"per (?:common |ordinary |diluted |basic )?share|\beps\b", re.I)
SCALE_WORDS = {0: "units", 3: "thousands", 6: "millions", 9: "billions"}
_BASIC_DILUTED = re.compile(r"\b(?:basic|diluted)\b", re.I)
_SHARE_COUNT = re.compile(r"weighted|\bshares (?:used|outstanding)\b|number of shares", re.I)
# a continuing operations' figure is not the year's ("Income from continuing operations attributable to Walmart")
_CONTINUING = re.compile(r"continuing operations", re.I)


_FOOTNOTE = re.compile(r"\s*\(\d{1,2}\)|\*")  # "2017 (1)", "2015 (2) 2014 (2)", "2018*"
# footnote marks in a row: letters anywhere ("$ 20,182 (a)(b)"), a number right after a label's word ("Basic earnings
# per share (2) $ 0.60"; a negative figure follows a number, "$" or ")", and a row a mark was wrongly taken from no
# longer has one figure per year, so it is skipped, never misread)
_NOTE_MARKS = re.compile(r"\s*\([a-z]\)|(?<=[A-Za-z:])(?:\s*\(\d{1,2}\))+(?=\s|$)")
# a caption of the columns' dates, never the first part of a wrapped label ("Year Ended May 31," / "Revenues ...")
_CAPTION = re.compile(r"^(?:(?:fiscal )?years? ended|as of|at)\b", re.I)


def _years(line: str) -> list[int]:
    """The years a header line ends with, when they are consecutive (descending or ascending)."""
    line = _FOOTNOTE.sub("", line).rstrip()
    found = [int(y) for y in _YEARS.findall(line)]
    if len(found) < MIN_YEARS or not line.endswith(str(found[-1])):
        return []
    steps = {b - a for a, b in zip(found, found[1:])}
    return found if steps in ({1}, {-1}) else []


def _year_end(info: DocumentInfo, latest: int, year: int) -> dt.date | None:
    end = info.period_end
    if end is None:
        return None
    back = latest - year
    try:
        return end.replace(year=end.year - back)
    except ValueError:  # 29 February
        return end.replace(year=end.year - back, day=28)


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
    scale = unit[1]
    years = _years(lines[header])
    latest = max(years)
    ccy = info.currency or "USD"
    known = metrics()
    out: list[Fact] = []
    pending = heading = ""
    for idx in range(header + 1, len(lines)):
        line = lines[idx]
        if _years(line):
            years = _years(line)  # a second block of the table with its own header
            latest = max(years)
            continue
        label, cells = split_row(_NOTE_MARKS.sub("", line))
        if not cells:
            pending = heading = _NOTE_MARKS.sub("", line)
            continue
        if pending and not _CAPTION.match(pending) and (label[:1].islower() or pending.endswith((" to", " of", " from"))):
            label = f"{pending} {label}"
        pending = ""
        if _SHARE_COUNT.search(heading) or _SHARE_COUNT.search(label):
            continue  # share counts ("Weighted-average shares used in computation of earnings per share: Basic")
        if _PER_SHARE.search(heading) and _BASIC_DILUTED.search(label):
            label = f"{heading.rstrip(':')} {label}"  # "Per share of 3M common stock: Net income attributable to 3M — basic"
        hit = None if _CONTINUING.search(label) else metric_for_label("US", "key_figures", label)
        if hit is None or len(cells) != len(years) or any(c.endswith("%") for c in cells):
            continue
        metric = known[hit[0]]
        per_share = metric.kind == "per_share"
        for ci, (cell, year) in enumerate(zip(cells, years)):
            value, end = parse_amount(cell), _year_end(info, latest, year)
            if value is None or end is None:
                continue
            start = None
            if metric.period == "duration":
                start = _year_end(info, latest, year - 1) + dt.timedelta(days=1)
            out.append(Fact(
                label=label, value=value if per_share else value * Decimal(10) ** scale, value_text=cell,
                unit=f"{ccy}/share" if per_share else ccy, scale=0 if per_share else scale,
                original_unit=f"{ccy}/share" if per_share else SCALE_WORDS.get(scale, f"1e{scale}"),
                period_start=start, period_end=end, period_type="duration" if start else "instant",
                statement="key_figures", consolidated=True, page=page, locator=f"p{page} r{idx + 1} c{ci + 1}",
                column=str(year)))
    return out

