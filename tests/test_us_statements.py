"""US PDF statements (parsers/us_statements.py): values read by hand from the pages named in each test, the
column periods from the printed headers, and the balance-sheet identity over every column read."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

import pytest

from conftest import require_corpus
from mappings.metrics import metric_for_label, normalise_label
from parsers import us_statements
from parsers.pdf_pages import read_pages
from parsers.recognise import recognise_pdf
from parsers.statement_columns import read_columns
from parsers.statement_lines import parse_amount, split_row
from schema.models import DocumentInfo, Page
from warehouse.manifest import hints_for
from warehouse.metrics import document_metric_rows

M = Decimal(10) ** 6


def _read(name):
    path = require_corpus("us", "financebench", "pdfs", name)
    pages = read_pages(path)
    info = recognise_pdf(path, pages)
    return info, us_statements.read(pages, info)


@pytest.fixture(scope="module")
def mmm():
    return _read("3M_2018_10K.pdf")


@pytest.fixture(scope="module")
def amcor_q():
    return _read("AMCOR_2023Q2_10Q.pdf")


def _value(facts, statement, label, end, start=None):
    hits = [f.value for f in facts if f.statement == statement and f.label == label and f.period_end == end
            and (start is None or f.period_start == start)]
    assert len(hits) == 1, (label, end, hits)
    return hits[0]


def test_3m_statements_found_and_read(mmm):
    _, res = mmm
    got = {r.statement: (r.status, r.page) for r in res.reads}
    # 3M 2018 10-K: p56 Consolidated Statement of Income, p58 Balance Sheet, p60 Statement of Cash Flows
    assert got == {"income": ("read", 56), "balance": ("read", 58), "cashflow": ("read", 60)}


def test_3m_values_from_the_pages(mmm):
    info, res = mmm
    f = res.facts
    y18 = dt.date(2018, 12, 31)
    # p56 "(Millions, except per share amounts)": Net sales $ 32,765; Cost of sales 16,682; Operating income 7,207
    assert _value(f, "income", "Net sales", y18) == 32765 * M
    assert _value(f, "income", "Cost of sales", dt.date(2016, 12, 31)) == 15118 * M
    # p58: Total assets $ 36,500; Total liabilities $ 26,652; Total equity $ 9,848; Total liabilities and equity 36,500
    assert _value(f, "balance", "Total assets", y18) == 36500 * M
    assert _value(f, "balance", "Total liabilities", y18) + _value(f, "balance", "Total equity", y18) == 36500 * M
    # p60: Net cash provided by (used in) operating activities 6,439; Purchases of PP&E (1,577)
    assert _value(f, "cashflow", "Net cash provided by (used in) operating activities", y18) == 6439 * M
    rows = {(r.metric_name, r.fiscal_year): r for r in document_metric_rows(info, f) if r.fiscal_period == "FY"}
    assert rows[("revenue", 2018)].value == 32765 * M and rows[("revenue", 2018)].page == "56"
    assert rows[("total_assets", 2017)].value == 37987 * M
    assert rows[("operating_cash_flow", 2016)].value == 6662 * M
    assert rows[("capex", 2018)].value in (1577 * M, -1577 * M)


def test_amcor_10q_columns_come_from_the_header(amcor_q):
    info, res = amcor_q
    # p5 "Three Months Ended December 31, Six Months Ended December 31," over 2022 2021 2022 2021 ($ in millions):
    # Net sales 3,642 3,507 7,354 6,927
    f = res.facts
    end = dt.date(2022, 12, 31)
    assert _value(f, "income", "Net sales", end, dt.date(2022, 10, 1)) == 3642 * M
    assert _value(f, "income", "Net sales", end, dt.date(2022, 7, 1)) == 7354 * M
    assert _value(f, "income", "Net sales", dt.date(2021, 12, 31), dt.date(2021, 7, 1)) == 6927 * M
    # the cash-flow statement prints six months only: no quarter-alone cash flow is made up
    assert not any(f.statement == "cashflow" and f.period_start == dt.date(2022, 10, 1) for f in res.facts)


@pytest.mark.parametrize("fixture", ["mmm", "amcor_q"])
def test_balance_sheet_identity_on_every_column(fixture, request):
    _, res = request.getfixturevalue(fixture)
    by_end: dict = {}
    for f in res.facts:
        if f.statement != "balance" or f.value is None:
            continue
        norm = normalise_label(f.label)
        if norm == "total assets":
            by_end.setdefault(f.period_end, {})["a"] = f.value
        elif re.match(r"total liabilities(?:,| and) .*equity", norm):
            by_end.setdefault(f.period_end, {})["le"] = f.value
    assert by_end and all(v["a"] == v["le"] for v in by_end.values()), by_end


def test_columns_read_from_headers():
    cols, _ = read_columns(["Years ended December 31, 2018 2017 2016"], "income", "10-K", 12)
    assert [(c.start, c.end) for c in cols][0] == (dt.date(2018, 1, 1), dt.date(2018, 12, 31))
    cols, _ = read_columns(["52 Weeks Ended 52 Weeks Ended", "August 29, 2021 August 30, 2020"], "cashflow", "10-K", 8)
    assert (cols[0].start, cols[0].end) == (dt.date(2020, 8, 31), dt.date(2021, 8, 29))
    cols, _ = read_columns(["Fiscal Years Ended January 28, 2023 January 29, 2022"], "income", "10-K", 1)
    assert cols[1].end == dt.date(2022, 1, 29) and cols[1].months == 12
    # a 10-Q column without a printed span is refused, with the reason
    cols, why = read_columns(["($ in millions) 2022 2021"], "cashflow", "10-Q", 6)
    assert cols == [] and "no period length" in why
    # dates printed in figures (US order); a quarter's columns that print only years are refused, never placed at
    # the fiscal year's end
    cols, _ = read_columns(["12 Weeks Ended", "3/25/2023 3/19/2022"], "income", "earnings_release", 12)
    assert [(c.start, c.end) for c in cols] == [(dt.date(2023, 1, 1), dt.date(2023, 3, 25)),
                                                (dt.date(2021, 12, 26), dt.date(2022, 3, 19))]
    cols, why = read_columns(["12 Weeks Ended", "2023 2022"], "income", "earnings_release", 12)
    assert cols == [] and "no month" in why


def test_a_release_with_dates_in_figures():
    pages = read_pages(require_corpus("us", "financebench", "pdfs", "PEPSICO_2023Q1_EARNINGS.pdf"))
    res = us_statements.read(pages, DocumentInfo(market="US", form="earnings_release", currency="USD"))
    # p4 "Condensed Consolidated Statement of Income (in millions ...)", "12 Weeks Ended 3/25/2023 3/19/2022":
    # Net Revenue $ 17,846 $ 16,200
    assert _value(res.facts, "income", "Net Revenue", dt.date(2023, 3, 25), dt.date(2023, 1, 1)) == 17846 * M
    assert _value(res.facts, "income", "Net Revenue", dt.date(2022, 3, 19)) == 16200 * M
    # every flow is one of the two printed 12-week quarters (none placed at a fiscal year's end)
    assert {(f.period_start, f.period_end) for f in res.facts if f.period_type == "duration"} == {
        (dt.date(2023, 1, 1), dt.date(2023, 3, 25)), (dt.date(2021, 12, 26), dt.date(2022, 3, 19))}


@pytest.mark.parametrize("name,period_end,fiscal_year,fiscal_period,year_end_month", [
    # cover "For the quarterly period ended / March 31, 2021" beside the file number; statements: three months only
    ("JPMORGAN_2021Q1_10Q.pdf", dt.date(2021, 3, 31), 2021, "Q1", 12),
    # cover "For the quarterly period ended July 29, 2023"; statements "Three Months Ended" and "Six Months Ended"
    ("BESTBUY_2024Q2_10Q.pdf", dt.date(2023, 7, 29), 2024, "Q2", 1),
    # cover "quarterly period ended December 31, 2022"; "Six Months Ended December 31" (fiscal year to June)
    ("AMCOR_2023Q2_10Q.pdf", dt.date(2022, 12, 31), 2023, "Q2", 6),
])
def test_a_10q_quarter_comes_from_its_statements(name, period_end, fiscal_year, fiscal_period, year_end_month):
    from parsers.pdf_report import parse
    info = parse(require_corpus("us", "financebench", "pdfs", name)).info
    assert (info.period_end, info.fiscal_year, info.fiscal_period, info.fiscal_year_end_month) == (
        period_end, fiscal_year, fiscal_period, year_end_month)


@pytest.mark.parametrize("name,fiscal_period", [
    ("JOHNSON_JOHNSON_2023Q2_EARNINGS.pdf", "Q2"),  # p1 "2023 Second-Quarter reported sales growth of 6.3% ..."
    ("PEPSICO_2023Q1_EARNINGS.pdf", "Q1"),  # statements print the 12 weeks alone; p1 names the first quarter
])
def test_a_release_takes_the_quarter_its_headline_names(name, fiscal_period):
    from parsers.pdf_report import parse
    from warehouse.manifest import hints_for

    path = require_corpus("us", "financebench", "pdfs", name)  # its manifest names the company and the form
    assert parse(path, hints=hints_for(path)).info.fiscal_period == fiscal_period


def test_a_headline_names_the_first_quarter_it_prints():
    from parsers.report_period import headline_quarter
    from schema.models import Page

    def named(text):
        return headline_quarter([Page(page=1, text=text)])

    assert named("Fourth-Quarter and Full-Year 2022 Results\nfirst quarter 2023 outlook") == (2022, "Q4")
    assert named("Q3 2024 results") == (2024, "Q3") and named("Annual report 2024") is None


def test_unreadable_statement_leaves_a_trace():
    info = DocumentInfo(market="US", form="10-Q", fiscal_year=2023, fiscal_period="Q2", currency="USD",
                        period_end=dt.date(2022, 12, 31), fiscal_year_end_month=6)
    text = "\n".join(["Condensed Consolidated Statements of Cash Flows", "($ in millions) 2022 2021",
                      "Net income $ 695 $ 432", "Depreciation 280 290", "Net cash provided by operating activities 100 200"])
    res = us_statements.read([Page(page=8, text=text)], info)
    rec = next(r for r in res.reads if r.statement == "cashflow")
    assert res.facts == [] and rec.status == "unreadable" and rec.page == 8 and "no period length" in rec.reason


def test_rows_and_amounts():
    assert split_row("Subscription ........ $ 3,223,904 $ 2,076,584") == ("Subscription", ["$3,223,904", "$2,076,584"])
    assert split_row("Net loss ($5,053) ($4,290)") == ("Net loss", ["($5,053)", "($4,290)"])
    assert parse_amount("($5,053)") == Decimal(-5053) and parse_amount("—") is None
    assert parse_amount("16,865.2") == Decimal("16865.2")


def test_us_labels_map_with_company_names_and_headings():
    assert metric_for_label("US", "income", "Net income attributable to Amcor plc")[0] == "net_income_parent"
    # the minority's share is its own metric (the net-income identity's third term), never the parent's
    assert metric_for_label("US", "income", "Net income attributable to noncontrolling interests")[0] == \
        "net_income_minority"
    # WALMART_2018_10K p57: "Consolidated net income attributable to noncontrolling interest (661)" and "Consolidated
    # net income attributable to Walmart $ 9,862" under "Consolidated net income 10,523"
    assert metric_for_label("US", "income", "Consolidated net income attributable to Walmart")[0] == "net_income_parent"
    assert metric_for_label("US", "income", "Consolidated net income attributable to noncontrolling interest")[0] == \
        "net_income_minority"
    assert metric_for_label("US", "income", "Consolidated net income")[0] == "net_income"
    assert metric_for_label("US", "income", "Earnings per share: Diluted")[0] == "eps_diluted"
    assert metric_for_label("US", "income", "Weighted-average shares outstanding: Basic") is None
    assert metric_for_label("US", "balance", "Total 3M Company shareholders’ equity")[0] == "equity_parent"
    assert metric_for_label("US", "cashflow", "Total cash used in financing activities")[0] == "financing_cash_flow"


def test_3m_analyst_lines_mapped_with_their_sign(mmm):
    """3M 2018 10-K, read by hand: p56 "Income before income taxes 7,000", "Less: Net income attributable to
    noncontrolling interest 14", net income incl. NCI 5,363; p58 "Property, plant and equipment — net 8,738",
    "Accounts payable 2,266", "Noncontrolling interest 52"; p60 "Depreciation and amortization 1,488",
    "Purchases of property, plant and equipment (PP&E) (1,577)", "Dividends paid to shareholders (3,193)"."""
    info, res = mmm
    rows = {(r.metric_name, r.fiscal_year): r for r in document_metric_rows(info, res.facts) if r.fiscal_period == "FY"}
    assert rows[("pretax_income", 2018)].value == 7000 * M
    assert rows[("net_income_minority", 2018)].value == 14 * M
    assert rows[("net_income", 2018)].value == rows[("net_income_parent", 2018)].value + 14 * M
    assert rows[("ppe_net", 2018)].value == 8738 * M and rows[("ppe_net", 2018)].page == "58"
    assert rows[("accounts_payable", 2018)].value == 2266 * M
    assert rows[("minority_interest", 2018)].value == 52 * M
    # costs and payments are stored positive; the cash-flow add-back keeps its printed (positive) sign
    assert rows[("depreciation_amortization", 2018)].value == 1488 * M
    assert rows[("capex", 2018)].value == 1577 * M
    assert rows[("dividends_paid", 2018)].value == 3193 * M


def _page_info(**kw):
    base = dict(market="US", form="10-K", fiscal_year=2020, fiscal_period="FY", currency="USD",
                period_end=dt.date(2020, 12, 31), fiscal_year_end_month=12, company_metrics=True)
    return DocumentInfo(**{**base, **kw})


def test_unlabelled_total_under_a_heading_and_wrapped_labels():
    """Lines of MGM Resorts' 2020 10-K p65 (revenue total printed without a label under "Revenues"; the
    non-controlling share printed as a deduction) and of Coca-Cola's 2017 10-K p74 (a label wrapped after "OF")."""
    text = "\n".join([
        "CONSOLIDATED STATEMENTS OF OPERATIONS", "(In thousands, except per share data)", "Year Ended December 31,",
        "2020 2019 2018", "Revenues", "Casino $ 2,871,720 $ 6,517,759 $ 5,753,150",
        "Rooms 830,382 2,322,579 2,212,573", "5,162,082 12,899,672 11,763,096",
        "Net income (loss) (1,319,907) 2,214,380 583,894",
        "Less: Net (income) loss attributable to noncontrolling interests 287,183 (165,234) (117,122)",
        "Net income (loss) attributable to MGM Resorts International $ (1,032,724) $ 2,049,146 $ 466,772"])
    info = _page_info()
    res = us_statements.read([Page(page=65, text=text)], info)
    rows = {(r.metric_name, r.fiscal_year): r.value for r in document_metric_rows(info, res.facts) if r.fiscal_period == "FY"}
    assert rows[("revenue", 2019)] == 12899672 * Decimal(1000)  # the block's total, not "Casino"
    assert rows[("net_income_parent", 2019)] == 2049146 * Decimal(1000)
    # net income = parent + minority: the deduction "(165,234)" is the minority's income of 165,234
    assert rows[("net_income_minority", 2019)] == 165234 * Decimal(1000)
    assert rows[("net_income_minority", 2020)] == -287183 * Decimal(1000)
    text = "\n".join([
        "CONSOLIDATED STATEMENTS OF INCOME", "Year Ended December 31, 2017 2016 2015", "(In millions except per share data)",
        "NET OPERATING REVENUES $ 35,410 $ 41,863 $ 44,294", "CONSOLIDATED NET INCOME 1,283 6,550 7,366",
        "Less: Net income attributable to noncontrolling interests 35 23 15",
        "NET INCOME ATTRIBUTABLE TO SHAREOWNERS OF", "THE COCA-COLA COMPANY $ 1,248 $ 6,527 $ 7,351"])
    info = _page_info(fiscal_year=2017, period_end=dt.date(2017, 12, 31))
    res = us_statements.read([Page(page=74, text=text)], info)
    rows = {(r.metric_name, r.fiscal_year): r.value for r in document_metric_rows(info, res.facts) if r.fiscal_period == "FY"}
    assert rows[("net_income_parent", 2017)] == 1248 * M and rows[("net_income_minority", 2017)] == 35 * M


