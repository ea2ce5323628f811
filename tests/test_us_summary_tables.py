"""A 10-K's summary tables beside its statements: Item 6, Selected Financial Data, gives the years before the
statements' (parsers/us_selected_data.py), while the statements keep deciding the years they print; the quarterly
financial data note gives single quarters, the fourth among them (parsers/us_quarterly_data.py). Rows as printed:

- WALMART_2018_10K p35 ("Five-Year Financial Summary", amounts in millions, fiscal years ended January 31, 2018 ...
  2014): "Total revenues $ 500,343 $ 485,873 $ 482,130 $ 485,651 $ 476,294", "Total assets 204,522 198,825 199,581
  203,490 204,541", "Dividends declared per common share 2.04 2.00 1.96 1.92 1.88";
- 3M_2018_10K p14 ("Item 6. Selected Financial Dat a.", dollars in millions, 2018* ... 2014): "Net sales $ 32,765 ...
  $ 30,274 $ 31,821", "Net income attributable to 3M 5,349 4,858 5,050 4,833 4,956", under "Per share of 3M common
  stock:" "Net income attributable to 3M — basic 9.09 8.13 8.35 7.72 7.63" and "— diluted 8.89 7.93 8.16 7.58 7.49";
- MICROSOFT_2016_10K p28 (footnote marks among the figures): "Revenue $ 85,320 (a) $ 93,580 $ 86,833 $ 77,849
  $ 73,723", "Diluted earnings per share $ 2.10 (a)(b) $ 1.48 (c) $ 2.63 $ 2.58 (e) $ 2.00 (f)";
- AMAZON_2017_10K p18 (years ascending, "2017 (1)"; "Basic earnings per share (2) $ 0.60 $ (0.52) ..."; share counts
  under "Weighted-average shares used in computation of earnings per share:" "Basic 457 462 ...");
- NIKE_2019_10K p24 ("Year Ended May 31," under the years; "Revenues $ 39,117 $ 36,397 $ 34,350 $ 32,376 $ 30,601",
  "Total assets (2)(3) 23,717 22,536 23,259 21,379 21,590")."""

from __future__ import annotations

from decimal import Decimal

import pytest

from conftest import require_corpus
from parsers import parse
from warehouse.metrics import document_metric_rows


def _rows(name: str, period: str = "FY") -> dict:
    doc = parse(require_corpus("us", "financebench", "pdfs", f"{name}.pdf"))
    return {(r.metric_name, r.fiscal_year) if period == "FY" else (r.metric_name, r.fiscal_year, r.fiscal_period): r
            for r in document_metric_rows(doc.info, doc.facts) if (r.fiscal_period == "FY") == (period == "FY")}


@pytest.fixture(scope="module")
def walmart():
    return _rows("WALMART_2018_10K")


@pytest.fixture(scope="module")
def mmm():
    return _rows("3M_2018_10K")


@pytest.mark.parametrize("metric, year, value", [
    ("revenue", 2015, "485651000000"), ("revenue", 2014, "476294000000"),
    ("total_assets", 2016, "199581000000"), ("total_assets", 2014, "204541000000"),
    ("dividends_per_share", 2014, "1.88"),
])
def test_walmart_summary_years(walmart, metric, year, value):
    row = walmart[(metric, year)]
    assert row.value == Decimal(value) and row.page == "35" and row.statement == "key_figures"


def test_the_statements_decide_the_years_they_print(walmart):
    assert walmart[("revenue", 2018)].statement == "income" and walmart[("revenue", 2018)].value == Decimal("500343000000")
    assert walmart[("total_assets", 2017)].statement == "balance"


@pytest.mark.parametrize("metric, year, value", [
    ("revenue", 2015, "30274000000"), ("net_income_parent", 2014, "4956000000"),
    ("eps_basic", 2015, "7.72"), ("eps_diluted", 2014, "7.49"), ("dividends_per_share", 2015, "3.075"),
])
def test_3m_summary_years(mmm, metric, year, value):
    row = mmm[(metric, year)]
    assert row.value == Decimal(value) and row.page == "14"


def test_a_per_share_row_is_never_a_money_metric(mmm):
    # "Net income attributable to 3M — basic 9.09 ..." under the per-share heading: EPS, not the net income
    assert all(r.value > 1000 for (m, _y), r in mmm.items() if m in ("net_income_parent", "net_income"))


@pytest.mark.parametrize("name, metric, year, value, page", [
    ("MICROSOFT_2016_10K", "revenue", 2012, "73723000000", "28"),
    ("MICROSOFT_2016_10K", "eps_diluted", 2013, "2.58", "28"),
    ("AMAZON_2017_10K", "eps_basic", 2014, "-0.52", "18"),
    ("AMAZON_2017_10K", "revenue", 2013, "74452000000", "18"),
    ("NIKE_2019_10K", "revenue", 2015, "30601000000", "24"),
    ("NIKE_2019_10K", "total_assets", 2017, "23259000000", "24"),
])
def test_summary_layouts(name, metric, year, value, page):
    row = _rows(name)[(metric, year)]
    assert (row.value, row.page, row.statement) == (Decimal(value), page, "key_figures")


