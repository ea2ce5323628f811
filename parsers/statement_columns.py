"""Period columns of a printed statement, read from its header lines (US layout: "Years Ended December 31,
2022 2021 2020", "Three Months Ended  Six Months Ended / July 29, 2023 July 30, 2022 ...", "52 Weeks Ended",
"Fiscal Years Ended January 28, 2023 ..."). Every column's period comes from what its header prints: the year
(or full date), the month and day, and the span words (``mappings/statement_tables.yaml`` ``columns``). A span
that is not printed is taken as the fiscal year only in an annual report; otherwise the header is refused with
the reason, never guessed."""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass

from mappings.statement_tables import column_spans
from parsers import statement_periods as periods
from schema.fiscal import nominal_end

ANNUAL_FORMS = frozenset({"10-K", "20-F", "annual", "10-K405", "10-KT"})
WEEKS_DAYS = 7  # a 52/53-week span is counted in weeks when its end is not a month end
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m} | {
    m.lower(): i for i, m in enumerate(calendar.month_abbr) if m}
_MONTH_RX = "|".join(sorted((re.escape(m) for m in _MONTHS), key=len, reverse=True))
_FULL_DATE = re.compile(rf"\b({_MONTH_RX})\.?\s+(\d{{1,2}}),?\s+((?:19|20)\d\d)\b", re.I)
_MONTH_DAY = re.compile(rf"\b({_MONTH_RX})\.?\s+(\d{{1,2}})\b(?!,?\s+(?:19|20)\d\d)", re.I)
_YEAR = re.compile(r"(?<![\d,.$])((?:19|20)\d\d)(?![\d,.%])")
_WEEKS = re.compile(r"\b(\d{2})\s+weeks\b|\b(fifty[-\s](?:two|three)|thirteen|twenty[-\s]six|thirty[-\s]nine)\s+weeks\b", re.I)
_WORD_WEEKS = {"thirteen": 13, "twenty-six": 26, "twenty six": 26, "thirty-nine": 39, "thirty nine": 39,
               "fifty-two": 52, "fifty two": 52, "fifty-three": 53, "fifty three": 53}


@dataclass(frozen=True)
class Column:
    header: str  # as printed ("2022", "July 29, 2023")
    end: dt.date
    months: int | None  # span of a duration column; None for a balance-sheet (instant) column
    weeks: int | None = None  # printed week count ("52 Weeks Ended")

    @property
    def start(self) -> dt.date | None:
        if self.months is None:
            return None
        if self.weeks:
            return self.end - dt.timedelta(days=self.weeks * WEEKS_DAYS - 1)
        if self.end.day == calendar.monthrange(self.end.year, self.end.month)[1]:
            return periods.months_back(self.end, self.months)
        # a 52/53-week year that does not end on a month end: the day after the same date a span earlier
        back = periods.add_months(self.end.replace(day=1), -self.months)
        return periods.month_end(back.year, back.month, self.end.day) + dt.timedelta(days=1)


def _year_cells(lines: list[str]) -> tuple[list[tuple[str, dt.date | None, int]], str | None]:
    """Columns as (printed header, full date or None, year), from the header line with the most of them."""
    best: list[tuple[str, dt.date | None, int]] = []
    for line in lines:
        full = [(m.group(0), dt.date(int(m.group(3)), _MONTHS[m.group(1).lower()], int(m.group(2))), int(m.group(3)))
                for m in _FULL_DATE.finditer(line)]
        rest = _FULL_DATE.sub(" ", line)
        years = [(m.group(1), None, int(m.group(1))) for m in _YEAR.finditer(rest)]
        if len(full) == 1 and years:
            # "Years ended December 31, 2018 2017 2016": one month and day over several year columns
            years = [(m.group(1), None, int(m.group(1))) for m in _YEAR.finditer(line)]
            full = []
        cells = full if len(full) >= len(years) else years
        if len(cells) > len(best):
            best = cells
    return best, None


def _spans(text: str) -> list[tuple[int, int, int | None]]:
    """(position, months, weeks) of every printed span phrase, in printed order."""
    found: list[tuple[int, int, int | None]] = []
    taken: list[tuple[int, int]] = []
    for rule in column_spans("us"):
        for m in rule.pattern.finditer(text):
            if any(a <= m.start() < b for a, b in taken):
                continue
            weeks = None
            w = _WEEKS.search(m.group(0))
            if w:
                weeks = int(w.group(1)) if w.group(1) else _WORD_WEEKS.get(w.group(2).lower().replace("  ", " "))
            found.append((m.start(), rule.months, weeks))
            taken.append((m.start(), m.end()))
    return sorted(found)


def read_columns(header: list[str], statement: str, form: str | None, fye_month: int,
                 period_end: dt.date | None = None) -> tuple[list[Column], str]:
    """Columns of a statement from its header lines, or ([], reason). ``period_end`` is the report's own
    period end (its cover): a column of that year and month whose header prints no day ends on it."""
    cells, _ = _year_cells(header)
    if not cells:
        return [], "no year or date columns in the header"
    text = " ".join(header)
    month_days = [(_MONTHS[m.group(1).lower()], int(m.group(2)))
                  for line in header for m in _MONTH_DAY.finditer(_FULL_DATE.sub(" ", line))]
    ends: list[dt.date] = []
    for i, (_, date, year) in enumerate(cells):
        if date is not None:
            ends.append(date)
            continue
        if len(month_days) == len(cells):
            month, day = month_days[i]
        elif month_days:
            month, day = month_days[0]
        else:
            month, day = fye_month, None
        if day is None and period_end is not None:
            nominal = nominal_end(period_end)  # a 52/53-week year "ending" 2023-01-01 is fiscal 2022's December
            if (year, month) == (nominal.year, nominal.month):
                ends.append(period_end)
                continue
        try:
            ends.append(periods.month_end(year, month, day))
        except ValueError:
            return [], f"bad date in the header ({month}/{day}/{year})"
    if statement == "balance":
        return [Column(c[0], e, None) for c, e in zip(cells, ends)], ""
    spans = _spans(text)
    n = len(cells)
    if not spans:
        if (form or "") not in ANNUAL_FORMS:
            return [], f"the columns print no period length (three / six / nine months, years ended) in a {form or 'report'}"
        spans = [(0, 12, None)]
    if n % len(spans):
        distinct = {(s[1], s[2]) for s in spans}
        if len(distinct) != 1:
            return [], f"{len(spans)} period groups over {n} columns"
        spans = spans[:1]
    per = n // len(spans)
    return [Column(c[0], e, spans[i // per][1], spans[i // per][2]) for i, (c, e) in enumerate(zip(cells, ends))], ""


def is_header_line(line: str) -> bool:
    """A line of the column header: it names a span, a month and day, or only years."""
    if _MONTH_DAY.search(line) or _FULL_DATE.search(line):
        return True
    if any(rule.pattern.search(line) for rule in column_spans("us")):
        return True
    rest = _YEAR.sub("", line)
    return bool(_YEAR.search(line)) and not re.search(r"\d", rest)