def test_statement_page_printing_the_reports_own_period_wins():
    """Boeing's 2018 10-K prints its balance sheet (p52, December 31, 2018 and 2017) and, in a note, the 2017
    balance sheet restated for new standards under the same title (p71): the statement is the page with the
    report's own period."""
    note = "\n".join(["Consolidated Statement of Financial Position", "(Dollars in millions) December 31, 2017",
                      "Total assets $92,333 $20,029 $112,362", "Total liabilities 91,921 18,728 110,649",
                      "Total equity 412 1,301 1,713", "Total current assets 65,161 20,033 85,194"])
    own = "\n".join(["Consolidated Statements of Financial Position", "(Dollars in millions, except per share data)",
                     "December 31, 2018 2017", "Property, plant and equipment, net 12,645 12,672",
                     "Total assets $117,359 $112,362"])
    info = _page_info(fiscal_year=2018, period_end=dt.date(2018, 12, 31))
    res = us_statements.read([Page(page=52, text=own), Page(page=53, text="Notes"), Page(page=71, text=note)], info)
    assert next(r for r in res.reads if r.statement == "balance").page == 52
    rows = {(r.metric_name, r.fiscal_year): r for r in document_metric_rows(info, res.facts) if r.fiscal_period == "FY"}
    assert rows[("ppe_net", 2018)].value == 12645 * M


