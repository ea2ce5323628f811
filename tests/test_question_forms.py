"""Question forms read as analysts write them, each rule checked on its own (the paraphrase grid checks them over
every company and period): dates in Chinese numerals, a fiscal year named by the two calendar years it spans, a
share asked with a bracketed name among the words, a part named with its name in another language in brackets, and
a headcount printed in a sentence or the CSRC template's table."""

from __future__ import annotations

import pytest

from router.counts import asks_headcount, headcount_span
from router.periods import cn_numerals, find_periods


@pytest.mark.parametrize("text, expected", [
    ("截至二零二五年三月三十一日止年度", "截至2025年3月31日止年度"),
    ("二〇二四年十二月三十一日", "2024年12月31日"),
    ("二〇二一年九月三十日", "2021年9月30日"),
    ("二〇二三年十月一日", "2023年10月1日"),
    ("二〇二三年一月二十日", "2023年1月20日"),
    ("三一重工二〇二四年", "三一重工2024年"),  # a company's name in numerals is no date
])
def test_dates_in_chinese_numerals(text, expected):
    assert cn_numerals(text) == expected


@pytest.mark.parametrize("question, year", [
    ("revenue for FY2020/21", 2021), ("2020/21財年的收入", 2021), ("school year 2020/21 enrolment", 2021),
    ("2020/2021年度营业额", 2021), ("turnover in 2019-20", 2020),
])
def test_a_fiscal_year_named_by_the_years_it_spans_is_the_year_it_ends_in(question, year):
    periods, _ = find_periods(question)
    assert [(p.fiscal_year, p.fiscal_period, p.fiscal) for p in periods] == [(year, "FY", True)]


@pytest.mark.parametrize("question", ["revenue 2020-2022", "2020-2021 net profit"])
def test_a_range_of_full_years_stays_a_range(question):
    periods, _ = find_periods(question)
    assert len(periods) == len({p.fiscal_year for p in periods}) >= 2 and all(p.fiscal_period is None for p in periods)


def test_years_that_do_not_follow_are_no_fiscal_year():
    periods, _ = find_periods("revenue 2019/22")
    assert all(p.fiscal_year != 2022 for p in periods)


@pytest.mark.parametrize("question, asks", [
    ("How many employees did the company have at year end?", True), ("员工人数", True), ("在职员工总数", True),
    ("全職僱員人數", True), ("what was the headcount", True), ("staff costs for the year", False),
    ("应付职工薪酬余额", False), ("employee benefit expenses", False),
])
def test_headcount_questions(question, asks):
    assert asks_headcount(question) is asks


@pytest.mark.parametrize("text, quote", [
    # MICROSOFT_2023_10K p9
    ("Human capital. As of June 30, 2023, we employed approximately 221,000 people on a full-time basis, 120,000 in the "
     "U.S. and 101,000 internationally.", "we employed approximately 221,000 people"),
    # 1721_fsm_2020_annual p11
    ("EMPLOYEES\nAs at 31 December 2020, the Group employed 165 full-time employees (FY2019: 147 employees).\nTotal "
     "staff costs", "the Group employed 165 full-time employees"),
    # 000001_pinganyinhang_2024_annual p85
    ("4.13.2 员工情况\n2024年末，本集团共有在职员工 41,011 人（含派遣人员），需承担退休费的离职职工 79 人；其中", "在职员工 41,011 人"),
    # 600080_jinhuagufen_2024_annual p44: the total row of the template, not the parent's
    ("母公司在职员工的数量 582\n主要子公司在职员工的数量 6\n在职员工的数量合计 588\n", "在职员工的数量合计 588"),
])
def test_a_headcount_is_quoted_from_its_sentence_or_row(text, quote):
    span = headcount_span(text)
    assert span is not None and quote in text[span[0]: span[1]]


@pytest.mark.parametrize("text", [
    "Our 2021 employees survey showed engagement", "Total staff costs amounted to approximately S$3.9 million",
    "应付职工薪酬 12,345,678.90", "支付给职工以及为职工支付的现金 1,234,567.00",
])
def test_no_headcount_where_none_is_printed(text):
    assert headcount_span(text) is None
