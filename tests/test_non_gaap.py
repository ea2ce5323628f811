"""Company-defined (non-GAAP) measures: never answered with the reported metric they resemble, and quoted only
from a passage that names the measure itself. Walmart's Q2 fiscal 2025 call (transcripts/WMT_2025_Q2.txt) says
"Adjusted EPS of 67 cents per share" and never "adjusted EBITDA"."""

from __future__ import annotations

import pytest

from conftest import ingested_home
from filings import Filings
from router.measure_names import names_measure


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    home = ingested_home(tmp_path_factory, "non_gaap", [("transcripts", "WMT_2025_Q2.txt")], dense=False)
    fx = Filings(home, read_only=True)
    yield fx
    fx.close()


def test_a_passage_names_the_measure_or_does_not():
    assert names_measure("Adjusted EPS of 67 cents per share was above", "adjusted", "eps_basic")
    assert names_measure("adjusted diluted EPS rose", "adjusted", "eps_basic")
    assert not names_measure("the adjusted recovery amount of €12.7 billion", "adjusted", "operating_income")
    assert not names_measure("Diluted EPS was $2.41 for fiscal 2025", "adjusted", "eps_diluted")
    assert names_measure("经调整净利润为1.2亿元", "经调整", "net_income")


def test_the_measure_is_quoted_where_the_call_names_it(f):
    q = "What was Walmart's adjusted EPS in Q2 fiscal 2025?"
    [(word, metric)] = f.plan(q).non_gaap
    a = f.ask(q)
    assert a.status == "answered" and a.route == "search" and not a.rows
    assert a.passages and all(names_measure(p.text, word, metric) for p in a.passages)
    assert any("67 cents" in p.text for p in a.passages)
    assert any("company-defined" in c for c in a.caveats)


def test_a_year_asked_and_only_a_quarters_call_says_so(f):
    a = f.ask("What was Walmart's adjusted EPS in fiscal 2025?")
    assert a.status == "answered"
    assert any("Q2 2025" in c and "not of the fiscal year asked" in c for c in a.caveats)


def test_a_measure_no_passage_names_is_no_data(f):
    a = f.ask("What was Walmart's adjusted EBITDA in Q2 fiscal 2025?")
    assert a.status == "no_data" and not a.passages
    assert "names the measure asked for" in a.reason
