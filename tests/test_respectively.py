"""A figure listed with others and read by its place (router/respectively.py). Expected figures from
0860_apollofuture_2021_annual-mda-extract p3: "The Group's inventory turnover, accounts receivable turnover and
accounts payable turnover periods for the year were 159 days, 25 days and 58 days, respectively."."""

from __future__ import annotations

import pytest

from conftest import corpus_page
from router.fallback import labels_of
from router.respectively import respectively_span


@pytest.fixture(scope="module")
def text():
    return corpus_page("hk", "0860_apollofuture_2021_annual-mda-extract.pdf", 3)


@pytest.mark.parametrize("metric, last", [("days_inventory_outstanding", "159 days"),
                                          ("days_sales_outstanding", "25 days"),
                                          ("days_payable_outstanding", "58 days")])
def test_a_listed_figure_is_read_by_its_place(text, metric, last):
    span = respectively_span(text, labels_of(metric))
    assert span is not None and text[span[0]: span[1]].endswith(last)
    assert "inventory turnover" in text[span[0]: span[1]]


def test_a_list_of_another_length_or_a_name_of_all_is_none():
    sentence = "The revenue and net profit of the Group for 2021 and 2020 were HK$1.2 million and HK$3.4 million, respectively."
    assert respectively_span(sentence, labels_of("revenue")) is None
    listed = "Its inventory turnover and receivable turnover periods were 10 days and 20 days, respectively."
    assert respectively_span(listed, ["turnover period"]) is None  # words every listed name has name none of them


def test_both_years_figures_of_a_respectively_sentence_are_quoted():
    """0640_infinitydev_2021_annual-mda-extract p1: "The revenue of the Group for the year ended 30 September 2021\\nand
    2020 was approximately HK$643,446,000 and approximately\\nHK$543,968,000 respectively" and its Chinese column
    "本集團的收益分別約643,446,000港元\\n及約543,968,000港元"."""
    from router.fallback import figure_span

    text = corpus_page("hk", "0640_infinitydev_2021_annual-mda-extract.pdf", 1)
    chinese = text[text.index("財務回顧"):]
    span = figure_span(chinese, [w for w in labels_of("revenue") if w == "收益"], "money")
    assert span is not None and chinese[span[0]: span[1]].endswith("643,446,000港元\n及約543,968,000港元")
    sentence = "Revenue was approximately HK$643,446,000 and approximately HK$543,968,000 respectively."
    span = figure_span(sentence, ["revenue"], "money")
    assert span is not None and sentence[span[0]: span[1]].endswith("HK$643,446,000 and approximately HK$543,968,000")


def test_both_figures_are_read_where_a_unit_is_broken_over_two_lines():
    """0640_infinitydev_2021_annual-mda-extract p1: "本集團的行政費用分別約89,161,000港" / "元及約78,186,000港元" (the
    text layer breaks 港元 across the line)."""
    from router.fallback import figure_span

    page = corpus_page("hk", "0640_infinitydev_2021_annual-mda-extract.pdf", 1)
    span = figure_span(page, labels_of("admin_expense"), "money")
    assert span is not None and "78,186,000" in page[span[0]: span[1]] and "89,161,000" in page[span[0]: span[1]]
