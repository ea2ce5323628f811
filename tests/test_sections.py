"""find_sections: 10-K / 10-Q Items (iXBRL and PDF), A-share 第X节, HK sections, pointer detection."""

from __future__ import annotations

import json
from functools import lru_cache

import pytest
from conftest import require_corpus

from parsers.html_pages import html_pages
from parsers.pdf_pages import read_pages
from parsers.sections import find_sections, section_text
from schema.models import DocumentInfo, Page

US_INFO = DocumentInfo(market="US", form="10-K")


@lru_cache(maxsize=None)
def _pdf(path: str) -> tuple[Page, ...]:
    return tuple(read_pages(path, ocr=False))


@lru_cache(maxsize=None)
def _html(path: str) -> tuple[Page, ...]:
    return tuple(html_pages(path))


def _by(spans):
    out = {}
    for s in spans:
        out.setdefault(s.section, s)
    return out


def _pages(texts: list[str]) -> list[Page]:
    return [Page(page=i + 1, text=t) for i, t in enumerate(texts)]


# ------------------------------------------------------------------------------------ synthetic

FILLER = "The Company faces risks described below in detail. " * 40


def test_toc_lines_are_not_section_starts():
    pages = _pages([
        "FORM 10-K\nTABLE OF CONTENTS\nItem 1. Business 3\nItem 1A. Risk Factors 5\nItem 7. Management's Discussion "
        "and Analysis of Financial Condition and Results of Operations 20\nItem 8. Financial Statements 30",
        "Item 1. Business\n" + FILLER,
        "Item 1A. Risk Factors\n" + FILLER + "\n" + FILLER,
        "Item 1B. Unresolved Staff Comments\nNone.\nItem 7. Management's Discussion and Analysis of Financial "
        "Condition and Results of Operations\n" + FILLER,
        "Item 8. Financial Statements and Supplementary Data\n" + FILLER,
    ])
    by = _by(find_sections(pages, US_INFO))
    assert by["business"].page_start == 2
    rf = by["risk_factors"]
    assert (rf.page_start, rf.char_start, rf.page_end) == (3, 0, 3)
    # stops at the next item heading (1B), never runs into Item 7
    assert by["mdna"].page_start == 4 and by["mdna"].char_start > 0
    assert "Unresolved" not in section_text(pages, by["mdna"])
    assert "Management" not in section_text(pages, rf)


def test_cross_reference_line_is_not_a_heading():
    pages = _pages([
        "Item 1A. Risk Factors\n" + FILLER,
        "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations\n"
        + FILLER + '\nItem 1A, "Risk Factors" of this Form 10-K describes\n' + FILLER,
        "Item 8. Financial Statements and Supplementary Data\n" + FILLER,
    ])
    by = _by(find_sections(pages, US_INFO))
    assert by["risk_factors"].page_start == 1
    assert by["mdna"].page_start == 2 and by["mdna"].page_end == 2


@pytest.mark.parametrize("body", [
    "The information required by this item is incorporated herein by reference to the section entitled "
    "\"Financial Review\" in our 2024 Annual Report to Shareholders.",
    "Refer to pages 6 through 42 of IBM's 2024 Annual Report to Stockholders, which are incorporated herein by "
    "reference.",
    "See \"Risk Factors\" in the Annual Report.",
])
def test_pointer_sections(body: str):
    pages = _pages([
        "Item 1A. Risk Factors\n" + FILLER,
        "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations\n" + body
        + "\nItem 7A. Quantitative and Qualitative Disclosures About Market Risk\n" + FILLER,
    ])
    by = _by(find_sections(pages, US_INFO))
    assert by["mdna"].pointer and by["mdna"].confidence <= 0.3
    assert not by["risk_factors"].pointer and by["risk_factors"].confidence > by["mdna"].confidence


