"""Identities that prove the reading, checked on every report.

Within one report, for each period it prints (values as read, ``document_metrics``):
- ``balance``: total assets = total liabilities + total equity, where all three are read;
- ``equity_split`` / ``net_income_split``: total equity = equity of the parent + non-controlling interests,
  net income = the parent's + the minority's, where all three are printed;
- ``gross_profit``: gross profit = revenue - cost of revenue, where all three are printed;
- ``assets_sections`` / ``liabilities_sections``: total assets = non-current + current assets, total liabilities
  = non-current + current liabilities; ``balance_sections``: total equity = non-current assets + current assets -
  current liabilities - non-current liabilities (an HK balance sheet that prints no total assets or total
  liabilities line is still proven by its section subtotals);
- ``cash_rollforward``: in each printed cash-flow statement column, opening cash + net change in cash (+ the
  effect of exchange rates) = closing cash (over printed rows, ``mappings/identities.yaml``);
- ``eps``: basic EPS = net income to the parent / weighted average basic shares, where the shares are
  printed (the EPS rounding plus the inputs' rounding carried through the division);
Across reports, on the default basis and printed values only (a derived value satisfies them by construction):
- ``flows``: Q1 + Q2 = H1, H1 + Q3 = 9M, 9M + Q4 = FY for every money flow where the terms are stored;
Between reports:
- ``comparative``: a comparative equals the earlier report's own figure, or the period is flagged
  ``restated`` (listed as ``restated``, with both pages: a printed restatement, not a reading error);
- ``basis_break``: a series on the default basis whose older periods come only from reports published
  before a later report restated it (Nvidia's FY2022 EPS exists only as first reported, before the 10-for-1
  split that the FY2025 10-K applies to FY2023 and FY2024): listed so that the mix is never silent.

Tolerance: one half-unit of each term's printed rounding (``warehouse/rounding.py``). Every violation names
both (or all) pages.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from decimal import Decimal

import duckdb

from schema.models import Fact

from mappings.identities import ROLLFORWARD_ROLES, cash_rollforward_rules
from mappings.metrics import metrics as catalogue
from warehouse.basis import definition_rank
from warehouse.periods import classify_duration
from warehouse.rounding import rounding_of, tolerance

# (identity id, result metric, [(term metric, sign)]): identities inside one report and period.
REPORT_IDENTITIES = (
    ("balance", "total_assets", (("total_liabilities", 1), ("total_equity", 1))),
    ("equity_split", "total_equity", (("equity_parent", 1), ("minority_interest", 1))),
    ("net_income_split", "net_income", (("net_income_parent", 1), ("net_income_minority", 1))),
    ("gross_profit", "gross_profit", (("revenue", 1), ("cost_of_revenue", -1))),
    ("assets_sections", "total_assets", (("non_current_assets", 1), ("current_assets", 1))),
    ("liabilities_sections", "total_liabilities", (("non_current_liabilities", 1), ("current_liabilities", 1))),
    ("balance_sections", "total_equity", (("non_current_assets", 1), ("current_assets", 1),
                                          ("current_liabilities", -1), ("non_current_liabilities", -1))),
)
# (whole, parts): year-to-date flows as sums of shorter flows.
FLOW_IDENTITIES = (("H1", ("Q1", "Q2")), ("9M", ("H1", "Q3")), ("FY", ("9M", "Q4")))


@dataclass
class Finding:
    identity: str  # balance | gross_profit | flows | restated
    stock_code: str
    fiscal_year: int
    fiscal_period: str
    metric: str
    expected: Decimal  # the sum of the terms (or the earlier report's figure)
    actual: Decimal  # the printed total (or the later report's figure)
    tolerance: Decimal
    sources: list[dict] = field(default_factory=list)  # [{doc_name, document_id, page, role, value}]

    @property
    def difference(self) -> Decimal:
        return self.actual - self.expected

    def as_dict(self) -> dict:
        return {**asdict(self), "difference": self.difference}


_ROWS_SQL = """
SELECT dm.document_id, d.doc_name, dm.stock_code, dm.fiscal_year, dm.fiscal_period, dm.period_end, dm.metric_name,
       dm.metric_value, dm.page, dm.rounding, dm.source_kind, dm.doc_period_end, dm.currency,
       dm.statement, dm.concept_rank, {filed}
