"""The SQL route: canonical metrics and ratios for the plan's companies and periods, exact decimals,
with currency, accounting standard, period end and the source page / XBRL fact of every number.

SQL is built once with sqlglot's builder; companies and metrics are bound as parameters (user text never pasted into SQL) and runs on the read-only
connection. Ratios are evaluated with ``Decimal`` (``router.formulas``); changes, CAGR and averages are
``router.growth``'s, trailing twelve months ``router.trailing``'s."""

from __future__ import annotations

import json

from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache

import duckdb
from sqlglot import exp, select

from mappings.formulas import Input, inputs, metrics_of
from mappings.metrics import metrics, ratios
from router.formulas import evaluate, formulas_of
from schema.models import QueryPlan

COLUMNS = ["company_id", "stock_code", "market", "fiscal_year", "fiscal_period", "period_end", "metric_name",
           "metric_value", "currency", "accounting_standard", "original_label", "document_id", "doc_name", "page",
           "source_kind", "restated", "listing"]
FIRST_COLUMNS = ["first_document_id", "first_doc_name", "first_page"]  # the own report printing the same figure


@dataclass
class Value:
    company_id: str
    stock_code: str
    market: str
    fiscal_year: int
    fiscal_period: str
    period_end: object
    metric: str
    value: Decimal
    currency: str | None
    standard: str | None
    label: str | None
    sources: list[dict]  # [{document_id, doc_name, page}]
    listing: str | None = None
    derived: str | None = None  # ratio, yoy, pp, change, cagr, average, ttm
    restated: bool = False
    source_kind: str = "own_report"
    components: dict[str, Decimal] = field(default_factory=dict)
    inputs: list[Value] = field(default_factory=list)  # the stored values it was computed from
    note: str | None = None  # how to read it: "n.m.", "printed", "computed: formula"
    first_year: int | None = None  # CAGR / average: the first fiscal year of the span
    fiscal_label: int | None = None  # the company's own name for the fiscal year ("fiscal 2024"), when stored

    @property
    def key(self) -> tuple:
        return (self.company_id, self.stock_code, self.fiscal_year, self.fiscal_period)


@lru_cache(maxsize=1)

def computed_label(name: str, formula: str) -> str:
    """The label of a ratio computed here ("Current ratio = current_assets / current_liabilities")."""
    return f"{name} = {formula}"


def is_computed(label: str | None) -> bool:
    """Was the row with this label computed here (:func:`computed_label`) rather than stored as printed?"""
    return " = " in (label or "")

def _fetch_sql() -> str:
    """The one query of :func:`fetch`, built once: the company and metric lists are bound as parameters."""
    return (
        select(*[f"fm.{c}" for c in COLUMNS[:12]], "d.doc_name", "fm.page", "fm.source_kind", "fm.restated",
               "s.listing", "fm.fiscal_year_label", "ar.document_id AS first_document_id",
               "ad.doc_name AS first_doc_name", "ar.page AS first_page", "fm.derivation")
        .from_("financial_metrics AS fm")
        .join("documents AS d", on="d.document_id = fm.document_id")
        .join("securities AS s", on="s.stock_code = fm.stock_code", join_type="left")
        .join("financial_metrics_as_reported AS ar", join_type="left", on=(
            "ar.stock_code = fm.stock_code AND ar.fiscal_year = fm.fiscal_year AND ar.fiscal_period = fm.fiscal_period"
            " AND ar.metric_name = fm.metric_name AND ar.metric_value = fm.metric_value"
            " AND ar.document_id <> fm.document_id AND ar.source_kind <> 'derived' AND fm.source_kind <> 'derived'"))
        .join("documents AS ad", on="ad.document_id = ar.document_id", join_type="left")
        .where(exp.func("list_contains", exp.Placeholder(), exp.column("company_id", table="fm")))
        .where(exp.func("list_contains", exp.Placeholder(), exp.column("metric_name", table="fm")))
        .order_by("fm.fiscal_year", "fm.fiscal_period")
    ).sql(dialect="duckdb")


def fetch(con: duckdb.DuckDBPyConnection, company_ids: list[str], metric_ids: list[str]) -> list[dict]:
    """Every stored value of these metrics for these companies (all listings, all periods). A value the
    period's own report prints identically (the as-reported basis, same figure, another document) carries that
    report as a second source: both reports print it."""
    cur = con.execute(_fetch_sql(), [list(company_ids), list(metric_ids)])
    rows = [dict(zip([*COLUMNS, "fiscal_year_label", *FIRST_COLUMNS, "derivation"], r)) for r in cur.fetchall()]
    inputs = {id(r): json.loads(r["derivation"]).get("inputs") or [] for r in rows if r["derivation"]}
    ids = sorted({i["document_id"] for found in inputs.values() for i in found if i.get("document_id")})
    names = dict(con.execute("SELECT document_id, doc_name FROM documents WHERE document_id IN (SELECT unnest(?))",
                             [ids]).fetchall()) if ids else {}
    for r in rows:  # a value derived at ingest (Q4 = FY - 9M, no page of its own) cites the values it was computed from
        if id(r) in inputs:
            r["derived_sources"] = [{"document_id": i.get("document_id"), "doc_name": names.get(i.get("document_id"), ""),
                                     "page": i.get("page")} for i in inputs[id(r)]]
    return rows