def test_row_tidying_keeps_figures():
    # Microsoft 2023 10-K p61 "Additions to property and equipment (28,107 ) (23,886 ) (20,622 )";
    # J&J 2022 10-K p46 "Cash and cash equivalents (Notes 1 and 2) $ 14,487 $ 14,487"
    assert split_row(us_statements._tidy("Additions to property and equipment (28,107 ) (23,886 ) (20,622 )")) == \
        ("Additions to property and equipment", ["(28,107)", "(23,886)", "(20,622)"])
    assert split_row(us_statements._tidy("Cash and cash equivalents (Notes 1 and 2) $ 14,487 $ 14,487"))[0] == \
        "Cash and cash equivalents"


def test_amount_and_percent_pairs_give_the_amounts():
    # a "% of net sales" column printed beside each period's amount
    assert split_row("Net sales $ 3,226,773 100.0% $ 2,729,388 100.0%") == ("Net sales", ["$3,226,773", "$2,729,388"])
    assert split_row("Interest (income) expense, net (4,378) (0.1%) 467 0.1%") == \
        ("Interest (income) expense, net", ["(4,378)", "467"])
    # a percentage that is not beside every amount, or a ratio row, gives no cells to place
    assert split_row("Effective tax rate 24.4% 22.8%")[1] == []
    assert split_row("Change 7 1,234 5.2% 1,000 3.0%")[1] == []