FROM document_metrics dm JOIN documents d USING (document_id)
WHERE (? IS NULL OR dm.stock_code IN (SELECT unnest(?)))
"""


def _source(r: dict, role: str) -> dict:
    return {"doc_name": r["doc_name"], "document_id": r["document_id"], "page": r["page"], "role": role,
            "value": r["metric_value"], "period_end": r["period_end"], "reported_on": r["doc_period_end"]}


def _report(r: dict) -> tuple:
    """The report that printed a row: its document, or (SEC companyfacts) the filing the value was copied from."""
    return (r["document_id"], r["doc_period_end"], r["filed"])


def check(con: duckdb.DuckDBPyConnection, stock_codes: list[str] | None = None,
          tally: Counter | None = None) -> list[Finding]:
    """Every identity violation and every restatement for some listings (default: all). ``tally`` counts the
    identities evaluated (violated or not), by identity id."""
    # a warehouse written before companyfacts copies (no document_metrics.filed) is read as it is: readers never
    # upgrade a file, the next writer does
    has_filed = con.execute("SELECT count(*) FROM information_schema.columns WHERE table_name = 'document_metrics' "
                            "AND column_name = 'filed'").fetchone()[0]
    cur = con.execute(_ROWS_SQL.format(filed="dm.filed" if has_filed else "NULL::DATE AS filed"), [stock_codes, stock_codes])
    cols = [d[0] for d in cur.description]
    rows = [dict(zip(cols, r)) for r in cur.fetchall()]
    for r in rows:
        r["definition"] = definition_rank(r["statement"], r["concept_rank"])
    tally = tally if tally is not None else Counter()
    restated = restatements(rows, tally)
    return [*report_identities(rows, tally), *eps_identity(rows, tally), *flow_identities(con, rows, stock_codes, tally),
            *cash_rollforward(con, stock_codes, tally), *restated, *basis_breaks(con, restated, stock_codes)]


def _by_report_period(rows: list[dict]) -> dict[tuple, dict[str, dict]]:
    """(report, fiscal year, fiscal period, period end) -> metric -> row."""
    out: dict[tuple, dict[str, dict]] = defaultdict(dict)
    for r in rows:
        out[(_report(r), r["fiscal_year"], r["fiscal_period"], r["period_end"])][r["metric_name"]] = r
    return out


def report_identities(rows: list[dict], tally: Counter) -> list[Finding]:
    out = []
    for (_doc, year, period, _end), values in _by_report_period(rows).items():
        for identity, result, terms in REPORT_IDENTITIES:
            if result not in values or any(m not in values for m, _ in terms):
                continue
            parts = [values[m] for m, _ in terms]
            tally[identity] += 1
            expected = sum((p["metric_value"] * sign for p, (_, sign) in zip(parts, terms)), Decimal(0))
            total = values[result]
            tol = tolerance(total["rounding"], *(p["rounding"] for p in parts))
            if abs(total["metric_value"] - expected) > tol:
                out.append(Finding(identity, total["stock_code"], year, period, result, expected,
                                   total["metric_value"], tol,
                                   [_source(total, result), *(_source(p, m) for p, (m, _) in zip(parts, terms))]))
    return out


def eps_identity(rows: list[dict], tally: Counter) -> list[Finding]:
    """Basic EPS against net income to the parent over weighted average shares, within one report and period."""
    out = []
    for (_doc, year, period, _end), values in _by_report_period(rows).items():
        eps, income, shares = (values.get(m) for m in ("eps_basic", "net_income_parent", "weighted_shares_basic"))
        if not (eps and income and shares) or not shares["metric_value"]:
            continue
        tally["eps"] += 1
        n = shares["metric_value"]
        expected = income["metric_value"] / n
        tol = tolerance(eps["rounding"]) + (tolerance(income["rounding"]) + abs(expected) * tolerance(shares["rounding"])) / n
        if abs(eps["metric_value"] - expected) > tol:
            out.append(Finding("eps", eps["stock_code"], year, period, "eps_basic", expected.quantize(Decimal("0.0001")),
                               eps["metric_value"], tol.quantize(Decimal("0.0001")),
                               [_source(eps, "eps_basic"), _source(income, "net_income_parent"),
                                _source(shares, "weighted_shares_basic")]))
    return out


def flow_identities(con: duckdb.DuckDBPyConnection, rows: list[dict], stock_codes: list[str] | None,
                    tally: Counter) -> list[Finding]:
    """Year-to-date sums on the default basis, over printed values (their rounding from document_metrics)."""
    printed = {(r["document_id"], r["page"], r["stock_code"], r["fiscal_year"], r["fiscal_period"], r["metric_name"]): r
               for r in rows}
    chosen: dict[tuple, dict] = {}
    for document_id, page, code, year, period, metric in con.execute(
            """SELECT document_id, page, stock_code, fiscal_year, fiscal_period, metric_name FROM financial_metrics
               WHERE source_kind <> 'derived' AND (? IS NULL OR stock_code IN (SELECT unnest(?)))""",
            [stock_codes, stock_codes]).fetchall():
        r = printed.get((document_id, page, code, year, period, metric))
        if r is not None:
            chosen[(code, year, period, metric)] = r
    known = catalogue()
    out = []
    for (code, year, period, metric), whole in chosen.items():
        spec = known.get(metric)
        if spec is None or spec.kind != "money" or spec.period != "duration":
            continue
        for target, parts in FLOW_IDENTITIES:
            if period != target:
                continue
            terms = [chosen.get((code, year, p, metric)) for p in parts]
            if None in terms or len({t["currency"] for t in [whole, *terms]}) != 1:
                continue
            tally["flows"] += 1
            expected = sum((t["metric_value"] for t in terms), Decimal(0))
            tol = tolerance(whole["rounding"], *(t["rounding"] for t in terms))
            if abs(whole["metric_value"] - expected) > tol:
                out.append(Finding("flows", code, year, period, metric, expected, whole["metric_value"], tol,
                                   [_source(whole, period), *(_source(t, p) for t, p in zip(terms, parts))]))
    return out


def restatements(rows: list[dict], tally: Counter) -> list[Finding]:
    """Comparatives that differ from the period's own report (the period is flagged restated)."""
    by_key: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        by_key[(r["stock_code"], r["fiscal_year"], r["fiscal_period"], r["metric_name"])].append(r)
    out = []
    for (code, year, period, metric), group in by_key.items():
        own = [r for r in group if r["source_kind"] == "own_report"]
        if not own:
            continue
        first = min(own, key=lambda r: (r["doc_period_end"] is None, r["doc_period_end"], r["filed"] is not None,
                                        r["filed"]))
        for r in group:
            if (r is first or _report(r) == _report(first) or r["currency"] != first["currency"]
                    or r["definition"] != first["definition"]):
                continue  # another concept or table (cash incl. restricted cash, key figures) is no restatement
            tally["restated"] += 1
            tol = tolerance(first["rounding"], r["rounding"])
            if abs(r["metric_value"] - first["metric_value"]) > tol:
                out.append(Finding("restated", code, year, period, metric, first["metric_value"], r["metric_value"],
                                   tol, [_source(first, "own report"), _source(r, "later report")]))
    return out