def test_chinese_pointer_and_toc():
    pages = _pages([
        "目录\n第一节 释义 3\n第三节 管理层讨论与分析 8\n第四节 公司治理 30",
        "第一节 释义\n" + "本公司 指 某某股份有限公司\n" * 5,
        "第三节 管理层讨论与分析\n" + "报告期内公司实现营业收入增长，主营业务稳定发展。" * 60
        + "\n（四）可能面对的风险\n1、政策风险\n" + "医药行业政策变化可能影响公司经营。" * 30
        + "\n（五）其他\n无",
        "第四节 公司治理\n详见本报告第三节。",
    ])
    by = _by(find_sections(pages, DocumentInfo(market="A", form="annual")))
    assert by["mdna"].page_start == 3 and by["mdna"].page_end == 3
    rf = by["risk_factors"]
    assert rf.title == "（四）可能面对的风险" and "其他" not in section_text(pages, rf)
    assert by["governance"].pointer


# ------------------------------------------------------------------------------------ US iXBRL

IXBRL_10K = {
    "aapl-10k-fy2024/aapl-20240928.htm": False,
    "hd-10k-fy2024/hd-20250202.htm": False,
    "nvda-10k-fy2024/nvda-20240128.htm": False,
    "nvda-10k-fy2025/nvda-20250126.htm": False,
    "wmt-10k-fy2025/wmt-20250131.htm": False,
    "ibm-10k-fy2024/ibm-20241231.htm": True,  # MD&A / statements in Exhibit 13 (not here)
    "wfc-10k-fy2024/wfc-20241231.htm": True,
}


@pytest.mark.parametrize("rel", sorted(IXBRL_10K))
def test_ixbrl_10k_items(rel: str):
    pages = list(_html(str(require_corpus("us", "ixbrl", *rel.split("/")))))
    by = _by(find_sections(pages, US_INFO))
    mdna, fs = by["mdna"], by["financial_statements"]
    if IXBRL_10K[rel]:
        assert mdna.pointer and mdna.confidence <= 0.3
        assert mdna.page_end - mdna.page_start <= 1
    else:
        assert not mdna.pointer and mdna.confidence >= 0.9
        assert mdna.page_end - mdna.page_start + 1 >= 5 and int(mdna.attrs["words"]) >= 2000
    rf = by["risk_factors"]
    if rel.startswith("wfc"):
        assert rf.pointer  # "can be found in the 2024 Annual Report ... incorporated into this item by reference"
    else:
        assert not rf.pointer and rf.page_end - rf.page_start + 1 >= 5 and int(rf.attrs["words"]) >= 5000
    assert "item 1a. risk factors" not in section_text(pages, mdna).lower().split("\n")  # no heading inside
    for s in by.values():
        if not s.pointer:
            assert 0 < s.confidence <= 1


def test_aapl_10k_spot_checks():
    pages = list(_html(str(require_corpus("us", "ixbrl", "aapl-10k-fy2024", "aapl-20240928.htm"))))
    by = _by(find_sections(pages, US_INFO))
    rf = by["risk_factors"]
    assert (rf.page_start, rf.title) == (7, "Item 1A. Risk Factors")  # printed page 5
    text = section_text(pages, rf)
    assert "results of operations, financial condition and stock price can be affected by a number of factors" in text
    assert by["mdna"].page_start == 23  # printed page 21 (TOC: "Item 7 ... 21")
    assert by["financial_statements"].page_start == 30  # printed 28
    assert "Total net sales 391,035 383,285 394,328" in section_text(pages, by["financial_statements"])
    assert "Total net sales" not in section_text(pages, rf)


def test_10q_parts():
    pages = list(_html(str(require_corpus("us", "ixbrl", "aapl-10q-fy2025q2", "aapl-20250329.htm"))))
    spans = find_sections(pages, DocumentInfo(market="US", form="10-Q"))
    items = {s.attrs.get("item"): s for s in spans}
    assert items["I-2"].section == "mdna" and int(items["I-2"].attrs["words"]) >= 2000
    assert items["II-1A"].section == "risk_factors" and items["II-1"].section == "legal"
    assert items["I-1"].section == "financial_statements"
    assert items["I-2"].page_start < items["II-1A"].page_start


# ------------------------------------------------------------------------------------ FinanceBench PDFs