def test_a_release_printing_the_quarter_then_the_year_under_one_title():
    # Ulta Beauty Q4 2022 release, p6: Exhibit 1 "13 Weeks Ended January 28, 2023 / January 29, 2022" and Exhibit 2
    # "52 Weeks Ended" under the same title "Consolidated Statements of Income (In thousands ...)", each row an
    # amount and its percent of net sales
    path = require_corpus("us", "financebench", "pdfs", "ULTABEAUTY_2023Q4_EARNINGS.pdf")
    pages = read_pages(path)
    info = recognise_pdf(path, pages, hints_for(path))
    f = [x for x in us_statements.read(pages, info).facts if x.statement == "income"]
    end, prior = dt.date(2023, 1, 28), dt.date(2022, 1, 29)
    k = Decimal(1000)

    def at(label, end, weeks):
        hits = [x.value for x in f if x.label == label and x.period_end == end
                and (end - x.period_start).days + 1 == weeks * 7]
        assert len(hits) == 1, (label, end, weeks, hits)
        return hits[0]

    assert at("Net sales", end, 13) == 3226773 * k and at("Net sales", prior, 13) == 2729388 * k
    assert at("Net sales", end, 52) == 10208580 * k and at("Net sales", prior, 52) == 8630889 * k
    assert at("Net income per common share Diluted", end, 52) == Decimal("24.01")
    assert at("Net income per common share Diluted", end, 13) == Decimal("6.68")
    for weeks in (13, 52):  # the printed arithmetic of every column read
        for day in (end, prior):
            assert at("Net sales", day, weeks) - at("Cost of sales", day, weeks) == at("Gross profit", day, weeks)
            assert at("Income before income taxes", day, weeks) - at("Income tax expense", day, weeks) == \
                at("Net income", day, weeks)


