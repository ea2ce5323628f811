"""Metric names as the statements print them, overlapping names, printed figures that are amounts, and measures a
company defines its own way. Expected values are typed from the pages named next to them."""

from __future__ import annotations

from decimal import Decimal

import pytest

from conftest import ingested_home, require_corpus
from filings import Filings
from mappings.metrics import question_labels
from router.fallback import figure_span, labels_of
from router.plan import find_metrics

DOCS = [("hk", "0328_alco_2025_annual-results.pdf"), ("hk", "8169_ecotek_2021_annual-mda-extract.pdf"),
        ("us", "financebench", "pdfs", "AMAZON_2019_10K.pdf")]


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    fx = Filings(ingested_home(tmp_path_factory, "labels_home", DOCS, dense=False), read_only=True)
    yield fx
    fx.close()


def _value(answer, metric):
    values = [Decimal(r.value) for r in answer.rows if r.metric == metric]
    assert values, (answer.status, answer.plan, answer.reason)
    return values[0]


def test_statement_labels_name_their_metric_in_a_question():
    # every label a question may use resolves to the metric its statements map it to (or to a longer alias's)
    wrong = {label: (mid, find_metrics(label)) for label, mid in question_labels().items()
             if find_metrics(label)[:1] != [mid]}
    assert not wrong, wrong


@pytest.mark.parametrize("question", [
    "ALCO Holdings loss per share for the year ended 31 March 2025",
    "侨威集团2025财年每股亏损",
    "僑威集團截至2025年3月31日止年度每股虧損",
])
def test_loss_per_share_is_eps(f, question):
    # 0328 p3: 每股（虧損）╱盈利 來自持續及已終止經營業務 －基本（港元） (0.63)
    assert _value(f.ask(question), "eps_basic") == Decimal("-0.63")


def test_bank_balances_and_cash_is_cash(f):
    # 0328 p5: 銀行結餘及現金 10,056 (千港元) at 31 March 2025
    assert _value(f.ask("ALCO bank balances and cash as at 31 March 2025"), "cash_and_equivalents") == 10_056_000


def test_period_words_do_not_make_a_metric_name_longer(f):
    # "gross profit for the year" names gross profit (0328 p2: 毛利 5,121 千港元), not "profit for the year"
    answer = f.ask("ALCO gross profit for the year ended 31 March 2025")
    assert answer.plan["metrics"] == ["gross_profit"]
    assert _value(answer, "gross_profit") == 5_121_000


def test_a_number_after_a_label_is_its_figure_only_when_it_reads_as_one():
    eco = require_corpus("hk", "8169_ecotek_2021_annual-mda-extract.pdf")
    from parsers.pdf_pages import read_pages

    pages = {p.page: p.text for p in read_pages(eco)}
    revenue = labels_of("revenue")
    # p2: "the Group's inventory turnover was about 62 days ... accounts receivable turnover was about 66 days":
    # turnover days are no revenue
    assert "receivable turnover was about 66" in " ".join(pages[2].split())
    assert figure_span(pages[2], revenue, "money") is None
    # p1: the segments' revenues and the Group's; the Group's is printed closest to its label, and "31 October" is a date
    span = figure_span(pages[1], revenue, "money")
    assert span and pages[1][span[0]:span[1]].endswith("HK$118,520,000")


def test_a_threshold_is_no_amount():
    text = "banks with total assets of $10 billion or more are subject to"
    assert figure_span(text, labels_of("total_assets"), "money") is None
    assert figure_span("Total assets $ 1,234,567", labels_of("total_assets"), "money") is not None


def test_a_company_defined_measure_quotes_the_filings_own_figure(f):
    answer = f.ask("What was Amazon's free cash flow in 2019?")
    assert answer.status == "answered", answer.reason
    rows = {r.metric: Decimal(r.value) for r in answer.rows}
    stored = dict(f.sql("SELECT metric_name, metric_value FROM financial_metrics WHERE company_id = 'amazon' AND "
                        "fiscal_year = 2019 AND fiscal_period = 'FY' AND metric_name IN ('operating_cash_flow', "
                        "'capex')").values.tolist())
    # computed from the statements: operating cash flow - capex (p29: operating cash flow $ 38,514 million)
    assert stored["operating_cash_flow"] == 38_514_000_000
    assert rows["free_cash_flow"] == stored["operating_cash_flow"] - abs(stored["capex"])
    # p29 prints Amazon's own: "Free cash flow $ 19,400 $ 25,825" (2018, 2019), capex net of proceeds
    own = [p for p in answer.passages if p.source["page"] == 29 and "25,825" in p.text]
    assert own, [(p.source["page"], p.text) for p in answer.passages]
    assert any("defines its own way" in c for c in answer.caveats)


@pytest.mark.parametrize("question, metrics", [
    # net asset value per share is the per-share measure, never an amount of equity (2324 p53 prints HK$1.53)
    ("截至2021年9月30日每股资产净值", ["book_value_per_share"]),
    ("net assets per share", ["book_value_per_share"]),
    ("total equity per share", []),
    ("total gross margin percentage for the March 2025 quarter", ["gross_margin"]),  # Apple's label is the amount
    ("total gross margin for the March 2025 quarter", ["gross_profit"]),
])
def test_an_amount_inside_another_measure_is_not_that_amount(question, metrics):
    assert find_metrics(question) == metrics


def _pages(*parts):
    from parsers.pdf_pages import read_pages

    return {p.page: p.text for p in read_pages(require_corpus(*parts))}


def test_a_change_and_the_earlier_figure_are_not_the_amount():
    revenue = labels_of("revenue")
    # 0618 p2: "The Group's revenue for the Reporting Period decreased by 62.4% to approximately RMB9,085.4 million"
    pku = _pages("hk", "0618_pkuresources_2020_annual-mda-extract.pdf")[2]
    span = figure_span(pku, revenue, "money")
    assert span and " ".join(pku[span[0]:span[1]].split()).endswith("RMB9,085.4 million")
    # 0860 p1: "the revenue of the Group increased by approximately 47.8% year-on-year to approximately HK$528.6"
    # (beyond the label's window) and "sales of jewellery products, watches and other commodities of approximately
    # HK$377.2 million" (one segment): never the segment's figure
    apollo = _pages("hk", "0860_apollofuture_2021_annual-mda-extract.pdf")[1]
    span = figure_span(apollo, revenue, "money")
    assert span is None or "528.6" in apollo[span[0]:span[1]]
    # 3928 p3: "overall revenue decreased by approximately S$45.6 million or approximately 52.4% from approximately
    # S$87.1 million ... to approximately S$41.5 million": never the decrease nor the earlier year's figure
    st = _pages("hk", "3928_sthold_2020_annual-mda-extract.pdf")[3]
    span = figure_span(st, revenue, "money")
    assert span is None or "41.5" in st[span[0]:span[1]]


@pytest.mark.parametrize("question, metrics", [
    # the cost-to-income ratio is its own measure, never revenue (000001 p16 prints 27.66%)
    ("平安銀行2024年成本收入比是多少？", ["cost_income_ratio"]),
    ("平安銀行2024年存贷差是多少？", []),  # a bank's loan-deposit spread (p19): no measure the vocabulary has, nor revenue
])
def test_a_generic_word_inside_another_measure_is_no_reading(question, metrics):
    from mappings.analysis import analysis

    assert find_metrics(question) == metrics and analysis().generic_metric(question) is None
