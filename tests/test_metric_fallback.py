"""A metric asked for and not stored, answered with its stated stand-in (``router.metric_answer.FALLBACKS``): a
filer that prints one consolidated net income (Ulta Beauty's FY2022 earnings release, cash flow statement p8:
"Net income $ 1,242,408" in thousands, 52 weeks ended January 28, 2023) has no separate parent's share."""

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


def test_net_income_asked_is_answered_with_the_consolidated_figure_and_says_so(f):
    a = f.ask("Ulta Beauty net income for the year ended January 28, 2023")
    assert a.status == "answered" and a.route == "sql"
    rows = [(r.metric, Decimal(r.value), r.source["page"]) for r in a.rows]
    assert rows == [("net_income", Decimal("1242408000"), 8)]
    assert any("net_income_parent" in c and "net_income shown instead" in c for c in a.caveats)


def test_a_fiscal_year_the_company_names_is_searched_both_ways(f):
    # the release's fourth quarter of "fiscal 2022" ended January 28, 2023: stored under fiscal_year 2023
    from router.search import filters_for

    plan = f.plan("Ulta Beauty net sales in the fourth quarter of fiscal 2022")
    assert [(p.fiscal_year, p.stored_year) for p in plan.periods] == [(2022, 2023)]
    assert filters_for(plan)["fiscal_year"] == [2022, 2023]  # the company's naming and the year it ends in
    calendar = f.plan("Ulta Beauty net sales in the fourth quarter of 2022")  # a calendar year: by period end
    assert [p.stored_year for p in calendar.periods] == [None]
    # no stored net sales: the release's own printed figure answers, from the asked period's report
    a = f.ask("Ulta Beauty net sales in the fourth quarter of fiscal 2022")
    assert a.status == "answered" and a.route == "mixed"
    assert {p.source["doc_name"] for p in a.passages} == {"ULTABEAUTY_2023Q4_EARNINGS"}
