"""A consolidated statement's line item that is no metric of the vocabulary is answered from the row stored when the
statement was read (router/statement_items.py): the asked period's column, the group's statement (never the parent
company's), its page and printed line. Rows as printed in 金花股份 (600080):

- 2024 annual report p78 (合并资产负债表): "在建工程 七、22 373,690,707.39 110,831,458.60" (2024-12-31, 2023-12-31);
  p79: "长期待摊费用 七、28 7,391,009.19 10,467,090.14"; the parent's balance sheet p81: "长期待摊费用 7,186,389.85 ...";
- p83 (合并利润表): "投资收益（损失以“－”号填列） 七、68 35,738,930.90 -16,666,387.86"; the parent's p84: 21,152,445.05;
- 2025 interim report p32: "在建工程 七、22 456,944,815.72 373,690,707.39" (2025-06-30, 2024-12-31)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from conftest import ingested_home
from filings import Filings
from router.statement_items import item_key


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    home = ingested_home(tmp_path_factory, "statement_items", [("cn", "600080_jinhuagufen_2024_annual.pdf"),
                                                               ("cn", "600080_jinhuagufen_2025_interim.pdf")])
    with Filings(home, read_only=True) as fx:
        yield fx


def _rows(a):
    return [(r.metric, r.period_end.isoformat(), Decimal(r.value), r.source["page"]) for r in a.rows]


def test_a_balance_at_a_half_year_end(f):
    a = f.ask("金花股份2025年6月末在建工程")
    assert a.status == "answered"
    assert _rows(a) == [("在建工程", "2025-06-30", Decimal("456944815.72"), 32)]
    assert a.passages[0].text.startswith("在建工程") and "456,944,815.72" in a.passages[0].text
    assert a.rows[0].currency == "CNY" and a.rows[0].accounting_standard == "CAS"


def test_two_dates_each_from_the_report_that_prints_it(f):
    a = f.ask("金花股份2023年末和2025年6月末的在建工程")
    assert _rows(a) == [("在建工程", "2023-12-31", Decimal("110831458.60"), 78),
                        ("在建工程", "2025-06-30", Decimal("456944815.72"), 32)]


def test_the_groups_row_not_the_parent_companys(f):
    a = f.ask("金花股份2024年末长期待摊费用")
    assert _rows(a) == [("长期待摊费用", "2024-12-31", Decimal("7391009.19"), 79)]
    b = f.ask("金花股份2024年投资收益是多少")
    assert [(r[2], r[3]) for r in _rows(b)] == [(Decimal("35738930.90"), 83)]


def test_a_period_no_statement_prints_is_not_answered_from_another(f):
    a = f.ask("金花股份2021年末在建工程")
    assert all(r.period_end.year == 2021 for r in a.rows)  # no row of another year in its place
    assert a.status == "no_data" or not a.rows


@pytest.mark.parametrize("printed, asked, same", [
    ("Intangible assets, net", "intangible assets", True),
    ("Total deposits", "deposits", True),
    ("在建工程", "在建工程", True),
    ("投资收益（损失以“－”号填列）", "投资收益", True),
    ("Other income, gains and losses", "other income", False),
    ("Construction in progress", "construction", False),
])
def test_which_printed_labels_are_the_item(printed, asked, same):
    assert (item_key(printed) == item_key(asked)) is same


@pytest.fixture(scope="module")
def bby(tmp_path_factory):
    home = ingested_home(tmp_path_factory, "statement_items_us", [("us", "financebench", "pdfs", "BESTBUY_2019_10K.pdf"),
                                                                  ("us", "financebench", "pdfs", "JPMORGAN_2021Q1_10Q.pdf"),
                                                                  ("us", "financebench", "pdfs", "WALMART_2018_10K.pdf"),
                                                                  ("hk", "1741_riying_2021_annual.pdf")])
    with Filings(home, read_only=True) as fx:
        yield fx


def test_a_qualified_item_a_statement_prints(bby):
    # BESTBUY_2019_10K p52, the consolidated balance sheet: "Merchandise inventories 5,409 5,209" ($ in millions,
    # February 2, 2019 and February 3, 2018): the row, not the search route's passages
    a = bby.ask("Best Buy merchandise inventories fiscal 2019")
    assert a.status == "answered"
    assert [(r.metric, r.period_end.isoformat(), Decimal(r.value), r.source["page"]) for r in a.rows] == [
        ("Merchandise inventories", "2019-02-02", Decimal("5409000000"), 52)]


def test_a_balance_asked_is_never_a_cash_flow_row(bby):
    # JPMORGAN_2021Q1_10Q p83, the cash flow statement: "Deposits 120,501 297,976" is the quarter's change in
    # deposits, not the deposits held at March 31, 2021 (the balance sheet's $2,278,112 million)
    a = bby.ask("JPMorgan total deposits as of March 31, 2021")
    assert all(Decimal(r.value) != Decimal("120501000000") for r in a.rows)
    assert all("120,501" not in p.text for p in a.passages[:1])


def test_the_label_asked_before_its_looser_readings(bby):
    # WALMART_2018_10K p59 prints both "Property under capital lease and financing obligations 12,703 11,637" and
    # "Property under capital lease and financing obligations, net 7,143 6,468" ($ millions, January 31, 2018 / 2017)
    net = bby.ask("Walmart property under capital lease and financing obligations, net fiscal 2018")
    assert [Decimal(r.value) for r in net.rows] == [Decimal("7143000000")]
    gross = bby.ask("Walmart property under capital lease and financing obligations fiscal 2018")
    assert [Decimal(r.value) for r in gross.rows] == [Decimal("12703000000")]


def test_a_label_printed_twice_for_a_period_gives_no_row(bby):
    # 1741_riying_2021_annual's balance sheet prints "Lease liabilities" under current and under non-current
    # liabilities (p68-69, HK$'000 193 and 3,838 at 30 September 2021): neither part is the item
    a = bby.ask("Ri Ying lease liabilities 2021")
    assert not a.rows


def test_other_receivables_are_never_the_receivables(f):
    """600080_jinhuagufen_2024_annual p78 prints "其他应收款 七、9 214,534,510.17 7,126,818.05" beside 应收账款: the
    other receivables are their own row, never answered as accounts receivable."""
    plan = f.plan("金花股份2024年末其他应收款")
    assert "accounts_receivable" not in plan.metrics
    a = f.ask("金花股份2024年末其他应收款")
    assert a.status == "answered" and ("其他应收款", "2024-12-31", Decimal("214534510.17"), 78) in _rows(a)


@pytest.fixture(scope="module")
def hk(tmp_path_factory):
    home = ingested_home(tmp_path_factory, "statement_items_hk", [("hk", "0717_emperorcapital_2021_annual.pdf")])
    with Filings(home, read_only=True) as fx:
        yield fx


@pytest.mark.parametrize("question, label, value", [
    # 0717_emperorcapital_2021_annual p73 (HK$'000): "Tax recoverable 可回收稅項 1,386 21,613" on one line;
    # "Other debtors, deposits and prepayments 9,107 6,933" with "其他應收賬款、按金及預付款項" on the line under it
    ("英皇證券2021年9月30日的可回收稅項是多少？", "Tax recoverable", Decimal("1386000")),
    ("英皇證券於2021年9月30日的其他應收賬款、按金及預付款項", "Other debtors, deposits and prepayments", Decimal("9107000")),
])
def test_a_chinese_label_asked_finds_the_english_row_printed_beside_it(hk, question, label, value):
    a = hk.ask(question)
    assert a.status == "answered" and a.rows and a.rows[0].metric == label
    assert Decimal(a.rows[0].value) == value and a.rows[0].source["page"] == 73


def test_finance_expenses_are_never_the_interest_expense_printed_under_them(f):
    """600080_jinhuagufen_2024_annual p82: "财务费用 七、66 1,374,112.93 -1,196,190.91" and under it "其中：利息费用
    4,342,611.86 4,442,360.82": 财务费用 (net of interest income and exchange) is its own row."""
    plan = f.plan("金花股份2024年财务费用是多少")
    assert "interest_expense" not in plan.metrics
    a = f.ask("金花股份2024年财务费用是多少")
    assert ("财务费用", "2024-12-31", Decimal("1374112.93"), 82) in _rows(a)
