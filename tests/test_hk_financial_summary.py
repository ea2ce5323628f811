"""The five-year financial summary of an HK annual report gives the years before the statements' two:
0717_emperorcapital_2021_annual.pdf p181 ("FINANCIAL SUMMARY", HK$'000, years ended 30 September 2017-2021:
Revenue 1,241,000 1,314,270 1,082,854 917,407 676,812; Total assets 9,516,344 10,771,667 ...; Total liabilities
(4,382,234) (5,339,796) ...; Net assets 5,134,110 5,431,871 5,116,136 ...), while the statements (p72) keep deciding
the years they print. Over every HK annual report of the corpus, the summary's balance totals hold
assets = liabilities + equity in each year it prints all three (liabilities printed as deductions are amounts)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from conftest import corpus_root, ingested_home
from filings import Filings
from parsers import parse
from warehouse.metrics import document_metric_rows

BALANCE_TOTALS = ("total_assets", "total_liabilities", "total_equity")


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    with Filings(ingested_home(tmp_path_factory, "hk_summary", [("hk", "0717_emperorcapital_2021_annual.pdf")]), read_only=True) as fx:
        yield fx


def _metric(f, metric, year):
    return f.con.execute("SELECT metric_value, page FROM financial_metrics WHERE company_id = 'emperor_capital' AND "
                         "metric_name = ? AND fiscal_year = ? AND fiscal_period = 'FY'", [metric, year]).fetchone()


@pytest.mark.parametrize("metric, year, thousands", [
    ("revenue", 2017, "1241000"), ("revenue", 2018, "1314270"), ("revenue", 2019, "1082854"),
    ("total_equity", 2017, "5134110"), ("total_equity", 2018, "5431871"), ("pretax_income", 2019, "-230219"),
    ("total_assets", 2017, "9516344"), ("total_assets", 2019, "9887174"), ("total_liabilities", 2018, "5339796"),
])
def test_summary_years_are_stored_from_the_summary_page(f, metric, year, thousands):
    value, page = _metric(f, metric, year)
    assert value == Decimal(thousands) * 1000 and page == "181"


def test_the_statements_decide_the_years_they_print(f):
    value, page = _metric(f, "revenue", 2021)
    assert value == Decimal("676812000") and page != "181"


def test_a_five_year_trend_is_answered(f):
    a = f.ask("Emperor Capital revenue over FY2017-FY2021")
    assert a.status == "answered" and a.route == "sql"
    assert {r.fiscal_year for r in a.rows if r.metric == "revenue"} == {2017, 2018, 2019, 2020, 2021}


def _summary_years(path):
    """(year, assets, liabilities, equity) for each fiscal year whose three balance totals the report's summary
    table gives."""
    doc = parse(path)
    rows = {(r.metric_name, r.fiscal_year): r for r in document_metric_rows(doc.info, doc.facts)
            if r.fiscal_period == "FY" and r.metric_name in BALANCE_TOTALS}
    years = sorted({y for _m, y in rows})
    out = []
    for year in years:
        got = [rows.get((m, year)) for m in BALANCE_TOTALS]
        if all(r is not None and r.statement == "key_figures" for r in got):
            out.append((year, *(r.value for r in got)))
    return out


def test_summary_balance_totals_add_up_in_every_hk_annual_report():
    reports = sorted((corpus_root() / "hk").glob("*_annual.pdf"))
    if not reports:
        pytest.skip("no HK annual reports in the corpus")
    checked = {}
    for path in reports:
        for year, assets, liabilities, equity in _summary_years(path):
            assert liabilities >= 0, (path.name, year, liabilities)
            assert assets == liabilities + equity, (path.name, year, assets, liabilities, equity)
            checked.setdefault(path.name, []).append(year)
    # summaries that print all three totals for the years before the statements: 0717, 1678, 1721, 1741 at least
    assert len(checked) >= 4 and sum(len(v) for v in checked.values()) >= 10, checked


def test_a_summary_titled_summary_of_financial_information_is_read():
    """1721_fsm_2020_annual.pdf p114-115 ("Summary of Financial Information", S$'000): 2016 Revenue 12,598,
    Total assets 23,820, Total liabilities 5,864."""
    path = corpus_root() / "hk" / "1721_fsm_2020_annual.pdf"
    if not path.exists():
        pytest.skip("1721_fsm_2020_annual.pdf not in the corpus")
    doc = parse(path)
    rows = {(r.metric_name, r.fiscal_year): r for r in document_metric_rows(doc.info, doc.facts) if r.fiscal_period == "FY"}
    assert rows[("revenue", 2016)].value == Decimal("12598000") and rows[("revenue", 2016)].page == "114"
    assert rows[("total_assets", 2016)].value == Decimal("23820000") and rows[("total_assets", 2016)].page == "115"
    assert rows[("total_liabilities", 2016)].value == Decimal("5864000")
