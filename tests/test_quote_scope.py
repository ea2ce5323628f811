"""The whole year asked for in its words (全年, "full year"): passages that say it come before those that speak only of a
part of it (router.quote_scope.py). 000001 2024 annual: p87 "2024年末期拟以每 10 股派发现金股利人民币 3.62 元", p88 the
interim's 2.46 元, p89 "2024年全年以每 10 股派发现金股利人民币 6.08 元（含税），其中：2024年中期已按 ... 2.46 元"."""

from __future__ import annotations

import re

from conftest import corpus_page
from router.quote_scope import whole_year_first
from schema.models import Passage

DOC = "000001_pinganyinhang_2024_annual.pdf"


def _sentence(number: int, pattern: str) -> Passage:
    text = corpus_page("cn", DOC, number)
    m = re.search(pattern, text, re.S)
    assert m is not None, pattern
    return Passage(text=m.group(0), company_id="ping_an_bank", source={"page": number})


def test_the_whole_years_dividend_before_the_final_and_the_interims():
    final = _sentence(87, r"2024\s*年末期拟以每[^。]*。")
    interim = _sentence(88, r"本行\s*2024\s*年中期利润分配方案[^。]*。")
    year = _sentence(89, r"2024\s*年\s*全年以每[^；]*；")
    ordered = whole_year_first("平安银行2024年全年每10股派发现金股利多少元？", [final, interim, year])
    assert ordered[0] is year and "6.08" in ordered[0].text
    # a question that does not ask for the whole year keeps the search's order
    assert whole_year_first("平安银行2024年末期每10股派发现金股利多少元？", [final, interim, year]) == [final, interim, year]


def test_the_whole_companys_figure_before_a_segments():
    """WMT_2026_Q1: "Globally, we grew e-commerce 22% with each segment delivering growth of at least 20%." and
    "Walmart U.S. comp sales grew 4.5%, aided by strong e-commerce sales growth of 21%."."""
    from conftest import require_corpus
    from router.quote_scope import whole_company_first

    call = require_corpus("transcripts", "WMT_2026_Q1.txt").read_text(encoding="utf-8")
    segment = Passage(text=re.search(r"Walmart U\.S\. comp sales grew[^.]*\.\d[^.]*\.", call).group(0), company_id="w",
                      source={})
    whole = Passage(text=re.search(r"Globally, we grew e-commerce[^.]*\.", call).group(0), company_id="w", source={})
    question = "On Walmart's Q1 FY2026 earnings call, how much did global e-commerce sales grow?"
    assert whole_company_first(question, [segment, whole]) == [whole, segment]
    assert whole_company_first("How much did Walmart U.S. e-commerce sales grow?", [segment, whole]) == [segment, whole]


def test_each_company_asked_has_its_first_passage_among_the_first():
    """Two companies asked ("...分别有多少员工"): the second's first passage is moved up beside the first's, the rest keep
    their order after them; one company asked keeps the search's order (002821 2025 interim p13: "公司员工 9,106 人";
    300347 2025 interim p21: "公司全球员工数量达到 10,251 人")."""
    from router.quote_scope import each_company_first

    tiger = [Passage(text=f"泰格医药 passage {i}", company_id="tigermed", source={"page": i}) for i in range(5)]
    asym = Passage(text="截至报告期期末，公司员工 9,106 人", company_id="asymchem", source={"page": 13})
    ordered = each_company_first([*tiger, asym], ["tigermed", "asymchem"])
    assert ordered[:2] == [tiger[0], asym] and ordered[2:] == tiger[1:]
    assert each_company_first([*tiger, asym], ["tigermed"]) == [*tiger, asym]