def basis_breaks(con: duckdb.DuckDBPyConnection, restated: list[Finding], stock_codes: list[str] | None) -> list[Finding]:
    """Periods of a restated series that no restating report prints: their default value is still on the old
    basis. One finding per such period, naming the restating report."""
    latest_restatement: dict[tuple[str, str], dict] = {}
    for f in restated:
        later = f.sources[1]
        key = (f.stock_code, f.metric)
        if key not in latest_restatement or later["period_end"] > latest_restatement[key]["period_end"]:
            latest_restatement[key] = {**later, "period_end": later["period_end"]}
    out = []
    for (code, metric), source in latest_restatement.items():
        # the restating report's date: its own period (for a companyfacts copy, the filing it was copied from)
        doc_end = source["reported_on"] or con.execute(
            "SELECT period_end FROM documents WHERE document_id = ?", [source["document_id"]]).fetchone()[0]
        for year, period, value, document_id, page, doc_name, reported in con.execute(
                """SELECT fm.fiscal_year, fm.fiscal_period, fm.metric_value, fm.document_id, fm.page, d.doc_name,
                          coalesce(dm.doc_period_end, d.period_end) AS reported
                   FROM financial_metrics fm JOIN documents d USING (document_id)
                   LEFT JOIN document_metrics dm ON dm.document_id = fm.document_id AND dm.page = fm.page
                     AND dm.stock_code = fm.stock_code AND dm.fiscal_year = fm.fiscal_year
                     AND dm.fiscal_period = fm.fiscal_period AND dm.metric_name = fm.metric_name
                   WHERE fm.stock_code = ? AND fm.metric_name = ? AND fm.source_kind <> 'derived'
                     AND coalesce(dm.doc_period_end, d.period_end) < ?""", [code, metric, doc_end]).fetchall():
            out.append(Finding("basis_break", code, year, period, metric, value, value, Decimal(0), [
                {"doc_name": doc_name, "document_id": document_id, "page": page, "role": "value (older basis)",
                 "value": value, "period_end": reported},
                {**source, "role": "restating report (does not print this period)"}]))
    return out


