"""Primary statements: which page is one (title lines, checked against pages read in the corpus and against the
statements the A-share / HK parsers found facts in), and which statements a question points at."""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import require_corpus
from mappings.statements import metric_statements, statements_named, title_statement
from parsers import parse
from parsers.pdf_pages import read_pages
from router.search import forms_named, widenings


@pytest.mark.parametrize("text,expected", [
    ("Table of Contents\nCONSOLIDATED BALANCE SHEETS\nDecember 31 (Millions) 2022 2021\nAssets\nCash 5,510 1,292", "balance"),
    ("3M Company and Subsidiaries\nConsolidated Balance Shee t\nAt December 31\n2018 2017", "balance"),
    ("Consolidated Statements of Operations\n(In millions) 2015 2014\nNet revenue $ 3,991 $ 5,506", "income"),
    ("CONSOLIDATED STATEMENT OF PROFIT OR LOSS AND OTHER COMPREHENSIVE INCOME\nFor the year ended 31 December 2021", "income"),
    ("CONSOLIDATED STATEMENTS OF CASH FLOWS (In thousands)\nYear Ended December 31, 2020 2019", "cashflow"),
    ("合并资产负债表\n2025年9月30日\n编制单位：金花企业（集团）股份有限公司", "balance"),
    ("綜合損益及其他全面收益表\n截至二零二一年十二月三十一日止年度", "income"),
    ("CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY\n(In millions) Common stock Retained earnings", "equity"),
    ("CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME\nNet income $ 7,514", None),  # not where revenue is
    # a contents page names every statement: it is none of them
    ("INDEX TO CONSOLIDATED FINANCIAL STATEMENTS\nConsolidated Statements of Income 93\nConsolidated Balance Sheets 95\n"
     "Consolidated Statements of Cash Flows 96", None),
    # a note that mentions a statement in a sentence is not headed by it
    ("Note 3. Restructuring\nThe charges are recorded in the consolidated statements of income under selling, general "
     "and administrative expenses for the periods presented below and in the segment results", None),
])
def test_title_statement(text, expected):
    assert title_statement(text) == expected


def test_american_express_statement_pages():
    # AMERICANEXPRESS_2022_10K, pages read: 95 is the index of the statements, 96 the statements of income,
    # 97 comprehensive income, 98 the balance sheets, 99 the statements of cash flows
    pages = {p.page: p.text for p in read_pages(require_corpus("us", "financebench", "pdfs", "AMERICANEXPRESS_2022_10K.pdf"))}
    assert [title_statement(pages[n]) for n in (95, 96, 97, 98, 99)] == [None, "income", None, "balance", "cashflow"]


def test_titles_agree_with_the_statements_facts_come_from():
    # two independent readings of one page: the statement parser's (which statement its facts are in) and the title
    agree = disagree = 0
    for parts in [("cn", "600080_jinhuagufen_2024_annual.pdf"), ("cn", "000999_huarunsanjiu_2024_q3.pdf"),
                  ("hk", "1161_wateroasis_2021_annual.pdf")]:
        path = require_corpus(*parts)
        parsed = parse(path)
        votes: dict[int, Counter] = {}
        for f in parsed.facts:
            if f.page and f.statement in ("income", "balance", "cashflow"):
                votes.setdefault(f.page, Counter())[f.statement] += 1
        text = {p.page: p.text for p in parsed.pages}
        for page, c in votes.items():
            titled = title_statement(text[page])
            if titled is None:
                continue  # a statement's second page repeats no title
            if titled == c.most_common(1)[0][0]:
                agree += 1
            elif titled not in c:
                disagree += 1
    assert agree >= 6 and disagree == 0, (agree, disagree)


def test_metric_statements_come_from_the_label_files():
    by_metric = metric_statements()
    assert by_metric["total_assets"] == {"balance"}
    assert by_metric["revenue"] == {"income"}
    assert "cashflow" in by_metric["operating_cash_flow"]
    assert by_metric["roa"] == {"income", "balance"}  # a ratio: the statements of its formula's metrics


@pytest.mark.parametrize("question,metrics,expected", [
    ("What is Walmart's quick ratio at the end of fiscal 2025?", [], ["balance"]),
    ("From the income statement and the cash flow statement, compute EBITDA", [], ["income", "cashflow"]),
    ("What is Apple's gross margin?", ["gross_margin"], ["income"]),
    ("How much free cash flow did Nvidia generate?", [], ["cashflow"]),
    ("How many days payable outstanding does Home Depot carry?", [], ["balance"]),
    ("金花股份资产负债表中的存货", [], ["balance"]),
    ("What risks does Apple describe about its supply chain?", [], []),
])
def test_statements_named(question, metrics, expected):
    assert statements_named(question, metrics) == expected


def test_forms_named():
    assert forms_named("Which acquisitions does Nvidia's 10K report describe?") == [
        "10-K", "20-F", "annual", "summary"]
    assert forms_named("金花股份2024年半年报的风险") == ["interim", "interim_summary"]
    assert forms_named("What margin did the earnings release report?") == ["earnings_release"]
    assert forms_named("What drove revenue growth?") == []


def test_widenings_try_neighbouring_years_then_any():
    steps = widenings({"company_id": ["boeing"], "fiscal_year": [2023], "report_type": ["10-K"], "section": ["mdna"]})
    assert [s.get("fiscal_year") for s in steps] == [[2023, 2024], [2022, 2023, 2024, 2025], None, None, None]
    assert "report_type" not in steps[3] and "section" in steps[3]
    assert steps[-1] == {"company_id": ["boeing"]}
    # an answer about a year comes from that year's report or the next one's comparatives, never any year
    steps = widenings({"company_id": ["apple"], "fiscal_year": [2026]}, any_year=False)
    assert steps == [{"company_id": ["apple"], "fiscal_year": [2026, 2027]}]


def test_widenings_leave_a_quarter_for_its_years_other_reports_before_other_years():
    asked = {"company_id": ["pfizer"], "fiscal_year": [2023], "fiscal_period": ["H1", "Q2"]}
    steps = widenings(asked)
    assert steps[0] == dict(asked, fiscal_year=[2023, 2024])
    assert steps[1] == {"company_id": ["pfizer"], "fiscal_year": [2023, 2024]}  # the year's 10-K next
    assert all("fiscal_period" not in s for s in steps[1:])
    assert widenings(asked, any_year=False) == steps[:2]
