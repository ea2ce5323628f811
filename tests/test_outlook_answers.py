"""What a company expects is answered from where it says so (router/search.py, router/answer.py): the outlook for a
quarter is given on the call of the quarter before, and a quote that announces the outlook is read on to its figure.
Expected text from the call transcript AAPL_2025_Q1 (Apple's fiscal Q1 2025 call, on the March quarter ahead: "We
expect gross margin to be between 46.5% and 47.5%")."""

from __future__ import annotations

import pytest

from conftest import ingested_home
from filings import Filings
from router.search import filters_for


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    home = ingested_home(tmp_path_factory, "outlook_calls", [("transcripts", "AAPL_2025_Q1.txt")], dense=False)
    with Filings(home, read_only=True) as fx:
        yield fx


def test_a_quarters_outlook_is_looked_for_on_the_call_before(f):
    plan = f.plan("What gross margin did Apple guide to for the second quarter of fiscal 2025 on its earnings call?")
    assert "transcript" in plan.sections
    assert set(filters_for(plan)["fiscal_period"]) == {"Q1", "Q2"}
    plan = f.plan("What revenue outlook did Apple give for Q1 fiscal 2025 on its call?")
    assert set(filters_for(plan)["fiscal_period"]) == {"Q4", "Q1"} and 2024 in filters_for(plan)["fiscal_year"]


def test_a_quarters_outlook_is_quoted_from_the_call_before(f):
    a = f.ask("What gross margin did Apple guide to for the second quarter of fiscal 2025 on its earnings call?")
    assert a.status == "answered"
    assert any("46.5%" in p.text and "47.5%" in p.text for p in a.passages[:3])
