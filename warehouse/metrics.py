"""Facts -> canonical metrics.

For one document: every consolidated, non-dimensional fact that ``mappings`` maps to a canonical metric
becomes a candidate for (metric, fiscal year, fiscal period); the best candidate per key is kept
(statement over key-figures table, then the concept/label priority of the mapping) in ``document_metrics``.
Across documents, :func:`rebuild` fills ``financial_metrics`` (latest basis) and
``financial_metrics_as_reported`` (first-reported basis; ``warehouse/basis.py``), adds derived values that no
report prints (``warehouse/derive.py``) and the company's own fiscal-year labels (``warehouse/fiscal_labels.py``).
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from dataclasses import dataclass, replace
from decimal import Decimal

import duckdb
import pyarrow as pa

from mappings.metrics import STATEMENT_PRIORITY, Metric, concept_index, metric_for_label, metrics, normalise_label
from schema.ddl import columns
from schema.fiscal import nominal_end
from schema.models import DocumentInfo, Fact
from warehouse import basis as basis_mod
from parsers.us_companyfacts import FORM as COMPANYFACTS_FORM
from warehouse.basis import BASES, FULL_RANK, SUMMARY_RANK, TABLE_OF_BASIS, Candidate
from warehouse.derive import derive
from warehouse.fiscal_labels import fye_months, namings
from warehouse.periods import classify_duration, classify_instant
from warehouse.rounding import rounding_of

SUMMARY_FORMS = {"summary", "interim_summary"}
# markets whose printed statements mix sign conventions inside one statement (see _expense_sign)
PER_METRIC_SIGN = frozenset({"US"})
# markets whose income statement, when it attributes nothing to non-controlling interests, prints one net income
# line that is the parent's (us-gaap NetIncomeLoss, which the XBRL path maps to both metrics)
UNATTRIBUTED_NET_INCOME_IS_PARENT = frozenset({"US"})


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
    statement: str | None = None  # the printed statement it was read from (None for XBRL)
    rounding: int | None = None  # rounded to 10^rounding base units as printed / tagged (None: exact)


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


def _summary_balance(metric: Metric, fact: Fact) -> bool:
    """A balance that is never negative (assets, liabilities, their sections) read from a summary table: the
    balance sheet decides the dates it prints, and a deduction sign the summary prints it with is presentation."""
    return metric.sign == "positive" and fact.statement == "key_figures" and fact.concept is None


def _value_of(metric: Metric, fact: Fact) -> Decimal:
    """A printed percentage ("16.78%", a "(%)" column) is stored as a fraction (0.1678), like XBRL's pure. A
    summary table that prints a balance which is never negative as a deduction ("Total liabilities (171,107)"
    in a five-year summary) gives the amount."""
    if metric.kind == "percent" and (fact.original_unit or "").strip() == "%":
        return fact.value / 100
    return abs(fact.value) if _summary_balance(metric, fact) else fact.value


def _rounding_of(kind: str, fact: Fact) -> int | None:
    """The rounding of the stored value: a printed percentage stored as a fraction is two places finer."""
    rounding = rounding_of(fact)
    if rounding is not None and kind == "percent" and (fact.original_unit or "").strip() == "%":
        return rounding - 2
    return rounding


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
    # a balance sheet decides the dates it prints: its totals, or totals derived from its sections
    # (warehouse/derive.py), never a summary table's copy of them (the key figures' own items, 每股净资产, stay)
    balance_dates = {f.period_end for f in facts if f.statement == "balance" and f.consolidated and f.concept is None}
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
            if _summary_balance(metric, fact) and fact.period_end in balance_dates:
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
                value=_value_of(metric, fact),
                currency=(fact.unit or "").split("/")[0] if metric.kind in {"money", "per_share"} else None,
                original_label=fact.label or fact.concept,
                original_unit=_original_unit(fact),
                page=str(fact.page) if fact.page is not None else fact.locator,
                own=info.period_end is not None and fact.period_end == info.period_end,
                rank=rank,
                concept=fact.concept or f"{fact.statement}:{normalise_label(fact.label or '')}",
                printed=fact.concept is None,
                statement=fact.statement if fact.concept is None else None,
                rounding=_rounding_of(metric.kind, fact),
            )
            if key not in best or row.rank < best[key].rank:
                best[key] = row
    _parent_net_income(best, info.market)
    _minority_sign(best, info.market)
    return _expense_sign(list(best.values()), known, info.market)


def _minority_sign(best: dict[tuple[str, int, str], MetricRow], market: str | None) -> None:
    """US income statements print the non-controlling interests' share as a deduction ("Less: Net (income) loss
    attributable to noncontrolling interests (165,234)") or as an amount ("... attributable to noncontrolling
    interests 35"): the sign is the one the statement's own arithmetic gives (net income - the parent's share)."""
    if market not in UNATTRIBUTED_NET_INCOME_IS_PARENT:
        return
    for (mid, year, period), r in best.items():
        if mid != "net_income_minority" or not r.printed:
            continue
        total, parent = best.get(("net_income", year, period)), best.get(("net_income_parent", year, period))
        if total and parent and total.printed and parent.printed and r.value and \
                total.value - parent.value == -r.value:
            r.value = -r.value