def base_metrics_of(metric_ids: list[str]) -> list[str]:
    """The stored metrics a plan needs: ratio formulas and fallbacks expanded, printed counterparts added."""
    out: list[str] = []
    for mid in metric_ids:
        if mid in ratios():
            out += ratios()[mid].get("printed") or []
            for formula in formulas_of(mid):
                out += metrics_of(formula)
        else:
            out.append(mid)
    return list(dict.fromkeys(out))


def stored_value(row: dict, metric: str | None = None) -> Value:
    return Value(company_id=row["company_id"], stock_code=row["stock_code"], market=row["market"],
                 fiscal_year=row["fiscal_year"], fiscal_period=row["fiscal_period"], period_end=row["period_end"],
                 metric=metric or row["metric_name"], value=row["metric_value"], currency=row["currency"],
                 standard=row["accounting_standard"], label=row["original_label"],
                 sources=[{"document_id": row["document_id"], "doc_name": row["doc_name"], "page": row["page"]}] + (
                     [{"document_id": row["first_document_id"], "doc_name": row["first_doc_name"],
                       "page": row["first_page"]}] if row.get("first_document_id") else []) + (
                     row.get("derived_sources") or []),
                 listing=row["listing"], restated=bool(row["restated"]), source_kind=row.get("source_kind") or "own_report",
                 fiscal_label=row.get("fiscal_year_label"))


def unique_sources(values: list[Value]) -> list[dict]:
    seen: dict[tuple, dict] = {}
    for v in values:
        for s in v.sources:
            seen.setdefault((s["document_id"], str(s.get("page"))), s)
    return list(seen.values())


def ratio_value(rid: str, key: tuple, index: dict[tuple, dict[str, dict]]) -> Value | None:
    """A ratio at one (company, listing, year, period) from the stored metrics there (and, for ``prev`` /
    ``avg``, at the same period of the prior fiscal year): the first formula whose inputs are all stored."""
    spec = ratios()[rid]
    for formula in formulas_of(rid):
        rows: dict[Input, dict] = {}
        for inp in inputs(formula):
            at = index.get((key[0], key[1], key[2] - inp.years_back, key[3])) or {}
            if inp.metric in at:
                rows[inp] = at[inp.metric]
        result = evaluate(formula, {i: r["metric_value"] for i, r in rows.items()})
        if result is None:
            continue
        used = [stored_value(rows[i]) for i in inputs(formula)]
        current = [u for u, i in zip(used, inputs(formula)) if not i.years_back]
        v = stored_value(rows[inputs(formula)[0]], rid)
        if current:
            v.period_end = current[0].period_end
        v.fiscal_year = key[2]
        v.value, v.derived = result, "ratio"
        v.label = computed_label(spec["name_en"], formula)
        v.note = f"computed: {formula}"
        v.inputs = used
        v.sources = unique_sources(used)
        v.components = {(i.metric if not i.years_back else f"{i.metric} (FY-{i.years_back})"): r["metric_value"]
                        for i, r in rows.items()}
        v.currency = used[0].currency if spec.get("unit") == "money" else None
        v.restated = any(u.restated for u in used)
        v.source_kind = "derived" if any(u.source_kind == "derived" for u in used) else "own_report"
        return v
    return None


def printed_ratio(rid: str, key: tuple, index: dict[tuple, dict[str, dict]]) -> Value | None:
    """The figure the report itself prints for this ratio (加权平均净资产收益率 for ROE), when it is stored."""
    at = index.get(key) or {}
    for mid in ratios()[rid].get("printed") or []:
        if mid in at:
            v = stored_value(at[mid])
            v.note = "printed"
            return v
    return None


def index_rows(rows: list[dict]) -> dict[tuple, dict[str, dict]]:
    """(company_id, stock_code, fiscal_year, fiscal_period) -> {metric: row}."""
    out: dict[tuple, dict[str, dict]] = {}
    for r in rows:
        out.setdefault((r["company_id"], r["stock_code"], r["fiscal_year"], r["fiscal_period"]), {})[r["metric_name"]] = r
    return out


def metric_at(metric: str, key: tuple, index: dict[tuple, dict[str, dict]]) -> Value | None:
    """A metric or a ratio at one key; a ratio the report prints is taken as printed, else computed."""
    if metric in ratios():
        return printed_ratio(metric, key, index) or ratio_value(metric, key, index)
    row = (index.get(key) or {}).get(metric)
    return stored_value(row) if row else None


def unit_of(metric: str) -> str:
    """money | per_share | shares | percent | ratio | days: how a value of this metric or ratio reads."""
    if metric in ratios():
        return ratios()[metric].get("unit", "ratio")
    m = metrics().get(metric)
    return m.kind if m else "money"


def is_money(metric: str) -> bool:
    return unit_of(metric) == "money"


def is_instant(metric: str) -> bool:
    """A balance-sheet value (an instant), as opposed to a flow over a period."""
    if metric in ratios():
        return all(is_instant(m) for f in formulas_of(metric) for m in metrics_of(f))
    m = metrics().get(metric)
    return bool(m and m.period == "instant")


def plan_periods(plan: QueryPlan) -> list[tuple[int | None, str | None]]:
    return [(p.fiscal_year, p.fiscal_period) for p in plan.periods if p.relative is None]


def label_at(key: tuple, index: dict[tuple, dict[str, dict]]) -> int:
    """The company's own label of the fiscal year at a key (its fiscal_year when no label is stored)."""
    for row in (index.get(key) or {}).values():
        if row.get("fiscal_year_label") is not None:
            return row["fiscal_year_label"]
    return key[2]
