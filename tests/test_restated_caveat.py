"""A figure a later report restates is shown as last reported and the caveat says so. Amazon's 2019 10-K restates
2017 operating cash flow ("restated cash provided by operating activities by ... $(69) million ... in 2017",
selected data p18: 18,365); its 2017 10-K printed 18,434 (p18, p30)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from conftest import ingested_home
from filings import Filings


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    pdfs = ("us", "financebench", "pdfs")
    home = ingested_home(tmp_path_factory, "restated_home", [(*pdfs, "AMAZON_2017_10K.pdf"), (*pdfs, "AMAZON_2019_10K.pdf")])
    fx = Filings(home, read_only=True)
    yield fx
    fx.close()


def test_a_restated_figure_says_it_is_the_later_reports(f):
    a = f.ask("Amazon operating cash flow in 2017")
    assert a.status == "answered"
    (row,) = [r for r in a.rows if r.metric == "operating_cash_flow" and r.fiscal_year == 2017]
    assert Decimal(row.value) == Decimal("18365000000") and row.source["doc_name"] == "AMAZON_2019_10K"
    assert any("restated by a later report: FY2017" in c for c in a.caveats)
    assert not any("the period's own report is used" in c for c in a.caveats)
