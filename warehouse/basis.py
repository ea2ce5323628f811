"""One basis per series: which report's value a period gets.

Every report prints its own period and comparatives; a later report may restate a period or adjust it for a
share split (Nvidia's FY2024 EPS is 12.05 in its FY2024 10-K, 1.21 split-adjusted in the FY2025 10-K). Two
bases, each consistent across a whole series:

- ``latest`` (the default, ``financial_metrics``): the value of the latest report that prints the period;
- ``as_reported`` (``financial_metrics_as_reported``): the value as first reported: the period's own report,
  else the earliest report that prints it.

Within one report date a full report wins over its summary, and both over a database's copy of a filing's
figures (SEC companyfacts: one value per filing that printed the period, each ranked by that filing's period
and, between two filings of one period, an amendment after the original by the day it was filed); then an XBRL
fact over a printed figure, and a mapping's preferred concept or label over a later one. A copied value is
chosen only where no filing in the warehouse gives the same amount (within rounding): when the 10-K itself and
companyfacts agree, the 10-K's own row (its page or XBRL fact) is the cited source. ``restated`` means the
reports of a period disagree beyond the rounding of their printed scale, copies included.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from warehouse.rounding import agree

BASES = ("latest", "as_reported")
# form_rank: a full report, its summary (A-share 摘要), a database's copy of a filing's figures (SEC companyfacts)
FULL_RANK, SUMMARY_RANK, COPY_RANK = 0, 1, 2
TABLE_OF_BASIS = {"latest": "financial_metrics", "as_reported": "financial_metrics_as_reported"}


@dataclass
class Candidate:
    """One document's value for a (listing, fiscal year, fiscal period, metric): a document_metrics row."""

    document_id: str
    company_id: str | None
    stock_code: str
    market: str
    fiscal_year: int
    fiscal_period: str
    period_end: dt.date
    report_type: str | None
    metric_name: str
    metric_value: Decimal
    currency: str | None
    accounting_standard: str | None
    original_label: str | None
    original_unit: str | None
    page: str | None
    source_kind: str
    doc_period_end: dt.date | None
    form_rank: int
    concept: str | None
    concept_rank: int
    statement: str | None = None
    rounding: int | None = None
    filed: dt.date | None = None  # a copied value (SEC companyfacts): the day its filing was filed
    restated: bool = False
    derivation: dict[str, Any] | None = field(default=None)

    @property
    def key(self) -> tuple[str, int, str, str]:
        return (self.stock_code, self.fiscal_year, self.fiscal_period, self.metric_name)

    @property
    def report(self) -> tuple:
        """The report that printed it: the document, or for a database's copy the filing it was copied from."""
        return (self.document_id, self.doc_period_end, self.filed)

    @property
    def reported_on(self) -> dt.date:
        """The date of the report that printed it (its own period end when the report has none)."""
        return self.doc_period_end or self.period_end


def definition_rank(statement: str | None, concept_rank: int) -> int:
    """How preferred the definition behind a value is: an XBRL concept's place in the mapping (cash and cash
    equivalents before cash including restricted cash), a printed figure's table (a statement before a
    key-figures table). Printed label variants ("归属于母公司股东的净利润" / "...所有者的...") are wordings of one
    definition and rank alike."""
    return concept_rank if statement is None else concept_rank // 100 * 100


def _within_report(c: Candidate, later_filed_first: bool) -> tuple:
    filed = c.filed.toordinal() if c.filed else 0
    return (c.form_rank, -filed if later_filed_first else filed, c.statement is not None, c.concept_rank,
            c.document_id, c.page or "")


def order_key(basis: str):
    """Sort key putting a period's preferred candidate first on ``basis`` (among one definition)."""
    if basis == "latest":
        return lambda c: (-c.reported_on.toordinal(), *_within_report(c, True))
    if basis == "as_reported":
        return lambda c: (c.source_kind != "own_report", c.reported_on.toordinal(), *_within_report(c, False))
    raise ValueError(f"unknown basis {basis!r}: use one of {', '.join(BASES)}")


def best_definition(candidates: list[Candidate]) -> list[Candidate]:
    """The candidates of a period's preferred definition: both bases choose among these, so a series never
    switches concept between reports (Apple's FY2023 cash stays cash and cash equivalents, not the 10-Q's cash
    including restricted cash)."""
    best = min(definition_rank(c.statement, c.concept_rank) for c in candidates)
    return [c for c in candidates if definition_rank(c.statement, c.concept_rank) == best]


def choose(candidates: list[Candidate], basis: str) -> Candidate:
    """The period's value on ``basis``. A database's copy that a filing in the warehouse agrees with (within
    rounding) gives way to that filing's own row, so the figure is cited from the report itself."""
    pool = best_definition(candidates)
    best = min(pool, key=order_key(basis))
    if best.form_rank == COPY_RANK:
        filings = [c for c in pool if c.form_rank != COPY_RANK
                   and agree(c.metric_value, best.metric_value, c.rounding, best.rounding)]
        if filings:
            return min(filings, key=order_key(basis))
    return best


def disagree(candidates: list[Candidate]) -> bool:
    """Reports of one period give values further apart than their printed rounding allows."""
    lo = min(candidates, key=lambda c: c.metric_value)
    hi = max(candidates, key=lambda c: c.metric_value)
    return not agree(lo.metric_value, hi.metric_value, lo.rounding, hi.rounding)
