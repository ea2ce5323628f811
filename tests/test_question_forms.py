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
    ("2020/2021年度营业额", 2021), ("turnover in FY2019-20", 2020),
])
def test_a_fiscal_year_named_by_the_years_it_spans_is_the_year_it_ends_in(question, year):
    periods, _ = find_periods(question)
    assert [(p.fiscal_year, p.fiscal_period, p.fiscal) for p in periods] == [(year, "FY", True)]


@pytest.mark.parametrize("question", ["revenue 2020-2022", "2020-2021 net profit"])
def test_a_range_of_full_years_stays_a_range(question):
    periods, _ = find_periods(question)
    assert len(periods) == len({p.fiscal_year for p in periods}) >= 2 and all(p.fiscal_period is None for p in periods)


@pytest.mark.parametrize("question, ends", [
    ("在手订单：2025年3月末和9月末分别是多少", ["2025-03-31", "2025-09-30"]),
    ("2024年6月末、9月末和12月末的总资产", ["2024-06-30", "2024-09-30", "2024-12-31"]),
    ("2025年3月末的总资产", ["2025-03-31"]),
])
def test_month_ends_listed_after_a_year_are_each_that_years(question, ends):
    periods, _ = find_periods(question)
    assert [str(p.period_end) for p in periods] == ends and all(p.instant for p in periods)


def test_years_that_do_not_follow_are_no_fiscal_year():
    periods, _ = find_periods("revenue 2019/22")
    assert all(p.fiscal_year != 2022 for p in periods)


@pytest.mark.parametrize("question, asks", [
    ("How many employees did the company have at year end?", True), ("员工人数", True), ("在职员工总数", True),
    ("全職僱員人數", True), ("what was the headcount", True), ("staff costs for the year", False),
    ("应付职工薪酬余额", False), ("employee benefit expenses", False),
    ("total employees benefit expense", False), ("在职员工薪酬总额", False), ("full-time employees' salaries", False),
    ("How many Costco employees were in Canada?", True),  # a company's name is no cost word
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
    # a count in millions of people, and a Traditional page's letter-spaced words
    ("We employ more than 2.2 million associates worldwide.", "2.2 million associates"),
    ("於二零二五年三月三十一日，本集團共有約20名僱 員。", "20名僱 員"),
    # 0328_alco_2025_annual-results p21: the comparative in brackets between the count and the people
    ("於二零二五年三月三十一日，本集團於中國內地、台灣及香港聘用約20名（二零二\n四年：15名）僱員。", "約20名（二零二\n四年：15名）僱員"),
])
def test_a_headcount_is_quoted_from_its_sentence_or_row(text, quote):
    span = headcount_span(text)
    assert span is not None and quote in text[span[0]: span[1]]


@pytest.mark.parametrize("text", [
    "Our 2021 employees survey showed engagement", "Total staff costs amounted to approximately S$3.9 million",
    "应付职工薪酬 12,345,678.90", "支付给职工以及为职工支付的现金 1,234,567.00",
    "全年组织员工培训 1,200 人次", "员工持股计划参与对象共 150 人", "We serve 25,000 business customers and employees",
    "2,000 hours worked by employees", "We employ 3 business segments to manage the group",
])
def test_no_headcount_where_none_is_printed(text):
    assert headcount_span(text) is None


# 0717_emperorcapital_2021_annual p6: the English and the Chinese paragraph printed side by side, line by line
_SIDE_BY_SIDE = (
    "RESULTS 業績\n"
    "As a result of a tough business operating environment, the 由於業務經營環境困難，本集團於本年\n"
    "Group’s revenue inevitably decreased to HK$676.8 million (2020: 度之收入無可避免地減少至676,800,000\n"
    "HK$917.4 million) during the Year. An impairment allowances for 港元（2020年：917,400,000港元）。孖展\n"
    "margin loans, and other loans and advances (the “Impairment”) 貸款、其他貸款及墊款之減值撥備（「減\n"
    "of HK$939.3 million (2020: HK$1,327.3 million) was recognised. 值」）確認為939,300,000港元（2020年：\n")


def test_the_chinese_column_of_a_side_by_side_page_reads_as_one_text():
    from router.bilingual_lines import chinese_column, interleaved, page_span

    assert interleaved(_SIDE_BY_SIDE)
    column, offsets = chinese_column(_SIDE_BY_SIDE)
    assert "孖展貸款、其他貸款及墊款之減值撥備（「減值」）確認為939,300,000港元" in column
    at = column.index("孖展")
    start, end = page_span(offsets, at, column.index("939,300,000") + len("939,300,000"))
    assert _SIDE_BY_SIDE[start:end].startswith("孖展") and _SIDE_BY_SIDE[start:end].endswith("確認為939,300,000")


def test_a_chinese_line_item_is_read_from_the_chinese_column():
    from mappings.vocabulary import simplified_in_place
    from router.line_items import _in_chinese_column

    page = simplified_in_place(_SIDE_BY_SIDE)  # read in the question's folded words, as the search route does
    span = _in_chinese_column(page, ["孖展贷款、其他贷款及垫款之减值拨备"])
    assert span is not None and page[span[0]: span[1]].startswith("孖展")
    assert page[span[0]: span[1]].endswith(("939,300,000", "939,300,000港元"))
    assert _in_chinese_column("孖展貸款、其他貸款及墊款之減值撥備 939,300,000\n", ["孖展貸款、其他貸款及墊款之減值撥備"]) is None


@pytest.mark.parametrize("question, average", [
    ("平安银行2024年平均总资产收益率", False),  # that year's return on average assets: a year is no count of years
    ("2024年平均ROE", False), ("20年平均净资产收益率", False), ("平均存款利率（5年期）", False),
    ("近三年平均营业收入", True), ("三年平均净利润", True), ("2022-2024年平均净利润", True),
    ("What is the 3 year average gross margin?", True),
])
def test_an_average_over_years_is_asked_by_a_count_of_years_never_by_a_year(question, average):
    from mappings.analysis import analysis

    assert bool(analysis().operations["average"].search(question)) is average


@pytest.mark.parametrize("question, metric", [
    ("What was the bank's average ROA in 2024?", "roa_average_assets"), ("average ROE 2023", "roe_average_equity"),
    ("return on assets 2024", "roa"),
])
def test_average_roa_is_the_return_on_average_assets(question, metric):
    from router.plan import find_metrics

    assert find_metrics(question) == [metric]



@pytest.mark.parametrize("question", ["profit before income tax 2021", "loss before income tax for the year",
                                      "(loss)/profit before income tax", "income before income tax"])
def test_profit_before_income_tax_is_pretax_income_never_the_tax(question):
    from router.plan import find_metrics

    assert find_metrics(question) == ["pretax_income"]



def test_an_english_figure_on_a_chinese_pieces_line_is_never_read_for_a_chinese_label():
    from router.bilingual_lines import column_span
    from router.fallback import figure_span

    page = ("Other income amounted to HK$30.1 million 其他收入為\n"
            "while finance costs were HK$12.0 million 50,200,000港元。\n"
            "during the year under review the Group 本集團\n")
    span = column_span(page, ["其他收入"], lambda column, chinese: figure_span(column, chinese))
    assert span is None or "50,200,000" in page[span[0]: span[1]]
