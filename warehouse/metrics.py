"""Facts -> canonical metrics.

For one document: every consolidated, non-dimensional fact that ``mappings`` maps to a canonical metric
becomes a candidate for (metric, fiscal year, fiscal period); the best candidate per key is kept
(statement over key-figures table, then the concept/label priority of the mapping). Across documents,
``financial_metrics`` keeps for each period the value from that period's own report when it is in the
warehouse, otherwise the comparative of the latest later report, and flags periods whose reports
disagree as restated.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from mappings.metrics import STATEMENT_PRIORITY, concept_index, metric_for_label, metrics, normalise_label
from schema.models import DocumentInfo, Fact
from schema.fiscal import nominal_end
from warehouse.periods import classify_duration, classify_instant

SUMMARY_FORMS = {"summary", "interim_summary"}


@dataclass
class MetricRow:
    metric_name: str
    fiscal_year: int
    fiscal_period: str
    period_end: dt.date
    value: Decimal
    currency: str | None
    original_label: str | None
    original_unit: str | None
    page: str | None
    own: bool
    rank: tuple[int, int]
    concept: str | None
    printed: bool = False  # read from a printed statement (PDF), not an XBRL fact


def fiscal_year_end_month(info: DocumentInfo) -> int:
    if info.fiscal_period == "FY" and info.period_end:
        return nominal_end(info.period_end).month
    if info.fiscal_year_end_month:
        return info.fiscal_year_end_month
    return 12


def _unit_fits(kind: str, unit: str | None) -> bool:
    unit = unit or ""
    if kind == "money":
        return len(unit) == 3 and unit.isalpha() and unit.isupper()
    if kind == "per_share":
        return "/" in unit
    if kind == "shares":
        return unit.lower() == "shares"
    if kind == "percent":  # a ratio the report prints (加权平均净资产收益率): XBRL's unit "pure"
        return unit == "pure"
    return False


def _value_of(kind: str, fact: Fact) -> Decimal:
    """A printed percentage ("16.78%", a "(%)" column) is stored as a fraction (0.1678), like XBRL's pure."""
    if kind == "percent" and (fact.original_unit or "").strip() == "%":
        return fact.value / 100
    return fact.value


def _original_unit(fact: Fact) -> str | None:
    if fact.original_unit:
        return fact.original_unit
    scale = fact.scale if fact.scale is not None else (-fact.decimals if fact.decimals is not None else None)
    return {3: "thousands", 6: "millions", 9: "billions"}.get(scale or 0, fact.unit)


def document_metric_rows(info: DocumentInfo, facts: list[Fact]) -> list[MetricRow]:
    if not info.company_metrics or not info.market:
        return []
    known = metrics()
    by_concept = concept_index()
    fye = fiscal_year_end_month(info)
    best: dict[tuple[str, int, str], MetricRow] = {}
    for fact in facts:
        if fact.value is None or not fact.consolidated or fact.dimensions or fact.period_end is None:
            continue
        candidates: list[tuple[str, tuple[int, int]]] = []
        if fact.concept:
            candidates = [(mid, (0, rank)) for mid, rank in by_concept.get(fact.concept, [])]
        else:
            hit = metric_for_label(info.market, fact.statement, fact.label)
            if hit:
                candidates = [(hit[0], (STATEMENT_PRIORITY.get(fact.statement or "", 2), hit[1]))]
        for mid, rank in candidates:
            metric = known[mid]
            if not _unit_fits(metric.kind, fact.unit):
                continue
            if metric.period == "duration":
                if fact.period_type != "duration" or fact.period_start is None:
                    continue
                period = classify_duration(fact.period_start, fact.period_end, fye)
            else:
                if fact.period_type != "instant":
                    continue
                period = classify_instant(fact.period_end, fye, info.market, info.period_end, info.fiscal_period)
            if period is None:
                continue
            key = (mid, *period)
            row = MetricRow(
                metric_name=mid,
                fiscal_year=period[0],
                fiscal_period=period[1],
                period_end=fact.period_end,
                value=_value_of(metric.kind, fact),
                currency=(fact.unit or "").split("/")[0] if metric.kind in {"money", "per_share"} else None,
                original_label=fact.label or fact.concept,
                original_unit=_original_unit(fact),
                page=str(fact.page) if fact.page is not None else fact.locator,
                own=info.period_end is not None and fact.period_end == info.period_end,
                rank=rank,
                concept=fact.concept or f"{fact.statement}:{normalise_label(fact.label or '')}",
                printed=fact.concept is None,
            )
            if key not in best or row.rank < best[key].rank:
                best[key] = row
    return _expense_sign(list(best.values()), known)


def _expense_sign(rows: list[MetricRow], known) -> list[MetricRow]:
    """Costs and outflows are stored positive. A printed statement that shows deductions in parentheses
    ("Cost of sales (202,198)", a bank's "(2,388)" capex) is turned to that convention as a whole: when most
    of its expense figures are negative, every expense figure of the document changes sign (a printed
    credit then reads negative)."""
    printed = [r for r in rows if r.printed and known[r.metric_name].sign == "expense"]
    negatives = sum(1 for r in printed if r.value < 0)
    if printed and negatives * 2 > len(printed):
        for r in printed:
            r.value = -r.value
    return rows


def form_rank(form: str | None) -> int:
    return 1 if (form or "") in SUMMARY_FORMS else 0


# Rebuild financial_metrics for some listings from document_metrics (run inside the ingest transaction).
REBUILD_SQL = """
INSERT INTO financial_metrics
SELECT company_id, stock_code, market, fiscal_year, fiscal_period, period_end, report_type, metric_name,
       metric_value, currency, accounting_standard, original_label, original_unit, document_id, page,
       source_kind, restated
FROM (
    SELECT dm.*,
           -- restated: another report gives a different value for the same concept and period
           count(DISTINCT metric_value) OVER w_concept > 1 AS restated,
           row_number() OVER (
               PARTITION BY stock_code, fiscal_year, fiscal_period, metric_name
               ORDER BY (source_kind = 'own_report') DESC, concept_rank, form_rank, doc_period_end DESC, document_id
           ) AS pick
    FROM document_metrics dm
    WHERE stock_code IN (SELECT unnest(?))
    WINDOW w_concept AS (PARTITION BY stock_code, fiscal_year, fiscal_period, metric_name, concept)
)
WHERE pick = 1
"""
