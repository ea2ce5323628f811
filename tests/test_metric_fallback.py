"""A metric asked for and not stored, answered with its stated stand-in (``router.metric_answer.FALLBACKS``): a
filer that prints one consolidated net income (China Creative Global's 2019 annual report, p70: "Loss and total
comprehensive expense for the year 14 (1,675,984) (145,893)" in RMB'000, no attributable lines) has no separate
parent's share. Then the fiscal years Ulta Beauty names otherwise (its FY2022 fourth-quarter release)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from conftest import ingested_home
from filings import Filings

PDFS = ("us", "financebench", "pdfs")


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    # keywords only: the printed-figure search runs
    home = ingested_home(tmp_path_factory, "fallback_home", [PDFS + ("ULTABEAUTY_2023Q4_EARNINGS.pdf",)], dense=False)
    fx = Filings(home, read_only=True)
    yield fx
    fx.close()


@pytest.fixture(scope="module")
def one_line(tmp_path_factory):
    home = ingested_home(tmp_path_factory, "fallback_one_line", [("hk", "1678_chinacreative_2019_annual.pdf")])
    fx = Filings(home, read_only=True)
    yield fx
    fx.close()


def test_net_income_asked_is_answered_with_the_consolidated_figure_and_says_so(one_line):
    a = one_line.ask("China Creative Global net profit attributable to shareholders in 2019")
    assert a.status == "answered" and a.route == "sql"
    rows = [(r.metric, Decimal(r.value), r.source["page"]) for r in a.rows]
    assert rows == [("net_income", Decimal("-1675984000"), 70)]
    assert any("net_income_parent" in c and "net_income shown instead" in c for c in a.caveats)


def test_a_fiscal_year_the_company_names_is_searched_both_ways(f):
    # the release's fourth quarter of "fiscal 2022" ended January 28, 2023: stored under fiscal_year 2023
    from router.search import filters_for

    plan = f.plan("Ulta Beauty net sales in the fourth quarter of fiscal 2022")
    assert [(p.fiscal_year, p.stored_year) for p in plan.periods] == [(2022, 2023)]
    assert filters_for(plan)["fiscal_year"] == [2022, 2023]  # the company's naming and the year it ends in
    calendar = f.plan("Ulta Beauty net sales in the fourth quarter of 2022")  # a calendar year: by period end
    assert [p.stored_year for p in calendar.periods] == [None]
    # net sales is stored from the release's income statement (p6, 13 weeks ended January 28, 2023: $ 3,226,773
    # thousand)
    a = f.ask("Ulta Beauty net sales in the fourth quarter of fiscal 2022")
    assert a.status == "answered" and a.route == "sql"
    assert [(Decimal(r.value), r.source["page"]) for r in a.rows] == [(Decimal("3226773000"), 6)]


def test_a_metric_not_stored_is_quoted_from_the_asked_periods_report(f):
    # SG&A is no stored metric of a US release: the release's own printed line answers (p1 "Selling, general and
    # administrative expenses $ 762.7" for the quarter), said to be quoted, not stored
    a = f.ask("Ulta Beauty selling, general and administrative expenses in the fourth quarter of fiscal 2022")
    assert a.status == "answered" and a.route == "mixed"
    assert {p.source["doc_name"] for p in a.passages} == {"ULTABEAUTY_2023Q4_EARNINGS"}
    assert any("762.7" in p.text or "762,706" in p.text for p in a.passages)
    assert any("not a stored value" in c for c in a.caveats)


def test_fy_written_short_takes_the_other_reading_and_says_so(f):
    # Ulta names the year ended January 28, 2023 "fiscal 2022"; its fiscal 2023 is not in the warehouse. "FY2023"
    # is used for both: the year ending in 2023 answers (p6, 52 weeks: $ 10,208,580 thousand), with the reason
    a = f.ask("Ulta Beauty net sales in FY2023")
    assert a.status == "answered" and a.route == "sql"
    assert [(Decimal(r.value), r.source["page"]) for r in a.rows] == [(Decimal("10208580000"), 6)]
    assert any("FY2023 as the company names its years is not stored" in c for c in a.caveats)
    # "fiscal 2023" written out is the company's own name: not stored, and the stored years listed by both names
    b = f.ask("Ulta Beauty net sales in fiscal 2023")
    assert b.status == "no_data" and "FY2023 (its fiscal 2022)" in b.reason