def test_share_counts_are_no_per_share_figure():
    rows = _rows("AMAZON_2017_10K")
    assert all(abs(r.value) < 100 for (m, _y), r in rows.items() if m in ("eps_basic", "eps_diluted"))


# Quarterly financial data, as printed:
# - WALMART_2018_10K p87 ("Note 17. Quarterly Financial Data (Unaudited)", "Fiscal Year Ended January 31, 2018",
#   "Q1 Q2 Q3 Q4 Total"): "Total revenues $ 117,542 $ 123,355 $ 123,179 $ 136,267 $ 500,343", "Consolidated net income
#   attributable to Walmart 3,039 2,899 1,749 2,175 9,862"; then fiscal 2017: "Total revenues $ 115,904 ... $ 130,936";
# - NIKE_2019_10K p25 ("1ST QUARTER ... 4TH QUARTER" over "2019 2018 2019 2018 2019 2018 (1) 2019 2018"):
#   "Revenues $ 9,948 $ 9,070 $ 9,374 $ 8,554 $ 9,611 $ 8,984 $ 10,184 $ 9,789";
# - AMAZON_2017_10K p72 ("Year Ended December 31, 2016 (1)", "First / Quarter / Second / Quarter ..." one word a line):
#   "Net sales $ 29,128 $ 30,404 $ 32,714 $ 43,741", "Net income (loss) 513 857 252 749";
# - BESTBUY_2019_10K p90 ("1st 2nd 3rd 4th Fiscal Year", "Fiscal 2019"; the year ends Saturday February 2, 2019):
#   "Revenue $ 9,109 $ 9,379 $ 9,590 $ 14,801 $ 42,879".
@pytest.mark.parametrize("name, metric, year, quarter, value, end", [
    ("WALMART_2018_10K", "revenue", 2018, "Q4", "136267000000", "2018-01-31"),
    ("WALMART_2018_10K", "revenue", 2017, "Q4", "130936000000", "2017-01-31"),
    ("WALMART_2018_10K", "net_income_parent", 2018, "Q3", "1749000000", "2017-10-31"),
    ("NIKE_2019_10K", "revenue", 2019, "Q4", "10184000000", "2019-05-31"),
    ("NIKE_2019_10K", "revenue", 2018, "Q3", "8984000000", "2018-02-28"),
    ("AMAZON_2017_10K", "revenue", 2016, "Q4", "43741000000", "2016-12-31"),
    ("AMAZON_2017_10K", "net_income", 2016, "Q2", "857000000", "2016-06-30"),
    ("BESTBUY_2019_10K", "revenue", 2019, "Q4", "14801000000", "2019-02-02"),
    ("BESTBUY_2019_10K", "revenue", 2019, "Q1", "9109000000", "2018-05-05"),
])
def test_quarterly_data(name, metric, year, quarter, value, end):
    row = _rows(name, "Q")[(metric, year, quarter)]
    assert (row.value, row.period_end.isoformat(), row.statement) == (Decimal(value), end, "key_figures")


def test_quarters_add_up_to_the_year():
    # Walmart fiscal 2018: Q1..Q4 total revenues = the income statement's 500,343 (arithmetic, not a printed total)
    quarters, year = _rows("WALMART_2018_10K", "Q"), _rows("WALMART_2018_10K")
    total = sum(quarters[("revenue", 2018, q)].value for q in ("Q1", "Q2", "Q3", "Q4"))
    assert total == year[("revenue", 2018)].value == Decimal("500343000000")


def test_a_per_share_table_and_a_short_year_are_not_read_as_the_years_money():
    """BESTBUY_2017_10K p26 ("Five-Year Financial Highlights", "12-Month 11-Month" over "Fiscal Year 2017 (1) ... 2013
    (5)(6)"): fiscal 2013 lasted 11 months, and under "Per Share Data" the row "Net earnings (loss) 3.81 2.56 3.49 1.53
    (1.30)" is per share: no full-year figure of fiscal 2013 and no net income of $1.53 million come from the page."""
    rows = _rows("BESTBUY_2017_10K")
    assert all(r.page != "26" for r in rows.values())
    assert all(abs(r.value) > 1_000_000_00 for (m, _y), r in rows.items() if m in ("net_income", "net_income_parent"))


def test_a_dividend_row_under_a_per_share_heading_is_dividends_per_share():
    """COCACOLA_2017_10K p30, Item 6: under "PER SHARE DATA" the row "Cash dividends 1.48 1.40 1.32 1.22 1.12" (2017 ...
    2013) is the dividend per share of each year; before it, "Basic net income 0.29 1.51 ..." is basic EPS."""
    rows = _rows("COCACOLA_2017_10K")
    assert rows[("dividends_per_share", 2013)].value == Decimal("1.12") and rows[("dividends_per_share", 2013)].page == "30"
    assert rows[("dividends_per_share", 2015)].value == Decimal("1.32")
