"""A line item the vocabulary has no metric for, answered from the filing's own XBRL fact (router/xbrl_items.py).
Netflix's 10-Q for the quarter ended 2010-09-30 (us/xbrl/nflx-10q-2010q3/nflx-20100930.xml) tags us-gaap:MarketingExpense
81238000 for the 92 days to 2010-09-30 (context ..._STD_92_20100930_0) and 230990000 for the 273 days
(..._STD_273_20100930_0)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from conftest import ingested_home
from filings import Filings
from router.xbrl_items import concept_words


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    home = ingested_home(tmp_path_factory, "xbrl_items", [("us", "xbrl", "nflx-10q-2010q3")])
    with Filings(home, read_only=True) as fx:
        yield fx


def test_a_concepts_name_read_as_words():
    assert concept_words("us-gaap:MarketingExpense") == "marketing expense"
    assert concept_words("ifrs-full:InvestmentProperty") == "investment property"


@pytest.mark.parametrize("question, value, period", [
    ("Netflix marketing expense for the quarter ended September 30, 2010?", "81238000", "Q3"),
    ("Netflix marketing expense in the first nine months of 2010?", "230990000", "9M"),
])
def test_a_line_item_is_its_xbrl_fact_of_the_span_asked(f, question, value, period):
    answer = f.ask(question)
    assert answer.status == "answered" and len(answer.rows) == 1
    row = answer.rows[0]
    assert Decimal(row.value) == Decimal(value) and row.fiscal_period == period and row.currency == "USD"
    assert row.source["concept"] == "us-gaap:MarketingExpense" and row.source["doc_name"] == "nflx-20100930"


def test_a_period_the_filing_has_no_fact_of_is_not_answered_from_another(f):
    answer = f.ask("Netflix marketing expense for the quarter ended September 30, 2011?")
    assert not any(r.metric.casefold().startswith("marketing") for r in answer.rows)
