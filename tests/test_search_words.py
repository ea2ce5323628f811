"""The words a question searches with (router/search_words.py): what it asks for, said in the other language for a
company whose filings print only that language. Expected words are the vocabulary's own lists (mappings/vocabulary.yaml
question_words.why / outlook, sections.risk_factors), read here, not restated."""

from __future__ import annotations

from mappings.vocabulary import section_words, words
from router.search_words import asking_words
from schema.models import QueryPlan


def _english(phrases) -> set[str]:
    return {p.rstrip("*") for p in phrases if not p.startswith("re:") and p.isascii()}


def test_a_chinese_why_searches_an_english_filing_with_the_english_words_of_a_reason():
    said = asking_words(QueryPlan(question="可口可乐2017年的营业收入为什么下降？"))
    assert "due to" in said and "because" in said
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in said)
    assert set(said.split()) <= {w for p in _english(words("why").phrases) for w in p.split()}


def test_an_english_question_searches_a_chinese_filing_with_chinese_words():
    said = asking_words(QueryPlan(question="Why did Kweichow Moutai's net profit rise in 2023, and what is its outlook?"))
    assert "由于" in said and "原因" in said and "展望" in said and "预计" in said
    assert not any(ch.isascii() and ch.isalpha() for ch in said)


def test_a_section_asked_or_filtered_is_said_in_the_other_language():
    assert "风险因素" in asking_words(QueryPlan(question="What are Midea's main risks?"))
    filtered = asking_words(QueryPlan(question="美的集团2023年", sections=["risk_factors"]))
    assert filtered and set(filtered.split()) <= _english(section_words()["risk_factors"].phrases) | {
        w for p in _english(section_words()["risk_factors"].phrases) for w in p.split()}


def test_a_question_that_asks_no_reason_outlook_or_section_adds_nothing():
    assert asking_words(QueryPlan(question="贵州茅台2023年营业收入是多少？")) == ""
    assert asking_words(QueryPlan(question="What was Apple's revenue in 2023?")) == ""
