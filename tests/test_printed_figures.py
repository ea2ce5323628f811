"""The printed-figure fallback: a metric question without a stored row may be answered only by a filing's page
that prints the metric's label and a number; what a company says on an earnings call is no such figure."""

from __future__ import annotations

import pytest

from conftest import require_corpus
from filings import Filings


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    home = tmp_path_factory.mktemp("printed_figures")
    with Filings(home) as f:  # the call only: Coca-Cola has no filing in the corpus, so no stored revenue
        assert not f.ingest(require_corpus("transcripts", "KO_2021_Q4.json"), dense=False).failed
    return home


def test_a_call_is_not_a_printed_figure(home):
    with Filings(home, read_only=True) as f:
        # the call does print "revenue" with a number right after it (its growth rate)
        text = " ".join(r[0] for r in f.con.execute("SELECT text FROM pages").fetchall()).lower()
        assert "revenue growth was 9%" in text
        answer = f.ask("What was Coca-Cola's revenue in 2021?")
    assert answer.plan["metrics"] == ["revenue"]
    assert answer.status == "no_data", answer.answer
    assert not answer.passages
