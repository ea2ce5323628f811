"""financial_metrics over A-share reports that print year-to-date: derived single quarters (never printed,
never replacing a printed figure), both bases, fiscal-year labels."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from conftest import require_corpus
from filings import Filings
from mappings.metrics import metrics as catalogue
from warehouse import store

JINHUA_2024 = ["600080_jinhuagufen_2024_q1.pdf", "600080_jinhuagufen_2024_interim.pdf",
               "600080_jinhuagufen_2024_q3.pdf", "600080_jinhuagufen_2024_annual.pdf"]


# The report's own arithmetic does not close here: the quarterly table (p7) prints 4,239,492.97 +
# 5,791,886.76 + 7,337,339.52 - 3,593,835.51 = 13,774,883.74, the key figures (p6) 13,774,886.74 for the year.
PRINTED_INCONSISTENCIES = {"net_income_excl_nonrecurring": Decimal("-3.00")}


@pytest.fixture(scope="module")
def jinhua(tmp_path_factory):
    home = tmp_path_factory.mktemp("jinhua_home")
    with Filings(home) as f:
        report = f.ingest(*[require_corpus("cn", name) for name in JINHUA_2024], index=False)
    assert not report.failed, [r.reason for r in report.failed]
    con = store.connect(home, read_only=True)
    yield con
    con.close()


def _rows(con, where: str, params=()) -> list[dict]:
    cur = con.execute(f"SELECT * FROM financial_metrics WHERE stock_code = '600080' AND {where}", list(params))
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


def _printed_on_page(con, document_id: str, page: str, value: Decimal) -> bool:
    text = con.execute("SELECT text FROM pages WHERE document_id = ? AND page = ?", [document_id, int(page)]).fetchone()[0]
    return f"{abs(value):,.2f}" in text


def test_derived_quarters_are_flows_with_formula_and_printed_inputs(jinhua):
    derived = _rows(jinhua, "source_kind = 'derived'")
    assert len(derived) >= 30
    kinds = {r["fiscal_period"] for r in derived}
    assert kinds == {"Q2", "Q3", "Q4"}
    for r in derived:
        spec = catalogue()[r["metric_name"]]
        assert spec.kind == "money" and spec.period == "duration", r["metric_name"]  # flows only, never EPS
        assert r["page"] is None  # a derived value is never shown as printed on a page
        d = json.loads(r["derivation"])
        whole, part = d["inputs"]
        assert d["formula"] == f"{r['fiscal_period']} = {whole['fiscal_period']} - {part['fiscal_period']}"
        assert r["metric_value"] == Decimal(whole["value"]) - Decimal(part["value"])
        for inp in d["inputs"]:  # every input is printed on the page it names
            assert _printed_on_page(jinhua, inp["document_id"], inp["page"], Decimal(inp["value"])), inp


def test_printed_quarters_are_never_replaced(jinhua):
    """The annual report prints revenue for each quarter (分季度主要财务数据, p7); those stay printed, and the
    four quarters add up to the year's revenue on the income statement (p82: 585,461,786.23)."""
    quarters = _rows(jinhua, "metric_name = 'revenue' AND fiscal_year = 2024 AND fiscal_period LIKE 'Q%'")
    assert {r["fiscal_period"] for r in quarters} == {"Q1", "Q2", "Q3", "Q4"}
    assert all(r["source_kind"] != "derived" and r["page"] for r in quarters)
    assert sum(r["metric_value"] for r in quarters) == Decimal("585461786.23")


def test_quarters_add_up_to_the_year(jinhua):
    """Q1 + Q2 + Q3 + Q4 = FY for every money flow with four quarters, printed or derived: a derived quarter
    mixes values of different reports (Q1 report, interim, Q3 report, annual), so this checks them against
    each other within the rounding of the printed figures (cents)."""
    rows = _rows(jinhua, "fiscal_year = 2024")
    by = {(r["metric_name"], r["fiscal_period"]): r["metric_value"] for r in rows}
    checked = 0
    for metric, spec in catalogue().items():
        if spec.kind != "money" or spec.period != "duration" or (metric, "FY") not in by:
            continue
        quarters = [by.get((metric, q)) for q in ("Q1", "Q2", "Q3", "Q4")]
        if None in quarters:
            continue
        if metric in PRINTED_INCONSISTENCIES:
            assert sum(quarters) - by[(metric, "FY")] == PRINTED_INCONSISTENCIES[metric]
        else:
            assert abs(sum(quarters) - by[(metric, "FY")]) <= Decimal("0.02"), metric
        checked += 1
    assert checked >= 10
    derived = {r["fiscal_period"] for r in rows if r["source_kind"] == "derived"}
    assert {"Q2", "Q3", "Q4"} <= derived


def test_eps_and_instants_are_not_derived(jinhua):
    assert not _rows(jinhua, "source_kind = 'derived' AND metric_name LIKE 'eps%'")
    assert not _rows(jinhua, "source_kind = 'derived' AND metric_name IN ('current_assets', 'inventory', "
                             "'cash_and_equivalents', 'equity_parent')")


def test_both_bases_and_labels(jinhua):
    for table in ("financial_metrics", "financial_metrics_as_reported"):
        bad = jinhua.execute(f"""SELECT count(*) FROM {table} WHERE fiscal_year_label <> fiscal_year
                                 OR basis <> ? OR other_basis_value IS NULL""",
                             ["latest" if table == "financial_metrics" else "as_reported"]).fetchone()[0]
        assert bad == 0, table  # A-shares name the calendar year; every period has both bases
    n = [jinhua.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
         for t in ("financial_metrics", "financial_metrics_as_reported")]
    assert n[0] == n[1] > 100
