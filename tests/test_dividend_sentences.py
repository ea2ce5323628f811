"""A dividend printed in a sentence (router/per_share_sentences.py, router/fallback.py): an A-share report's cash
dividend for every ten shares, of the year asked and of no other. Expected text from the pages named beside each case."""

from __future__ import annotations

from conftest import corpus_page
from router.fallback import figure_passages
from router.per_share_sentences import per_share_sentence_span
from schema.models import Passage


def page(name: str, number: int) -> str:
    return corpus_page("cn", name, number)


def test_a_dividend_for_every_ten_shares_is_read_for_its_year():
    """600080 2024 annual p47: "公司2024年度利润分配预案为：... 拟向全体股东每10 股派发现金红利0.3元（含税）"."""
    text = page("600080_jinhuagufen_2024_annual.pdf", 47)
    span = per_share_sentence_span(text, "dividends_per_share", frozenset({2024}))
    assert span is not None and text[span[0]: span[1]].replace("\n", "").endswith("派发现金红利0.3元（含税）")
    assert per_share_sentence_span(text, "dividends_per_share", frozenset({2023})) is None  # 2024年度's, not 2023's


def test_another_years_dividend_is_no_answer():
    """603339 2019 annual p143: "2019年5月13日经公司 2018年度股东大会审议通过，2018年度利润分配以方案实施后的公司总股本
    210,674,875 股为基数，每股派发现金红利 0.2 元（含税）": the 2018 dividend, paid in 2019."""
    text = page("603339_sifangkeji_2019_annual.pdf", 143)
    passage = Passage(text=text, company_id="sifang_tech", source={"doc_name": "603339_sifangkeji_2019_annual", "page": 143})
    assert "每股派发现金红利 0.2" in text
    assert figure_passages([passage], "dividends_per_share", years=frozenset({2019})) == []
    assert figure_passages([passage], "dividends_per_share", years=frozenset({2018}))


def test_the_years_total_for_every_ten_shares_is_read_before_its_final_part():
    """000999 2024 summary p1: the 利润分配预案 "每 10 股派发现金红利 3.2 元（含税）" (the final), then "2024年前三季度利润
    分派，每 10 股派送现金 10 元（含税）" and "2024年度每 10 股合计派送现金 13.20 元（含税）" (the year's whole)."""
    text = page("000999_huarunsanjiu_2024_summary.pdf", 1)
    span = per_share_sentence_span(text, "dividends_per_share", frozenset({2024}))
    assert span is not None and text[span[0]: span[1]].replace("\n", "").endswith("合计派送现金 13.20 元（含税）")


def test_a_figure_the_metrics_names_do_not_find_is_looked_for_by_the_questions_own_words():
    """603339 2019 annual p2: "公司2019年度利润分配预案是：... 每10股派发现金红利1.88元（含税）". A search that finds the page
    only for the question's own words (the metric's names joined to them rank other pages first) still quotes it."""
    from router.fallback import search_for_figures
    from schema.models import PeriodRef, QueryPlan

    text = page("603339_sifangkeji_2019_annual.pdf", 2)
    unit = Passage(text=text, company_id="sifang_tech", source={"doc_name": "603339_sifangkeji_2019_annual", "page": 2})
    question = "四方科技2019年度利润分配预案每10股派发现金红利多少？"
    plan = QueryPlan(question=question, metrics=["dividends_per_share"],
                     periods=[PeriodRef(fiscal_year=2019, fiscal_period="FY")])
    quoted = search_for_figures(lambda query, filters, whole=False, pool=None: [unit] if query.question == question else [], plan)
    assert quoted and "1.88" in quoted[0].text


def test_a_preferred_stocks_dividend_is_not_the_common_shares():
    """NIKE_2021_10K p79 (Note 10, redeemable preferred stock): "A cumulative dividend of $0.10 per share is payable
    annually": the preferred stock's, not the dividend per common share."""
    text = corpus_page("us", "NIKE_2021_10K.pdf", 79)
    assert "A cumulative dividend of $0.10 per share" in text
    assert per_share_sentence_span(text, "dividends_per_share", frozenset({2021})) is None
    common = text.replace("redeemable preferred stock", "common stock").replace("REDEEMABLE PREFERRED STOCK", "COMMON STOCK")
    assert per_share_sentence_span(common, "dividends_per_share", frozenset({2021})) is not None  # the rule, not the words
