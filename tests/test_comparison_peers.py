"""A comparison whose other side the warehouse does not hold says so (router.entities.unknown_peer): the known side
is answered, with a caveat naming the unknown one, never as if it were the whole comparison. The company master's
Chinese names of US issuers (mappings/companies.yaml) resolve the side they name."""

from __future__ import annotations

import pytest

from filings import Filings


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    home = tmp_path_factory.mktemp("peers")
    with Filings(home, read_only=False) as fx:  # an empty warehouse: the company master alone
        yield fx


def _unknown(plan) -> list[str]:
    return [n for n in plan.notes if n.startswith("no company in the warehouse matches")]


@pytest.mark.parametrize("question, peer", [
    ("Compare Boeing and Airbus revenue in 2022", "Airbus"),
    ("What did Apple and Google say about AI on their calls?", "Google"),
    ("波音与空客2022年营业收入分别是多少？", "空客"),
    ("平安银行和招商银行2024年净利润", "招商银行"),
])
def test_an_unknown_side_of_a_comparison_is_named(f, question, peer):
    plan = f.plan(question)
    assert len(plan.companies) == 1 and any(repr(peer) in n for n in _unknown(plan))


@pytest.mark.parametrize("question", [
    "Boeing revenue and net income 2022",  # two metrics, not two companies
    "Apple and its suppliers in 2023",
    "What did Apple say about China and India?",
    "苹果2024年营收和净利润",
    "苹果与其供应商的关系",
])
def test_words_joined_to_a_company_that_are_no_company_are_not_flagged(f, question):
    assert not _unknown(f.plan(question))


def test_a_us_issuers_chinese_name_resolves_its_side(f):
    plan = f.plan("波音与洛克希德·马丁2022年的营业收入分别是多少？")
    assert [c.company_id for c in plan.companies] == ["boeing", "lockheed_martin"] and not _unknown(plan)
    assert [c.company_id for c in f.plan("强生2023年第二季度收入").companies] == ["johnson_johnson"]