def _parent_net_income(best: dict[tuple[str, int, str], MetricRow], market: str | None) -> None:
    """A printed income statement with no attribution rows (no "attributable to noncontrolling interests" and
    no "attributable to <the company>"): its net income is also the parent's, the same printed row."""
    if market not in UNATTRIBUTED_NET_INCOME_IS_PARENT:
        return
    if any(r.printed and r.metric_name in ("net_income_parent", "net_income_minority") for r in best.values()):
        return
    for (mid, year, period), r in list(best.items()):
        if mid == "net_income" and r.printed and r.statement == "income" and ("net_income_parent", year, period) not in best:
            best[("net_income_parent", year, period)] = replace(r, metric_name="net_income_parent")


def _expense_sign(rows: list[MetricRow], known, market: str | None = None) -> list[MetricRow]:
    """Costs and outflows are stored positive. A printed statement that shows deductions in parentheses
    ("Cost of sales (202,198)", a bank's "(2,388)" capex) is turned to that convention as a whole: when most
    of its expense figures are negative, every expense figure of the document changes sign (a printed
    credit then reads negative).

    US reports (``PER_METRIC_SIGN``) mix conventions inside one statement: the cash-flow statement prints
    payments in parentheses ("Purchases of property and equipment (1,577)", "Dividends paid (283)") next to
    add-backs printed positive ("Depreciation and amortization 328"); an income statement prints operating
    costs positive and non-operating lines signed ("Interest expense (276)", "(Provision) benefit for income
    taxes (111)"). There each metric's own figures in a statement decide (a tie falls back to the document's
    majority)."""
    printed = [r for r in rows if r.printed and known[r.metric_name].sign == "expense"]
    negatives = sum(1 for r in printed if r.value < 0)
    document_flip = bool(printed) and negatives * 2 > len(printed)
    if market not in PER_METRIC_SIGN:
        groups = {None: printed}
    else:
        groups = defaultdict(list)
        for r in printed:
            groups[(r.statement, r.metric_name)].append(r)
    for group in groups.values():
        neg = sum(1 for r in group if r.value < 0)
        pos = sum(1 for r in group if r.value > 0)
        flip = document_flip if market not in PER_METRIC_SIGN or neg == pos else neg > pos
        if flip:
            for r in group:
                r.value = -r.value
    return rows


def form_rank(form: str | None) -> int:
    return SUMMARY_RANK if (form or "") in SUMMARY_FORMS else FULL_RANK


@dataclass(frozen=True)
class Report:
    """The report that printed a metric value: the document itself, or (SEC companyfacts) the filing a database
    copied the value from."""

    form: str | None
    period_end: dt.date | None
    form_rank: int
    filed: dt.date | None = None


_Q = Decimal("0.000001")
DOCUMENT_METRICS_COLUMNS = columns("document_metrics")


def reported_metric_rows(info: DocumentInfo, facts: list[Fact]) -> list[tuple[MetricRow, Report]]:
    """A document's canonical metric values, each with the report that printed it."""
    if not info.stock_code:
        return []
    if info.form == COMPANYFACTS_FORM:
        from warehouse.companyfacts_metrics import copied_metric_rows

        return copied_metric_rows(info, facts)
    report = Report(info.form, info.period_end, form_rank(info.form))
    return [(r, report) for r in document_metric_rows(info, facts)]


def store_document_metrics(con: duckdb.DuckDBPyConnection, info: DocumentInfo, facts: list[Fact]) -> int:
    """Insert a document's canonical metric values (own period and comparatives); returns the row count."""
    rows = reported_metric_rows(info, facts)
    if rows:
        data = [[info.document_id, info.company_id, info.stock_code, info.market, r.fiscal_year, r.fiscal_period,
                 r.period_end, rep.form, r.metric_name, r.value.quantize(_Q), r.currency, info.accounting_standard,
                 r.original_label, r.original_unit, r.page, "own_report" if r.own else "comparative",
                 rep.period_end, rep.form_rank, r.concept, r.rank[0] * 100 + r.rank[1], r.statement,
                 r.rounding, rep.filed] for r, rep in rows]
        assert len(data[0]) == len(DOCUMENT_METRICS_COLUMNS), "document_metrics columns changed: update this"
        table = pa.table({name: pa.array([row[i] for row in data], _ARROW_TYPES.get(name))
                          for i, name in enumerate(DOCUMENT_METRICS_COLUMNS)})
        con.register("_document_metrics", table)
        con.execute(f"INSERT INTO document_metrics ({', '.join(DOCUMENT_METRICS_COLUMNS)}) "
                    f"SELECT {', '.join(DOCUMENT_METRICS_COLUMNS)} FROM _document_metrics")
        con.unregister("_document_metrics")
    return len(rows)


