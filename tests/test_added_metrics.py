"""Metrics analysts ask for by name beyond the statements' totals: operating expenses ("opex"), goodwill, share
repurchases ("buybacks"), dividends per share, book value per share and the A-share 扣非 basic EPS. Expected values
come from SEC companyfacts (NVIDIA, CIK 1045810) and from the printed pages: 300347_taigeyiyao_2025_interim p49
(商誉 3,250,666,878.10 / 3,227,762,493.75), 603259_yaomingkangde_2025_interim p8 (扣除非经常性损益后的基本每股收益
1.97 / 1.52 元/股)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from conftest import ingested_home, require_corpus
from filings import Filings
from router.plan import find_metrics


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    with Filings(ingested_home(tmp_path_factory, "added_metrics", [
        ("us", "ixbrl", "nvda-10k-fy2025"), ("cn", "300347_taigeyiyao_2025_interim.pdf"),
        ("cn", "603259_yaomingkangde_2025_interim.pdf")]), read_only=True) as fx:
        yield fx


def _stored(f, company, metric, year, period):
    row = f.con.execute("SELECT metric_value FROM financial_metrics WHERE company_id = ? AND metric_name = ? AND "
                        "fiscal_year = ? AND fiscal_period = ?", [company, metric, year, period]).fetchone()
    return row[0] if row else None


@pytest.mark.parametrize("question, metric", [
    ("Nvidia opex fiscal 2025", "operating_expenses"), ("total operating expenses", "operating_expenses"),
    ("Apple buybacks in fiscal 2024", "share_repurchases"), ("回购股份支付的现金", "share_repurchases"),
    ("泰格医药2025年6月末商誉", "goodwill"), ("Walmart dividends declared per share", "dividends_per_share"),
    ("每股股息", "dividends_per_share"), ("药明康德扣非每股收益", "eps_basic_excl_nonrecurring"),
    ("平安银行每股净资产", "book_value_per_share"), ("cash dividends paid", "dividends_paid"),
])
def test_names_of_the_added_metrics(question, metric):
    assert find_metrics(question) == [metric]


@pytest.mark.parametrize("concept, metric", [
    ("OperatingExpenses", "operating_expenses"), ("PaymentsForRepurchaseOfCommonStock", "share_repurchases"),
    ("CommonStockDividendsPerShareDeclared", "dividends_per_share"), ("Goodwill", "goodwill"),
])
def test_us_figures_match_companyfacts(f, concept, metric):
    facts = json.loads(require_corpus("us", "companyfacts", "CIK0001045810.json").read_text())["facts"]["us-gaap"]
    [unit] = facts[concept]["units"].values()
    truth = {v["end"]: Decimal(str(v["val"])) for v in unit if v.get("form") == "10-K" and v.get("fy") == 2025}
    assert truth
    for end, value in truth.items():
        row = f.con.execute("SELECT metric_value FROM financial_metrics WHERE company_id = 'nvidia' AND metric_name = ? "
                            "AND period_end = ? AND fiscal_period = 'FY'", [metric, end]).fetchone()
        assert row is not None and row[0] == value, (metric, end)


def test_printed_goodwill_and_recurring_eps(f):
    assert _stored(f, "tigermed", "goodwill", 2025, "H1") == Decimal("3250666878.10")
    assert _stored(f, "tigermed", "goodwill", 2024, "FY") == Decimal("3227762493.75")
    assert _stored(f, "wuxi_apptec", "eps_basic_excl_nonrecurring", 2025, "H1") == Decimal("1.97")
    assert _stored(f, "wuxi_apptec", "eps_basic_excl_nonrecurring", 2024, "H1") == Decimal("1.52")


def test_an_added_metric_is_answered_from_sql(f):
    a = f.ask("药明康德2025半年度扣除非经常性损益后的基本每股收益")
    assert a.status == "answered" and a.route == "sql" and "1.97" in a.answer
    a = f.ask("What were Nvidia's buybacks in fiscal 2025?")
    assert a.status == "answered" and a.route == "sql" and "33,706" in a.answer
