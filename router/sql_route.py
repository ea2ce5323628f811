"""The SQL route: canonical metrics and ratios for the plan's companies and periods, exact decimals,
with currency, accounting standard, period end and the source page / XBRL fact of every number.

SQL is built with sqlglot's builder (user text never pasted into SQL) and runs on the read-only
connection. Ratios and growth are evaluated here with ``Decimal``; a change in a ratio is stated in
percentage points."""

from __future__ import annotations

import ast
import operator
from dataclasses import dataclass, field
from decimal import Decimal, DivisionByZero, InvalidOperation

import duckdb
from sqlglot import exp, select

from mappings.metrics import metrics, ratios
from schema.models import QueryPlan

COLUMNS = ["company_id", "stock_code", "market", "fiscal_year", "fiscal_period", "period_end", "metric_name",
           "metric_value", "currency", "accounting_standard", "original_label", "document_id", "doc_name", "page",
           "source_kind", "restated", "listing"]


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
    derived: str | None = None  # "ratio", "yoy", "pp"
    restated: bool = False
    components: dict[str, Decimal] = field(default_factory=dict)


def fetch(con: duckdb.DuckDBPyConnection, company_ids: list[str], metric_ids: list[str]) -> list[dict]:
    """Every stored value of these metrics for these companies (all listings, all periods)."""
    query = (
        select(*[f"fm.{c}" for c in COLUMNS[:12]], "d.doc_name", "fm.page", "fm.source_kind", "fm.restated",
               "s.listing")
        .from_("financial_metrics AS fm")
        .join("documents AS d", on="d.document_id = fm.document_id")
        .join("securities AS s", on="s.stock_code = fm.stock_code", join_type="left")
        .where(exp.column("company_id", table="fm").isin(*[exp.Literal.string(c) for c in company_ids]))
        .where(exp.column("metric_name", table="fm").isin(*[exp.Literal.string(m) for m in metric_ids]))
        .order_by("fm.fiscal_year", "fm.fiscal_period")
    )
    cur = con.execute(query.sql(dialect="duckdb"))
    return [dict(zip(COLUMNS, r)) for r in cur.fetchall()]


def base_metrics_of(metric_ids: list[str]) -> list[str]:
    """The stored metrics a plan needs (ratio formulas expanded)."""
    out: list[str] = []
    for mid in metric_ids:
        if mid in ratios():
            spec = ratios()[mid]
            for formula in [spec["formula"], *spec.get("fallbacks", [])]:
                out += [n.id for n in ast.walk(ast.parse(formula, mode="eval")) if isinstance(n, ast.Name)]
        else:
            out.append(mid)
    return list(dict.fromkeys(out))


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def evaluate(formula: str, values: dict[str, Decimal]) -> Decimal | None:
    """Exact evaluation of + - * / over metric ids; None if a metric is missing or a division is by zero."""

    def ev(node: ast.AST) -> Decimal:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        if isinstance(node, ast.Name):
            if node.id not in values:
                raise KeyError(node.id)
            return values[node.id]
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return Decimal(str(node.value))
        raise ValueError(f"unsupported expression {ast.dump(node)}")

    try:
        return ev(ast.parse(formula, mode="eval"))
    except (KeyError, DivisionByZero, InvalidOperation, ZeroDivisionError):
        return None


def _value(row: dict, metric: str | None = None) -> Value:
    return Value(company_id=row["company_id"], stock_code=row["stock_code"], market=row["market"],
                 fiscal_year=row["fiscal_year"], fiscal_period=row["fiscal_period"], period_end=row["period_end"],
                 metric=metric or row["metric_name"], value=row["metric_value"], currency=row["currency"],
                 standard=row["accounting_standard"], label=row["original_label"],
                 sources=[{"document_id": row["document_id"], "doc_name": row["doc_name"], "page": row["page"]}],
                 listing=row["listing"], restated=bool(row["restated"]))


def ratio_value(rid: str, rows_at: dict[str, dict]) -> Value | None:
    """A ratio at one (listing, year, period) from the stored metrics there."""
    spec = ratios()[rid]
    values = {m: r["metric_value"] for m, r in rows_at.items()}
    for formula in [spec["formula"], *spec.get("fallbacks", [])]:
        result = evaluate(formula, values)
        if result is None:
            continue
        used = [n.id for n in ast.walk(ast.parse(formula, mode="eval")) if isinstance(n, ast.Name)]
        first = rows_at[used[0]]
        v = _value(first, rid)
        v.value, v.derived = result, "ratio"
        v.label = f"{spec['name_en']} = {formula}"
        v.sources = [s for m in used for s in _value(rows_at[m]).sources]
        v.sources = [dict(t) for t in dict.fromkeys(tuple(sorted(s.items())) for s in v.sources)]
        v.components = {m: values[m] for m in used}
        if spec.get("unit") == "money":
            v.currency = first["currency"]
        else:
            v.currency = None
        return v
    return None


def index_rows(rows: list[dict]) -> dict[tuple, dict[str, dict]]:
    """(company_id, stock_code, fiscal_year, fiscal_period) -> {metric: row}."""
    out: dict[tuple, dict[str, dict]] = {}
    for r in rows:
        out.setdefault((r["company_id"], r["stock_code"], r["fiscal_year"], r["fiscal_period"]), {})[r["metric_name"]] = r
    return out


def metric_at(metric: str, key: tuple, index: dict[tuple, dict[str, dict]]) -> Value | None:
    at = index.get(key)
    if not at:
        return None
    if metric in ratios():
        return ratio_value(metric, at)
    row = at.get(metric)
    return _value(row) if row else None


def growth(current: Value, previous: Value) -> Value | None:
    """YoY change: relative for amounts, percentage points for ratios (never a percent change of a ratio)."""
    v = Value(**{**current.__dict__, "components": {}})
    v.sources = current.sources + previous.sources
    if current.derived == "ratio" and ratios()[current.metric].get("unit") in {"percent", "ratio"}:
        v.metric, v.derived = f"{current.metric}_change_pp", "pp"
        v.value = (current.value - previous.value) * 100
        v.currency = None
    else:
        if previous.value == 0:
            return None
        v.metric, v.derived = f"{current.metric}_yoy", "yoy"
        v.value = (current.value - previous.value) / abs(previous.value)
        v.currency = None
    v.components = {"current": current.value, "previous": previous.value}
    return v


def is_money(metric: str) -> bool:
    if metric in ratios():
        return ratios()[metric].get("unit") == "money"
    m = metrics().get(metric)
    return bool(m and m.kind == "money")


def plan_periods(plan: QueryPlan) -> list[tuple[int | None, str | None]]:
    return [(p.fiscal_year, p.fiscal_period) for p in plan.periods if p.relative is None]
