"""A line item the vocabulary has no metric for is read from the row that prints it: its label heads the row (or a
sentence says "was"), with nothing but spacing, a currency or a note between the label and the figure
(router/line_items.py)."""

from __future__ import annotations

import pytest

from router.line_items import own_row
from router.fallback import figure_span


@pytest.mark.parametrize("text, labels, own", [
    ("Dividend income 31,286,751 25,093,136", ["dividend income"], True),
    ("Withholding tax – dividend income 3,277,833 2,587,379", ["dividend income"], False),  # another row's tail
    ("Total deposits in U.S. offices 1,895,995 1,769,743", ["total deposits"], False),  # a part of the item
    ("Total deposits $ 2,278,112 $ 2,144,257", ["total deposits"], True),
    ("(a) Dividend income (note 5) 1,234", ["dividend income"], True),
    ("The Group's dividend income was HK$1.2 million", ["dividend income"], True),
    ("个人贷款 1,767,168 52.4 1,977,719", ["个人贷款余额", "个人贷款"], True),
    ("其中：个人贷款平均收益率 5.56%", ["个人贷款"], False),
])
def test_a_row_is_the_line_items_own(text, labels, own):
    span = figure_span(text, labels)
    assert (span is not None and own_row(text, span, labels)) is own


def test_a_qualified_measure_is_read_from_its_printed_row():
    from conftest import require_corpus
    from parsers.pdf_pages import read_pages
    from router.line_items import measure_labels
    from schema.models import QueryPlan

    plan = QueryPlan(question="goodwill impairment 2019", non_gaap=[("impairment", "goodwill")])
    labels = measure_labels(plan)
    assert "goodwill impairment" in labels and "impairment goodwill" in labels
    # KRAFTHEINZ_2019_10K p50, the consolidated statement of income: "Goodwill impairment losses 1,197 7,008 —"
    text = read_pages(require_corpus("us", "financebench", "pdfs", "KRAFTHEINZ_2019_10K.pdf"))[49].text
    span = figure_span(text, labels)
    assert span is not None and own_row(text, span, labels)
    assert text[span[0]: span[1]].replace("\n", " ").startswith("Goodwill impairment losses 1,197")


def test_a_segments_line_item_in_chinese_prose():
    from router.line_items import topic_labels
    from schema.models import QueryPlan

    labels = topic_labels(QueryPlan(question="临床试验技术服务板块收入是多少"))
    assert "临床试验技术服务收入" in labels  # 板块 is how the question names it, not how the report prints it
    # 300347_taigeyiyao_2025_interim p17: "报告期内，临床试验技术服务收入 146,953.02 万元，上年同期 163,712.18 万元"
    text = "报告期内，临床试验技术服务收入 146,953.02 万元，上年同期 163,712.18 万元，同比下降 10.2%。"
    span = figure_span(text, labels)
    assert span is not None and own_row(text, span, labels) and "146,953.02" in text[span[0]: span[1]]


def test_a_chinese_label_is_not_the_tail_of_a_longer_term():
    text = "部分业务仍处于产能爬坡期等因素影响，新兴业务毛利率为 21.67%"  # 002821 2024 summary p3
    span = figure_span(text, ["业务毛利率"])
    assert span is None or not own_row(text, span, ["业务毛利率"])
    text = "公司的业务毛利率为 30.1%"
    assert own_row(text, figure_span(text, ["业务毛利率"]), ["业务毛利率"])
