"""Rows of the summary tables a US 10-K prints beside its statements (Item 6's selected financial data, the
quarterly financial data note): how a line becomes a label, its figures and the metric it is, and how a figure of a
column becomes a ``key_figures`` fact. Used by ``parsers.us_selected_data`` and ``parsers.us_quarterly_data``.

- footnote marks are dropped: letters anywhere ("$ 20,182 (a)(b)"), a number right after a label's word ("Basic
  earnings per share (2) $ 0.60"; a negative figure follows a number, "$" or ")", and a row a mark was wrongly taken
  from no longer has one figure per column, so it is skipped, never misread);
- a line without figures is a heading, and the first part of a wrapped label when the next starts in lower case or
  it ends in "to" / "of" / "from" (never a caption of the columns' dates: "Year Ended May 31,");
- under a per-share heading a row carries the heading in front ("Per share of 3M common stock: Net income
  attributable to 3M — basic" is basic EPS, never the net income; "Per Share Data: Net earnings (loss) 3.81" names no
  metric, as it says neither basic nor diluted); share counts and a continuing operations' figure are no metric;
- only labels ``mappings/labels_us.yaml`` maps under ``key_figures`` are a metric."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from mappings.metrics import metric_for_label, metrics
from parsers.statement_lines import parse_amount, split_row
from schema.models import DocumentInfo, Fact

SCALE_WORDS = {0: "units", 3: "thousands", 6: "millions", 9: "billions"}
PER_SHARE = re.compile(r"per (?:[\w.&-]+ )?(?:common |ordinary |diluted |basic )?share|\beps\b", re.I)  # "per 3M common share"
_BASIC_DILUTED = re.compile(r"\b(?:basic|diluted)\b", re.I)
_SHARE_COUNT = re.compile(r"weighted|\bshares (?:used|outstanding)\b|number of shares", re.I)
_CONTINUING = re.compile(r"continuing operations", re.I)
NOTE_MARKS = re.compile(r"\s*\([a-z]\)|(?<=[A-Za-z:])(?:\s*\(\d{1,2}\))+(?=\s|$)")
_CAPTION = re.compile(r"^(?:(?:fiscal )?years? ended|as of|at)\b", re.I)


class SummaryRows:
    """Reads a summary table's lines in order (headings and wrapped labels carry over)."""

    def __init__(self) -> None:
        self.pending = ""
        self.heading = ""

    def row(self, line: str) -> tuple[str, list[str], str | None] | None:
        """(label, figures, metric id or None) of a line with figures; None for a heading or a label's first part."""
        label, cells = split_row(NOTE_MARKS.sub("", line))
        if not cells:
            self.pending = self.heading = NOTE_MARKS.sub("", line)
            return None
        pending, self.pending = self.pending, ""
        if pending and not _CAPTION.match(pending) and (label[:1].islower() or pending.endswith((" to", " of", " from"))):
            label = f"{pending} {label}"
        if _SHARE_COUNT.search(self.heading) or _SHARE_COUNT.search(label) or _CONTINUING.search(label):
            return label, cells, None
        if PER_SHARE.search(self.heading) and not PER_SHARE.search(label):  # "Per Share Data" / "Net earnings 3.81"
            label = f"{self.heading.rstrip(':')} {label}"
        hit = metric_for_label("US", "key_figures", label)
        if hit is None or any(c.endswith("%") for c in cells):
            return label, cells, None
        return label, cells, hit[0]


def summary_fact(info: DocumentInfo, metric_id: str, label: str, cell: str, scale: int, start: dt.date | None,
                 end: dt.date, page: int, locator: str, column: str) -> Fact | None:
    """A figure of a summary table as a fact: per-share figures as printed, money scaled by the caption; a balance
    (``period: instant``) at ``end``, a flow over ``start``..``end``."""
    value = parse_amount(cell)
    if value is None:
        return None
    metric = metrics()[metric_id]
    per_share = metric.kind == "per_share"
    ccy = info.currency or "USD"
    start = start if metric.period == "duration" else None
    return Fact(label=label, value=value if per_share else value * Decimal(10) ** scale, value_text=cell,
                unit=f"{ccy}/share" if per_share else ccy, scale=0 if per_share else scale,
                original_unit=f"{ccy}/share" if per_share else SCALE_WORDS.get(scale, f"1e{scale}"),
                period_start=start, period_end=end, period_type="duration" if start else "instant",
                statement="key_figures", consolidated=True, page=page, locator=locator, column=column)


def period_back(end: dt.date, years: int = 0, quarters: int = 0) -> dt.date:
    """The end of the period ``years`` and ``quarters`` before one ending on ``end``: a fiscal year that ends on a
    month's last day steps by months (January 31 -> October 31); one that ends on a weekday (Best Buy's Saturday
    nearest January 31) by 52-week years and 13-week quarters (a 53-week year puts it a week out)."""
    if (end + dt.timedelta(days=1)).month != end.month:
        return shifted(end, years=years, months=3 * quarters)
    return end - dt.timedelta(weeks=52 * years + 13 * quarters)


def shifted(day: dt.date, years: int = 0, months: int = 0) -> dt.date:
    """``day`` moved back by whole years and months, on the same day of the month or the month's last."""
    total = day.year * 12 + day.month - 1 - years * 12 - months
    year, month = divmod(total, 12)
    month += 1
    last = (dt.date(year + (month == 12), month % 12 + 1, 1) - dt.timedelta(days=1)).day
    # a month-end date stays a month end (January 31 -> October 31)
    month_end = (day + dt.timedelta(days=1)).month != day.month
    return dt.date(year, month, last if month_end else min(day.day, last))
