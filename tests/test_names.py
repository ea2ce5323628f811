"""Names from the filings: every name form a report prints about its issuer is read from its cover / company
information pages, recorded in the company master with the document and page, shown by `filings companies`,
and a question that names the company that way resolves to it. Expected names were read from the pages."""

from __future__ import annotations

import pytest

from conftest import ingested_home, require_corpus
from filings import Filings
from parsers.pdf_pages import read_pages
from parsers.recognise import recognise_pdf
from router.plan import Planner

DOCS = [
    ("cn", "600080_jinhuagufen_2024_annual.pdf"),  # p5 公司的外文名称 GINWA ENTERPRISE（GROUP）INC., 缩写 GINWA
    ("cn", "600201_shengwugufen_2020_annual.pdf"),  # p5 A股 上海证券交易所 生物股份 600201 金宇集团 (变更前股票简称)
    ("cn", "603259_yaomingkangde_2025_interim.pdf"),  # p7 H股 联交所 藥明康德 02359
    ("hk", "1741_riying_2021_annual.pdf"),  # p1 (Formerly known as "Shing Chi Holdings Limited") 前稱為“成志控股有限公司”
    ("hk", "2324_capitalvc_2021_annual.pdf"),  # p1 首都創投有限公司, carrying on business in Hong Kong as CNI VC Limited
    # p8 CHANGE OF COMPANY NAMES: Chinese name changed from “香港金融投資控股集團有限公司” to “智富資源投資控股集團有限公司”,
    # stock short names from “HK FINANCE INV” to “WISDOM WEALTH” (English and Chinese columns side by side)
    ("hk", "0007_hkfinanceinv_2020_annual-mda-extract.pdf"),
]


def _names(*parts):
    path = require_corpus(*parts)
    info = recognise_pdf(path, read_pages(path, ocr=False))
    return {(n.kind, n.text, n.page) for n in info.names}


def test_a_share_company_information_page():
    names = _names("cn", "600080_jinhuagufen_2024_annual.pdf")
    assert {("name_zh", "金花企业（集团）股份有限公司", 5), ("name_en", "GINWA ENTERPRISE（GROUP）INC.", 5),
            ("abbreviation", "GINWA", 5), ("short_name", "金花股份", 1), ("code", "600080", 1)} <= names


def test_former_short_name_and_h_share_name():
    assert ("former_name", "金宇集团", 5) in _names("cn", "600201_shengwugufen_2020_annual.pdf")
    names = _names("cn", "603259_yaomingkangde_2025_interim.pdf")
    assert {("short_name", "藥明康德", 7), ("code", "02359.HK", 7), ("name_en", "WuXi AppTec Co., Ltd.", 7)} <= names


def test_a_change_of_names_gives_the_former_names():
    names = _names("hk", "0007_hkfinanceinv_2020_annual-mda-extract.pdf")
    assert {("former_name", "香港金融投資控股集團有限公司", 8), ("former_name", "HK FINANCE INV", 8)} <= names
    # a name run together with the other language's column is none ("智富資源投 之中文第二名稱已由「...")
    assert not [n for n in names if "「" in n[1] or "名稱" in n[1]]


def test_hong_kong_former_names_are_former_names_only():
    names = _names("hk", "1741_riying_2021_annual.pdf")
    assert {("former_name", "Shing Chi Holdings Limited", 1), ("former_name", "成志控股有限公司", 1)} <= names
    assert not [n for n in names if n[1] == "成志控股有限公司" and n[0] != "former_name"]


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    fx = Filings(ingested_home(tmp_path_factory, "names_home", DOCS), read_only=True)
    yield fx
    fx.close()


def test_names_are_recorded_with_their_source(f):
    rows = f.con.execute(
        "SELECT a.kind, a.page, d.doc_name FROM aliases a JOIN documents d USING (document_id) "
        "WHERE a.company_id = 'jinhua' AND a.alias = 'GINWA ENTERPRISE（GROUP）INC.'").fetchall()
    assert rows == [("name_en", 5, "600080_jinhuagufen_2024_annual")]
    frame = f.companies()
    jinhua = frame[frame.company_id == "jinhua"].iloc[0]
    assert "GINWA ENTERPRISE（GROUP）INC." in jinhua["printed_names"]


@pytest.mark.parametrize("question,company", [
    ("Ginwa Enterprise revenue in 2024", "jinhua"),      # the English name the report prints, not the master's
    ("GINWA net profit 2024", "jinhua"),                  # its printed abbreviation
    ("Ginwa net profit 2024", "jinhua"),                  # ... written as a word: the first word of its name
    ("金花企业2024年营业收入", "jinhua"),                     # the Chinese full name without its legal form
    ("金宇集团2020年营业收入", "jinyu_bio"),                   # a former short name
    ("Shing Chi Holdings revenue 2021", "ri_ying"),        # a former English name
    ("成志控股2021年收入", "ri_ying"),                        # a former Chinese name
    ("首都創投的收益", "capital_vc"),                          # the Chinese name (Traditional)
    ("CNI VC Limited total assets", "capital_vc"),         # the name it carries on business under
    ("香港金融投資控股集團2020年末流動比率", "hk_finance_investment"),  # a former name from a change of names
    # written the other common ways: "&" dropped, "Hong Kong" as HK (master names "S&T Holdings Limited", "Hong Kong
    # Finance Investment Holding Group Limited"); generic words only, but four of them together are its name
    ("ST Holdings gross margin 2020", "st_holdings"), ("S and T Holdings revenue 2020", "st_holdings"),
    ("HK Finance Investment revenue 2020", "hk_finance_investment"),
    ("Hong Kong Finance Investment revenue 2020", "hk_finance_investment"),
    ("HK:2359 revenue", "wuxi_apptec"), ("SEHK:02359 revenue", "wuxi_apptec"), ("2359 HK revenue", "wuxi_apptec"),
    ("SH600080 revenue", "jinhua"), ("600080.SS revenue", "jinhua"),
])
def test_questions_resolve_printed_names(f, question, company):
    assert [c.company_id for c in Planner(f.con).plan(question).companies] == [company]


def test_an_abbreviation_is_not_the_lower_case_word(f):
    assert Planner(f.con).plan("ginwa net profit 2024").companies == []


@pytest.mark.parametrize("question", ["腾讯2024财年的风险因素", "腾讯截至2024年12月31日止年度的风险因素"])
def test_a_chinese_subject_the_warehouse_does_not_hold_is_refused(f, question):
    a = f.ask(question)
    assert a.status == "no_data" and "腾讯" in a.reason and not a.passages


def test_a_name_two_companies_share_identifies_neither(f):
    planner = Planner(f.con)
    assert planner.plan("Holdings Limited revenue").companies == []  # legal-form words only
    assert planner.plan("Hong Kong revenue in 2020").companies == []  # two generic words name no company


def test_legal_form_words_leave_the_short_name():
    from router.entities import short_name

    # Wisdom Education's former Chinese name (6068 annual report 2021, cover): 光正教育國際控股有限公司
    assert short_name("光正教育國際控股有限公司") == "光正教育"
    assert short_name("金花企业（集团）股份有限公司") == "金花企业"
    assert short_name("Wisdom Education International Holdings Company Limited") == "Wisdom Education"
