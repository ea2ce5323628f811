"""The five-year financial summary of an HK annual report gives the years before the statements' two:
0717_emperorcapital_2021_annual.pdf p181 ("FINANCIAL SUMMARY", HK$'000, years ended 30 September 2017-2021:
Revenue 1,241,000 1,314,270 1,082,854 917,407 676,812; Net assets
5,134,110 5,431,871 5,116,136 ...), while the statements (p72) keep deciding the years they print."""

from __future__ import annotations

from decimal import Decimal

import pytest

from conftest import ingested_home
from filings import Filings


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
