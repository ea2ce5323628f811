"""The words a question searches with (router/search_words.py): its topic without the company's names and codes,
the periods and the asking words."""

from __future__ import annotations

import pytest

from router.periods import find_periods
from router.search_words import content_query, topic_run
from schema.models import CompanyRef, QueryPlan


@pytest.mark.parametrize("question, matched, via, topic", [
    ("Logistic Properties of the Americas (LPA) investment property balance at December 31, 2024?",
     "Logistic Properties of the Americas", "name", "investment property balance"),  # its ticker in brackets
    ("Wisdom Education International (6068): how many students?", "Wisdom Education International", "name",
     "many students"),  # its stock code in brackets ("how" is a question word)
    ("SPDR富時大中華ETF（3073）2021年度股息收入是多少？", "3073", "code", "股息收入是多少"),  # the name before its code
    ("Asymchem（凯莱英）2025年半年报披露的在手订单总额是多少？", "Asymchem", "name", "报 在手订单总额是多少"),  # its other name
    ("日盈控股（Ri Ying Holdings，1741）2021财年由盈转亏的主要原因是什么？", "Ri Ying Holdings", "name",
     "由盈转亏 原因是"),  # the name before the name it was found by, in brackets
    # (its name's words ask nothing: "Global" is no whole company asked, router.quote_scope)
    ("China Creative Global (1678): revenue from the overseas market in 2019?", "China Creative Global", "name",
     "revenue from overseas market"),
])
def test_the_company_is_no_topic_word(question, matched, via, topic):
    plan = QueryPlan(question=question, companies=[CompanyRef(company_id="x", matched=matched, via=via)],
                     periods=find_periods(question)[0])
    assert content_query(plan).casefold().strip(": ") == topic.casefold()


@pytest.mark.parametrize("run, topic", [("股息收入与相比如何", "股息收入"), ("管理费是多少", "管理费"), ("在建工程", "在建工程"),
                                        ("普通股股东总数是多少户", "普通股股东总数"), ("员工有多少人", "员工")])
def test_a_topic_run_without_its_asking_words(run, topic):
    assert topic_run(run) == topic


def test_a_metric_asked_by_shorthand_is_searched_by_its_printed_name_too():
    """Pages print "Capital expenditures $400 million to $475 million" (ULTABEAUTY_2023Q4_EARNINGS p3), not "capex";
    a question that already names the metric by its printed words ("loss attributable to owners") keeps them alone."""
    from router.search import _with_printed_names
    from schema.models import QueryPlan

    capex = QueryPlan(question="Ulta capex guidance fiscal 2023", metrics=["capex"])
    assert "capital expenditure" in _with_printed_names(capex, "ulta capex guidance").casefold()
    owners = QueryPlan(question="Emperor loss attributable to owners 2021", metrics=["net_income_parent"])
    assert _with_printed_names(owners, "loss attributable owners") == "loss attributable owners"
    assert _with_printed_names(QueryPlan(question="苹果2024年营收", metrics=["revenue"]), "营收") == "营收 营业收入"
