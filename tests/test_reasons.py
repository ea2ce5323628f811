"""The reason a report prints beside a metric's change is quoted for a why-question (router/reasons.py). A-share
quarterly reports print a change table, 项目 | 本报告期 | 上年同期 | 变动比例 | 主要原因, whose reason cells wrap beside
the row's label or are centred on it; expected quotes are the cells printed on the pages read here."""

from __future__ import annotations

import pytest

from conftest import require_corpus
from parsers.pdf_pages import read_pages
from router.reasons import reason_passages
from schema.models import Passage


def _page(*parts: str, page: int) -> Passage:
    text = read_pages(require_corpus(*parts))[page - 1].text
    return Passage(text=text, company_id="c", source={"page": page, "char_start": 0}, score=1.0)


@pytest.mark.parametrize("parts, page, metric, inside, not_inside", [
    # 华润三九 2024 Q1 p3: the label wraps ("经营活动产生的现金流量净 / 额") around its reason cell
    (("cn", "000999_huarunsanjiu_2024_q1.pdf"), 3, "operating_cash_flow",
     ["主要是本期销售商品收到的现金", "增加导致"], ["赎回理财"]),
    # 药明康德 2025 Q1 p3: the reason cell is centred on its row's label, two lines above and three below
    (("cn", "603259_yaomingkangde_2025_q1.pdf"), 3, "net_income_parent",
     ["主要系公司在保持营业收入增长的同时", "提升了公司的净利润"], ["多次回购"]),
    (("cn", "603259_yaomingkangde_2025_q1.pdf"), 3, "operating_cash_flow",
     ["持续的利润增长带来了良好的现", "经营现金流的稳定与健康"], ["多次回购"]),
])
def test_a_printed_reason_is_quoted_with_its_row(parts, page, metric, inside, not_inside):
    p = _page(*parts, page=page)
    [quote] = reason_passages([p], metric)
    for words in inside:
        assert words in quote.text.replace("\n", ""), quote.text
    for words in not_inside:
        assert words not in quote.text, quote.text
    assert quote.text in p.text  # an exact span of the page


def test_a_reason_is_the_metrics_own_sentence():
    def one(text: str, metric: str) -> list[str]:
        return [q.text for q in reason_passages([Passage(text=text, company_id="c", source={}, score=1.0)], metric)]

    assert one("Revenue increased 12% to $5.0 billion, primarily due to higher volumes. Costs rose.", "revenue") == [
        "Revenue increased 12% to $5.0 billion, primarily due to higher volumes."]
    assert one("Revenue was $5.0 billion. Costs rose due to inflation.", "revenue") == []  # another sentence's cause
    assert one("营业收入 20.96 详见如下分析\n基本每股收益（元/股） 92.54 主要系回购", "revenue") == []  # another row's


def test_a_reason_cell_ends_with_its_cause():
    # 金花股份 2024 Q1 p3: "归属于上市公司股东的净利润 411.92 主要系本期处置子公司确认的投资收益增加所致" and the next row below
    p = _page("cn", "600080_jinhuagufen_2024_q1.pdf", page=3)
    [quote] = reason_passages([p], "net_income_parent")
    assert quote.text.endswith("主要系本期处置子公司确认的投资收益增加所致"), quote.text


def test_every_reason_of_a_passage_in_page_order():
    """BOEING_2022_10K p28 explains this year's change, then last year's; both are quoted, this year's first."""
    from router.reasons import reason_passages
    from schema.models import Passage

    text = ("Total $2,852 $2,249 $2,476\nResearch and development expense increased by $603 million in 2022 compared with "
            "2021 primarily due to higher research and development\nexpenditures on 777X, 737 MAX, as well as BCA and "
            "enterprise investments in product development.\nResearch and development expense decreased by $227 million "
            "in 2021 compared with 2020 primarily due to lower BCA and enterprise\ninvestments in product development.")
    found = reason_passages([Passage(text=text, company_id="boeing", source={"page": 28})], "rd_expense")
    assert [("$603 million" in p.text, "$227 million" in p.text) for p in found] == [(True, False), (False, True)]


@pytest.mark.parametrize("parts, page, labels, inside", [
    # 凯莱英 2025 interim p15, change table: the 财务费用 row with its 变动原因 cell wrapped around it
    (("cn", "002821_kailaiying_2025_interim.pdf"), 15, ["财务费用"], ["主要系本期因汇率波动导致的汇兑", "收益减少所致"]),
    # 四方科技 2019 annual p11: "实现主营业务收入 1,135,639,368.05 元，比上年减少 5.07%，主要受全球经济放缓、中美贸易摩擦影响；"
    (("cn", "603339_sifangkeji_2019_annual.pdf"), 11, ["主营业务收入"], ["比上年减少 5.07%", "中美贸易摩擦影响"]),
])
def test_a_line_items_printed_reason_is_quoted(parts, page, labels, inside):
    """A line item the vocabulary has no metric for (printed_reasons with the question's own label)."""
    from router.reasons import printed_reasons

    p = _page(*parts, page=page)
    [quote, *_] = printed_reasons([p], labels)
    for words in inside:
        assert words in quote.text.replace("\n", ""), quote.text
    assert quote.text in p.text


@pytest.mark.parametrize("question, label", [
    ("为什么财务费用大幅下降？", "财务费用"),
    ("销售费用同比增加的主要原因是什么", "销售费用"),
    ("管理費用為何上升？", "管理费用"),
    ("应收账款较上年末大幅增加的原因是什么", "应收账款"),
    ("Why did distribution costs rise?", "distribution costs"),
])
def test_why_labels_are_the_topic_without_why_and_change_words(question, label):
    from router.reasons import why_labels
    from schema.models import QueryPlan

    assert why_labels(QueryPlan(question=question))[0] == label


def test_a_change_is_quoted_with_the_next_sentence_when_that_gives_its_cause():
    """1741 (Ri Ying) 2021 annual p13: the headcount sentence, then "The increase in the number of employees was
    mainly attributable to the expansion in the health management and consultancy business in the PRC"."""
    from router.reasons import with_cause

    text = _page("hk", "1741_riying_2021_annual.pdf", page=13).text
    start = text.index("As at 30 September 2021")
    end = text.index("85 employees).") + len("85 employees).")
    a, b = with_cause(text, start, end)
    assert a == start and "mainly attributable to the expansion in the health management" in " ".join(text[a:b].split())
    assert text[a:b].rstrip().endswith("in the PRC.")
    # a sentence after it that gives no cause is not taken
    plain = "Revenue was $5.0 billion. Costs were $3.0 billion. The rise was due to volumes."
    assert with_cause(plain, 0, len("Revenue was $5.0 billion.")) == (0, len("Revenue was $5.0 billion."))


def test_a_cause_is_read_on_through_what_it_included():
    """NOC_2021_Q3 (Kathy Warden's prepared remarks): "As expected, our organic growth rate slowed in the quarter ...
    due to COVID-19. During the third quarter, this included employee leave-taking at a higher level than planned, a
    tighter labor market, and certain supply chain challenges. We continue to focus on ..."."""
    import json

    from conftest import require_corpus
    from router.reasons import with_cause

    call = json.loads(require_corpus("transcripts", "NOC_2021_Q3.json").read_text(encoding="utf-8"))
    text = next(t["speech"] for t in call["prepared_remarks"] if "organic growth rate slowed" in t["speech"])
    start = text.index("As expected, our organic growth rate slowed")
    end = text.index(".", start) + 1
    quote = text[slice(*with_cause(text, start, end))]
    assert quote.rstrip().endswith("a tighter labor market, and certain supply chain challenges.")
    assert "We continue" not in quote
