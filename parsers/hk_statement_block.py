"""One titled HK statement block being read: its columns and their periods, its unit line and its headings.

:class:`Column` is one value column of the header (``2021``, ``31/12/2020``, ``二零二五年``) with its fiscal
year or date and, where a year has sub-columns ("Remaining Business" / "Affected Entities"), the group;
:class:`YearEnd` turns a column into its period from the company's fiscal year end. :class:`BlockState` is
what the reader (``parsers.hk_statements``) carries from line to line inside one block: the columns, the
unit, the current heading, label lines waiting for their values and the last value row.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from parsers import statement_periods as periods
from parsers.statement_columns import hk_column_date
from parsers.statement_lines import CJK
from parsers.statement_tables import TitledBlock
from schema.models import DocumentInfo, Fact

PER_SHARE = re.compile(r"per share|每股", re.IGNORECASE)


@dataclass
class Column:
    header: str
    fiscal_year: int
    date: dt.date | None
    group: str | None = None  # e.g. "Remaining Business" (6068); None for the total column


@dataclass(frozen=True)
class YearEnd:
    """The company's fiscal year end: its month, and its day when the report's period ends in that month
    (a month end in every HK report here)."""

    month: int
    day: int | None

    @classmethod
    def of(cls, info: DocumentInfo) -> "YearEnd":
        pe = info.period_end
        month = info.fiscal_year_end_month or (pe.month if pe else 12)
        return cls(month, pe.day if pe and pe.month == month else None)

    def period(self, col: Column, kind: str) -> tuple[dt.date | None, dt.date, str]:
        """(start, end, period type) of a column: the year's end (or the printed date) as an instant, or the
        year ending there as a duration."""
        if col.date is not None:
            end = col.date
        else:
            end = periods.fy_end(col.fiscal_year, self.month, self.day)
        if kind == "instant":
            return None, end, "instant"
        prev = periods.fy_end(end.year - 1, end.month, self.day if col.date is None else end.day)
        return prev + dt.timedelta(days=1), end, "duration"


class BlockState:
    """What the reader carries from line to line inside one block; ``new_page`` resets what does not
    carry over to the block's next page."""

    def __init__(self, block: TitledBlock):
        self.statement = block.statement
        self.consolidated = block.consolidated
        self.columns: list[Column] | None = None
        self.year_groups: list[list[int]] = []
        self.unit: tuple[str, str, int] | None = None
        self.superheader: list[str] = []
        self.key_kind = "duration"
        self.new_page()

    def new_page(self) -> None:
        self.in_header = True
        self.after_header = False
        self.pending: list[str] = []
        self.heading: str | None = None
        self.heading_used = True
        self.per_share_heading: str | None = None
        self.last_row: list[Fact] | None = None
        self.last_label: str | None = None
        self.superheader = []
        self.unit_on_page = False

    def set_heading(self, text: str) -> None:
        self.heading, self.heading_used = text, False
        if not PER_SHARE.search(text) and self.per_share_heading and not re.search(
            r"continuing|discontinued|持續|終止", text, re.IGNORECASE
        ):
            self.per_share_heading = None

    def set_columns(self, tokens: list[str], year_end: YearEnd) -> None:
        cols = []
        for tok in tokens:
            fy, date = hk_column_date(tok, year_end.month, year_end.day)
            cols.append(Column(tok, fy, date))
        if self.columns is not None and [c.header for c in self.columns] != tokens and len(self.columns) == len(cols):
            # the same columns printed again in the other language (2021 / 二零二一年): keep the first
            if [c.fiscal_year for c in self.columns] == [c.fiscal_year for c in cols]:
                return
        groups: dict[str, list[int]] = {}
        for i, c in enumerate(cols):
            groups.setdefault(c.header, []).append(i)
        self.year_groups = list(groups.values()) if len(groups) < len(cols) else [[i] for i in range(len(cols))]
        if len(groups) < len(cols):
            names = _group_names(self.superheader, len(cols) - len(groups))
            for g in self.year_groups:
                for k, i in enumerate(g[:-1]):
                    cols[i].group = names[k % len(names)] if names else f"column {k + 1}"
        self.columns = cols

    def total_columns(self) -> list[Column]:
        return [self.columns[g[-1]] for g in self.year_groups]


def _group_names(lines: list[str], count: int) -> list[str]:
    """Names of the sub-columns of a year ("Remaining Business", "Affected Entities") from the header
    lines above the years (one word per sub-column per line)."""
    rows = [ln.replace("*", "").split() for ln in lines if not CJK.search(ln)]
    rows = [r for r in rows if len(r) == count]
    if not rows:
        return []
    names = [" ".join(parts) for parts in zip(*rows)]
    # names repeat per year: keep the distinct ones in order
    seen: list[str] = []
    for n in names:
        if n not in seen:
            seen.append(n)
    return seen