_CASHFLOW_SQL = """
SELECT f.document_id, d.doc_name, d.stock_code, d.market, coalesce(d.fiscal_year_end_month, 12), f.consolidated,
       f.column_label, f.label, f.value, f.value_text, f.scale, f.period_start, f.period_end, f.page, f.fact_no
FROM facts f JOIN documents d USING (document_id)
WHERE f.statement = 'cashflow' AND f.concept IS NULL AND f.value IS NOT NULL AND f.dimensions IS NULL
  AND d.stock_code IS NOT NULL AND list_contains(?, d.market)
  AND (? IS NULL OR d.stock_code IN (SELECT unnest(?)))
ORDER BY f.document_id, f.fact_no
"""


def _role(label: str | None, rules) -> str | None:
    text = "".join((label or "").split()).casefold()
    return next((role for role in ROLLFORWARD_ROLES if any(rx.search(text) for rx in rules[role])), None)


def cash_rollforward(con: duckdb.DuckDBPyConnection, stock_codes: list[str] | None, tally: Counter) -> list[Finding]:
    """Opening cash + net change in cash (+ exchange-rate effect) = closing cash, per printed cash-flow column."""
    markets, rules = cash_rollforward_rules()
    columns: dict[tuple, dict[str, dict]] = defaultdict(dict)
    for (document_id, doc_name, code, market, fye, consolidated, column, label, value, text, scale, start, end,
         page, _no) in con.execute(_CASHFLOW_SQL, [list(markets), stock_codes, stock_codes]).fetchall():
        role = _role(label, rules)
        key = (document_id, bool(consolidated), column)
        if role is None or (role == "fx" and not (markets[market] and "net_change" in columns[key])):
            continue
        columns[key].setdefault(role, {
            "doc_name": doc_name, "document_id": document_id, "stock_code": code, "fye": fye, "page": page,
            "metric_value": value, "start": start, "period_end": end,
            "rounding": rounding_of(Fact(label=label, value=value, value_text=text, scale=scale))})
    out = []
    for (_doc, consolidated, column), terms in columns.items():
        if not all(r in terms for r in ("opening", "net_change", "closing")):
            continue
        flow = terms["net_change"]
        if flow["start"] is None:
            continue
        period = classify_duration(flow["start"], flow["period_end"], flow["fye"])
        if period is None:
            continue
        tally["cash_rollforward"] += 1
        parts = [terms[r] for r in ("opening", "net_change", "fx") if r in terms]
        expected = sum((p["metric_value"] for p in parts), Decimal(0))
        closing = terms["closing"]
        tol = tolerance(closing["rounding"], *(p["rounding"] for p in parts))
        if abs(closing["metric_value"] - expected) > tol:
            metric = "cash_and_equivalents" if consolidated else "cash_and_equivalents (parent company)"
            out.append(Finding("cash_rollforward", closing["stock_code"], period[0], period[1], metric, expected,
                               closing["metric_value"], tol,
                               [_source(closing, f"closing ({column})"),
                                *(_source(terms[r], r) for r in ("opening", "net_change", "fx") if r in terms)]))
    return out