# arrow types of the document_metrics columns that are not strings or booleans
_ARROW_TYPES = {"fiscal_year": pa.int32(), "period_end": pa.date32(), "metric_value": pa.decimal128(38, 6),
                "doc_period_end": pa.date32(), "form_rank": pa.int32(), "concept_rank": pa.int32(),
                "rounding": pa.int32(), "filed": pa.date32()}


# the document_metrics columns a Candidate holds (the rest it gets while the bases are built)
_CANDIDATE_COLUMNS = [name for name in Candidate.__dataclass_fields__ if name not in ("restated", "derivation")]
CANDIDATES_SQL = f"""
SELECT {", ".join(_CANDIDATE_COLUMNS)} FROM document_metrics WHERE stock_code IN (SELECT unnest(?))
"""
FINANCIAL_METRICS_COLUMNS = columns("financial_metrics")


def rebuild(con: duckdb.DuckDBPyConnection, stock_codes: list[str]) -> None:
    """Rebuild both bases of ``financial_metrics`` for some listings from ``document_metrics`` (inside the
    caller's transaction)."""
    cur = con.execute(CANDIDATES_SQL, [stock_codes])
    groups: dict[tuple, list[Candidate]] = defaultdict(list)
    for row in cur.fetchall():
        c = Candidate(**dict(zip(_CANDIDATE_COLUMNS, row)))
        groups[c.key].append(c)
    for cands in groups.values():
        same = basis_mod.best_definition(cands)
        flag = len(same) > 1 and basis_mod.disagree(same)
        for c in cands:
            c.restated = flag
    per_basis: dict[str, dict[tuple, Candidate]] = {}
    for basis in BASES:
        chosen = {key: basis_mod.choose(cands, basis) for key, cands in groups.items()}
        for d in derive(groups, chosen, basis):
            chosen.setdefault(d.key, d)
        per_basis[basis] = chosen
    names, months = namings(con, stock_codes), fye_months(con, stock_codes)
    for basis in BASES:
        other = per_basis["as_reported" if basis == "latest" else "latest"]
        table = TABLE_OF_BASIS[basis]
        con.execute(f"DELETE FROM {table} WHERE stock_code IN (SELECT unnest(?))", [stock_codes])
        rows = list(per_basis[basis].values())
        if not rows:
            continue
        data = {
            "company_id": [c.company_id for c in rows],
            "stock_code": [c.stock_code for c in rows],
            "market": [c.market for c in rows],
            "fiscal_year": pa.array([c.fiscal_year for c in rows], pa.int32()),
            "fiscal_period": [c.fiscal_period for c in rows],
            "period_end": pa.array([c.period_end for c in rows], pa.date32()),
            "report_type": [c.report_type for c in rows],
            "metric_name": [c.metric_name for c in rows],
            "metric_value": pa.array([c.metric_value.quantize(_Q) for c in rows], pa.decimal128(38, 6)),
            "currency": [c.currency for c in rows],
            "accounting_standard": [c.accounting_standard for c in rows],
            "original_label": [c.original_label for c in rows],
            "original_unit": [c.original_unit for c in rows],
            "document_id": [c.document_id for c in rows],
            "page": [c.page for c in rows],
            "source_kind": [c.source_kind for c in rows],
            "restated": [c.restated for c in rows],
            "fiscal_year_label": pa.array([names[c.stock_code].label(c.fiscal_year, months.get(c.stock_code))
                                           for c in rows], pa.int32()),
            "basis": [basis] * len(rows),
            "other_basis_value": pa.array([other[c.key].metric_value.quantize(_Q) if c.key in other else None
                                           for c in rows], pa.decimal128(38, 6)),
            "derivation": [json.dumps(c.derivation, ensure_ascii=False) if c.derivation else None for c in rows],
        }
        assert list(data) == FINANCIAL_METRICS_COLUMNS, "financial_metrics columns changed: update rebuild()"
        con.register("_metrics", pa.table(data))
        con.execute(f"INSERT INTO {table} SELECT * REPLACE (derivation::JSON AS derivation) FROM _metrics")
        con.unregister("_metrics")


def rebuild_all(con: duckdb.DuckDBPyConnection) -> int:
    """Rebuild both bases for every listing (after a change of basis or derivation rules); returns listings."""
    codes = [r[0] for r in con.execute("SELECT DISTINCT stock_code FROM document_metrics ORDER BY 1").fetchall()]
    con.execute("DELETE FROM financial_metrics")
    con.execute("DELETE FROM financial_metrics_as_reported")
    if codes:
        rebuild(con, codes)
    return len(codes)