def test_revenue_is_the_total_of_revenues():
    # Costco FY2021 10-K p36: "Net sales $ 192,052 ... Membership fees 3,877 ... Total revenue 195,929" (in millions):
    # revenue is the total, never one of its lines
    path = require_corpus("us", "financebench", "pdfs", "COSTCO_2021_10K.pdf")
    pages = read_pages(path)
    info = recognise_pdf(path, pages, hints_for(path))
    facts = us_statements.read(pages, info).facts
    rows = {(r.metric_name, r.fiscal_year): r for r in document_metric_rows(info, facts) if r.fiscal_period == "FY"}
    end = dt.date(2021, 8, 29)
    assert rows[("revenue", 2021)].value == 195929 * M and rows[("revenue", 2021)].page == "36"
    assert _value(facts, "income", "Net sales", end) + _value(facts, "income", "Membership fees", end) == \
        rows[("revenue", 2021)].value


def test_a_per_share_row_naming_the_parent_is_eps():
    """PEPSICO_2021_10K p61, the income statement: under "Net Income Attributable to PepsiCo per Common Share",
    "Basic $5.51 $5.14 $5.23" and "Diluted $5.49 $5.12 $5.20" (2021, 2020, 2019): EPS, never the parent's net income."""
    from parsers import parse

    doc = parse(require_corpus("us", "financebench", "pdfs", "PEPSICO_2021_10K.pdf"))
    rows = {(r.metric_name, r.fiscal_year): r for r in document_metric_rows(doc.info, doc.facts) if r.fiscal_period == "FY"}
    assert rows[("eps_diluted", 2021)].value == Decimal("5.49") and rows[("eps_basic", 2020)].value == Decimal("5.14")
    assert rows[("net_income_parent", 2021)].value > 1_000_000
