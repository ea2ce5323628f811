"""A year asked without a company is the year as each company names it.

Home Depot's fiscal years end in late January or early February: its call HD_2021_Q4 opens "Welcome to Home
Depot's fourth quarter and fiscal year 2021 earnings call" and covers the quarter ended 2022-01-30, so it is stored
with fiscal_year 2022 (the year the fiscal year ends; DESIGN.md section 3), and its 10-K for the year ended
2025-02-02 tags dei:DocumentFiscalYearFocus 2024 (Home Depot's own name is the year before). Coca-Cola's fiscal
year is the calendar year (KO_2021_Q4: fiscal_year 2021). A question about "2021 earnings calls" that names no
company is about both calls."""

from __future__ import annotations

import pytest

from conftest import require_corpus
from filings import Filings

DOCS = [("transcripts", "HD_2021_Q4.json"), ("transcripts", "KO_2021_Q4.json"), ("us", "ixbrl", "hd-10k-fy2024")]


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    home = tmp_path_factory.mktemp("fiscal_names")
    with Filings(home) as w:
        report = w.ingest(*[require_corpus(*d) for d in DOCS], dense=False)  # keywords are enough here
        assert not report.failed, [r.reason for r in report.failed]
    fx = Filings(home, read_only=True)
    yield fx
    fx.close()


def test_home_depot_names_its_years_one_before_they_end(f):
    stored = dict(f.con.execute("SELECT doc_name, fiscal_year FROM documents WHERE form = 'transcript'").fetchall())
    assert stored == {"HD_2021_Q4": 2022, "KO_2021_Q4": 2021}
    assert f.searcher.year_name_offsets() == {"home_depot": -1}


def test_a_year_without_a_company_is_each_companys_own_year(f):
    result = f.search("supply chain on 2021 earnings calls", k=20)
    assert result["filters_applied"]["fiscal_year"] == [2021]
    assert {h["doc_name"] for h in result["hits"]} == {"HD_2021_Q4", "KO_2021_Q4"}


def test_a_named_company_keeps_its_calendar(f):
    result = f.search("Home Depot supply chain on its fiscal 2021 earnings call", k=10)
    assert result["filters_applied"]["company_id"] == ["home_depot"]
    assert {h["doc_name"] for h in result["hits"]} == {"HD_2021_Q4"}
