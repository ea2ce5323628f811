"""A count of things sold, shipped or delivered is answered only by a passage that prints a number of them: a
passage about the product (its revenue, its models, the year) is no count (router/counts.py)."""

from __future__ import annotations

import pytest

from router.counts import counted, prints_count


@pytest.mark.parametrize("question, things", [
    ("How many smartphones did the company sell in 2024?", "smartphones"),
    ("How many electric vehicles did it deliver in the fourth quarter?", "electric vehicles"),
    ("How many employees does the company have?", None),  # no sale, shipment or delivery asked
    ("How much revenue did the company make?", None),
])
def test_a_count_asked(question, things):
    assert counted(question) == things


@pytest.mark.parametrize("text, things, expected", [
    ("We delivered 495,570 vehicles in the fourth quarter.", "vehicles", True),
    ("shipments reached 1.2 million units", "phones", True),
    ("we sold 52 million phones", "phones", True),
    ("Phone net sales were $201.2 billion in 2024.", "phones", False),  # money, not a count
    ("Phone 16, Phone 16 Plus and Phone 16 Pro", "phones", False),  # model numbers
    ("In 2024 vehicles deliveries rose", "vehicles", False),  # a year
])
def test_a_printed_count(text, things, expected):
    assert prints_count(text, things) is expected


@pytest.mark.parametrize("question, things", [
    ("该产品2024年卖了多少盒？", "盒"),
    ("公司2024年交付了多少万辆车", "辆"),
    ("该产品的销量是多少", "件"),  # any measure word
    ("公司2024年营业收入是多少", None),
])
def test_a_count_asked_in_chinese(question, things):
    assert counted(question) == things


def test_a_printed_count_in_chinese():
    assert prints_count("全年销售 1,234 万盒，同比增长 5%", "盒")
    assert not prints_count("该产品实现收入 12.3 亿元", "盒")
    assert prints_count("全年交付新车 52,000 辆", "件")


def test_a_units_page_gives_the_count_the_unit_stops_before():
    """ACTIVISIONBLIZZARD_2019_10K p9: "Employees / At December 31, 2019, we had approximately 9,200 total full-time and
    part-time employees." A unit of the page that stops before it is read through its page."""
    from conftest import corpus_page
    from router.counts import page_counts
    from schema.models import Passage

    page = corpus_page("us", "ACTIVISIONBLIZZARD_2019_10K.pdf", 9)
    unit = Passage(text=page[:200], company_id="activision_blizzard",
                   source={"document_id": "d", "page": 9, "char_start": 0, "char_end": 200})
    counted = page_counts([unit], lambda document_id, number: page)
    assert counted and "approximately 9,200 total full-time and part-time employees" in counted[0].text
    assert page[counted[0].source["char_start"]: counted[0].source["char_end"]] == counted[0].text


def test_a_count_with_its_comparative_in_brackets_before_the_people():
    """0860_apollofuture_2021_annual-mda-extract p7: "As at 30 September 2021, the Group had 193 (2020: 204) employees"."""
    from conftest import corpus_page
    from router.counts import headcount_span

    page = corpus_page("hk", "0860_apollofuture_2021_annual-mda-extract.pdf", 7)
    span = headcount_span(page)
    assert span is not None and page[span[0]: span[1]].rstrip(".").endswith("the Group had 193 (2020: 204) employees")


def test_the_count_of_the_very_things_asked():
    """6068_wisdomeducation_2021_annual: p15 prints "Primary school 26,874 38.6 20,875 34.7" in its enrolment table; p14
    "a total of 69,695 students enrolled ... following the addition of Huiyang Primary School in January 2021"."""
    from conftest import corpus_page
    from router.counts import how_many, qualified_count

    things = how_many("how many primary school students were enrolled in the 2020/2021 school year?")
    assert things == "primary school students"
    assert qualified_count(corpus_page("hk", "6068_wisdomeducation_2021_annual.pdf", 15), things)
    assert not qualified_count(corpus_page("hk", "6068_wisdomeducation_2021_annual.pdf", 14), things)
    assert not qualified_count("69,695 students", "students")  # one word: nothing narrows it
    # 1741 (Ri Ying) 2021 annual, use of proceeds (HK$ million): an amount, not a count of projects
    assert not qualified_count("Fund the initial costs of the Group’s construction projects 21.8 21.8 – N/A",
                               "construction projects")


def test_each_year_asked_is_searched_apart():
    from router.counts import each_year

    assert each_year({"company_id": ["microsoft"], "fiscal_year": [2016, 2023]}) == [
        {"company_id": ["microsoft"], "fiscal_year": [2016]}, {"company_id": ["microsoft"], "fiscal_year": [2023]}]
    assert each_year({"company_id": ["microsoft"], "fiscal_year": [2023]}) == [{"company_id": ["microsoft"], "fiscal_year": [2023]}]
