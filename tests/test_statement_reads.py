"""The statement read record (which statements were found on which pages, which could not be read and why)
and the A-share rows that were printed but not stored before (EPS, total equity), checked against the pages."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from conftest import require_corpus
from mappings.metrics import label_patterns, metric_for_label
from mappings.statement_tables import cas_names, printed_titles
from parsers import cn_statements, hk_statements
from parsers.pdf_pages import read_pages
from parsers.recognise import recognise_pdf
from parsers.statement_reads import ReadLog, warnings_of
from schema.models import DocumentInfo, Page
from warehouse.metrics import document_metric_rows


@pytest.fixture(scope="module")
def sifang():
    path = require_corpus("cn", "603339_sifangkeji_2019_annual.pdf")
    pages = read_pages(path)
    info = recognise_pdf(path, pages)
    return info, cn_statements.read(pages, info)


def test_cn_reads_name_the_statement_pages(sifang):
    _, res = sifang
    got = {(r.statement, r.consolidated): (r.status, r.page) for r in res.reads}
    # pages read: 59 "合并资产负债表", 63 合并利润表, 67 合并现金流量表 (titles at the top of those pages)
    assert got[("balance", True)] == ("read", 59)
    assert got[("income", True)][0] == "read" and got[("cashflow", True)][0] == "read"
    assert all(r.rows >= 3 for r in res.reads if r.status == "read")


def test_cn_eps_and_total_equity_are_stored(sifang):
    info, res = sifang
    rows = {(r.metric_name, r.fiscal_year): r.value for r in document_metric_rows(info, res.facts) if r.fiscal_period == "FY"}
    # p65: （一）基本每股收益(元/股) 0.62 0.88; （二）稀释每股收益(元/股) 0.61 0.86
    assert rows[("eps_basic", 2019)] == Decimal("0.62") and rows[("eps_diluted", 2019)] == Decimal("0.61")
    assert rows[("eps_basic", 2018)] == Decimal("0.88")
    # p61: 所有者权益（或股东权益）合计 1,745,401,890.46 (wrapped over two lines); 负债合计 719,546,813.39;
    # p60: 资产总计 2,464,948,703.85 = liabilities + equity
    assert rows[("total_equity", 2019)] == Decimal("1745401890.46")
    assert rows[("total_assets", 2019)] == rows[("total_liabilities", 2019)] + rows[("total_equity", 2019)]


def test_cn_statement_without_a_period_header_is_not_read():
    info = DocumentInfo(market="A", form="annual", fiscal_year=2024, fiscal_period="FY",
                        period_end=dt.date(2024, 12, 31), currency="CNY")
    text = "\n".join(["合并利润表", "单位：元 币种：人民币", "项目", "一、营业总收入 1,000.00 900.00",
                      "其中：营业收入 1,000.00 900.00", "二、营业总成本 800.00 700.00", "四、净利润 150.00 120.00"])
    res = cn_statements.read([Page(page=7, text=text)], info)
    assert [f for f in res.facts if f.statement == "income"] == []  # the column periods are not printed
    rec = next(r for r in res.reads if r.statement == "income")
    assert rec.status == "unreadable" and rec.page == 7 and "period column header" in rec.reason
    assert "income statement on page 7 not read" in warnings_of(res.reads)[0]


def test_hk_reads_name_the_statement_pages():
    path = require_corpus("hk", "0717_emperorcapital_2021_annual.pdf")
    pages = read_pages(path)
    res = hk_statements.read(pages, recognise_pdf(path, pages))
    got = {(r.statement, r.consolidated): (r.status, r.pages) for r in res.reads}
    # p72 consolidated statement of profit or loss; p73-74 financial position; p76-77 cash flows
    assert got[("income", True)] == ("read", [72])
    assert got[("balance", True)] == ("read", [73, 74])
    assert got[("cashflow", True)] == ("read", [76, 77])


def test_read_log_keeps_a_read_over_a_failed_try_and_reports_ocr():
    log = ReadLog(pages_ocr={5})
    log.attempt("income", True, [5], 0, "")
    assert log.records()[0].status == "unreadable" and log.records()[0].reason.startswith("OCR text")
    log.attempt("income", True, [9], 12)
    log.attempt("income", True, [11], 0, "no rows")
    rec = [r for r in log.records() if r.statement == "income"][0]
    assert (rec.status, rec.page, rec.rows) == ("read", 9, 12)
    assert {r.statement for r in log.records() if r.status == "not_found"} == {"balance", "cashflow"}


def test_titles_are_stated_once():
    # the A-share table names and the HK titles come from mappings/statements.yaml `printed`
    assert cas_names() == {"利润表": "income", "资产负债表": "balance", "现金流量表": "cashflow"}
    titles = printed_titles()
    assert titles["consolidatedstatementoffinancialposition"] == ("balance", True)
    assert titles["statementoffinancialpositionofthecompany"] == ("balance", False)
    assert titles["財務概要"] == ("key_figures", True)


def test_a_share_brackets_are_layout():
    assert metric_for_label("A", "income", "（一）基本每股收益(元/股)") == metric_for_label("A", "income", "基本每股收益元/股")
    assert metric_for_label("A", "balance", "所有者权益（或股东权益）合计")[0] == "total_equity"
    assert label_patterns("A") == {}
