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


def test_an_outlook_is_never_answered_by_the_reported_figures_alone(f, monkeypatch):
    """Asked what a company expects, the figures it reported for the periods named are no answer by themselves: when
    no passage gives the outlook, the answer is no_data (the reported figures are not shown as if they answered)."""
    from schema.models import Answer

    router = f.router
    plan = f.plan("What gross margin outlook did Apple give for the March quarter of fiscal 2025?")
    reported = Answer(question=plan.question, route="sql", plan={}, status="answered", answer="Apple gross margin Q1 2025: 46.9%")
    nothing = Answer(question=plan.question, route="search", plan={}, status="no_data", reason="no passage close enough")
    monkeypatch.setattr(router, "_sql", lambda _plan: reported)
    monkeypatch.setattr(router, "_search", lambda _plan: nothing)
    monkeypatch.setattr(router, "_reasons", lambda _plan: [])
    a = router._mixed(plan)
    assert a.status == "no_data" and not a.answer and not a.rows and "no passage close enough" in a.reason
    plan = f.plan("What was Apple's gross margin in the first quarter of fiscal 2025?")  # no outlook asked: answered
    assert router._mixed(plan).status == "answered"
