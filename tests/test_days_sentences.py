"""A turnover period printed in a sentence (router/days_sentences.py). 8169_ecotek_2021_annual-mda-extract p2: "the
Group's inventory turnover was about 62\\ndays (31 October 2020: 96 days). The Group's accounts receivable turnover was
about 66 days (31 October 2020: 92 days)"."""

from __future__ import annotations

import pytest

from conftest import corpus_page
from router.days_sentences import days_sentence_span
from router.fallback import labels_of


@pytest.fixture(scope="module")
def text() -> str:
    return corpus_page("hk", "8169_ecotek_2021_annual-mda-extract.pdf", 2)


@pytest.mark.parametrize("metric, said", [("days_sales_outstanding", "accounts receivable turnover was about 66 days"),
                                          ("days_inventory_outstanding", "inventory turnover was about 62\ndays")])
def test_a_turnover_period_is_read_from_its_sentence(text, metric, said):
    span = days_sentence_span(text, labels_of(metric))
    assert span is not None and text[span[0]: span[1]].casefold() == said


def test_a_name_without_days_after_its_figure_is_no_reading(text):
    assert days_sentence_span(text, labels_of("days_payable_outstanding")) is None  # the page prints none
    assert days_sentence_span("Its inventory turnover was 5.2 times in 2021.", labels_of("days_inventory_outstanding")) is None