# a representative subset here; bench/sections_report.py covers all 52 10-Ks
FB_10K = {
    # doc_name: (risk factors start page, MD&A start page) looked up in the PDFs (1-based physical)
    "AMAZON_2019_10K": (6, 19),
    "3M_2018_10K": (10, 15),
    "ADOBE_2022_10K": (20, 36),
    "BOEING_2022_10K": (8, 22),
    "COCACOLA_2017_10K": (12, 30),
    "CORNING_2021_10K": (14, 24),
    "JOHNSON_JOHNSON_2022_10K": (14, 27),
    "MICROSOFT_2023_10K": (23, 40),
    "NETFLIX_2017_10K": (5, 21),
    "PEPSICO_2022_10K": (13, 31),
    "VERIZON_2022_10K": (14, 21),
    "CVSHEALTH_2018_10K": (30, None),  # Item 7 points to the Annual Report (Exhibit 13)
}


def _fb(name: str) -> list[Page]:
    root = require_corpus("us", "financebench")
    docs = {json.loads(x)["doc_name"]: json.loads(x) for x in (root / "documents.jsonl").read_text().splitlines()}
    return list(_pdf(str(root / docs[name]["path"])))


@pytest.mark.parametrize("name", sorted(FB_10K))
def test_financebench_10k(name: str):
    pages = _fb(name)
    by = _by(find_sections(pages, US_INFO))
    rf_page, mdna_page = FB_10K[name]
    rf = by["risk_factors"]
    assert rf.page_start == rf_page and not rf.pointer and rf.confidence >= 0.9
    assert rf.page_end - rf.page_start + 1 >= 3 and int(rf.attrs["words"]) >= 1500
    mdna = by["mdna"]
    if mdna_page is None:
        assert mdna.pointer and int(mdna.attrs["words"]) < 250 and "reference" in mdna.attrs["pointer_text"]
    else:
        assert mdna.page_start == mdna_page and not mdna.pointer
        assert int(mdna.attrs["words"]) >= 4000
    assert not any(x.lower().startswith("item 7. management") for x in section_text(pages, rf).split("\n"))


def test_jpmorgan_10q_inferred_from_toc():
    pages = _fb("JPMORGAN_2022Q2_10Q")
    by = _by(find_sections(pages, DocumentInfo(market="US", form="10-Q")))
    # no Item headings in the body: MD&A at printed page 3, statements at 88 (TOC), low confidence
    assert by["mdna"].page_start == 3 and by["mdna"].attrs.get("inferred") == "toc" and by["mdna"].confidence <= 0.5
    assert by["financial_statements"].page_start == 88


# ------------------------------------------------------------------------------------ A-share / HK


def test_jinhua_2024_annual():
    path = require_corpus("cn", "600080_jinhuagufen_2024_annual.pdf")
    pages = list(_pdf(str(path)))
    by = _by(find_sections(pages, DocumentInfo(market="A", form="annual")))
    mdna = by["mdna"]
    assert (mdna.page_start, mdna.title) == (9, "第三节 管理层讨论与分析")  # 目录 on page 2-3 skipped
    assert mdna.confidence >= 0.9 and mdna.page_end >= 30
    rf = by["risk_factors"]
    assert rf.page_start == 34 and rf.title == "(四)可能面对的风险"
    assert "医药行业政策风险" in section_text(pages, rf)
    assert mdna.page_start <= rf.page_start <= rf.page_end <= mdna.page_end
    assert by["governance"].page_start == mdna.page_end
    assert by["financial_statements"].page_start == 75


@pytest.mark.parametrize("name, chairman, mdna", [
    ("1721_fsm_2020_annual.pdf", 5, 7),
    ("1741_riying_2021_annual.pdf", 4, 5),
])
def test_hk_chairman_and_mdna(name: str, chairman: int, mdna: int):
    pages = list(_pdf(str(require_corpus("hk", name))))
    by = _by(find_sections(pages, DocumentInfo(market="HK", form="annual", file_name=name)))
    assert by["chairman_statement"].page_start == chairman
    assert by["mdna"].page_start == mdna and by["mdna"].page_end >= mdna + 3
    assert by["financial_statements"].page_start > by["auditor_report"].page_start


def test_hk_mda_extract_is_all_mdna():
    name = "0007_hkfinanceinv_2020_annual-mda-extract.pdf"
    pages = list(_pdf(str(require_corpus("hk", name))))
    spans = find_sections(pages, DocumentInfo(market="HK", form="mda_extract", file_name=name))
    mdna = _by(spans)["mdna"]
    assert (mdna.page_start, mdna.page_end) == (1, len(pages))
