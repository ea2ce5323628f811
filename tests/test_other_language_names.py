"""A part asked by its name in one language is found by the label its filing prints in the other
(router/other_language_names.py, mappings/glossary.py). Labels and figures are read from the corpus pages named beside
each case; names in both languages from the rows that print both."""

from __future__ import annotations

import pytest

from conftest import corpus_page
from mappings.metrics import CJK
from router.other_language_names import name_score, printed_name, row_labels


def labels(market: str, name: str, number: int, chinese: bool) -> list[str]:
    return [label for label in row_labels(corpus_page(market, name, number)) if bool(CJK.search(label)) == chinese]


@pytest.mark.parametrize("market, name, number, asked, printed", [
    # 603339 2019 annual p12, 分产品: "冷冻设备 ... 371,318,215.91"
    ("cn", "603339_sifangkeji_2019_annual.pdf", 12, "freezing equipment", "冷冻设备"),
    # LOCKHEEDMARTIN_2022_10K p39, net sales by segment: "Missiles and Fire Control"
    ("us", "LOCKHEEDMARTIN_2022_10K.pdf", 39, "导弹与火控", "Missiles and Fire Control"),
    # 2324_capitalvc_2021_annual p52 prints both names of each row: "Cash and cash equivalents 現金及現金等價物"
    ("hk", "2324_capitalvc_2021_annual.pdf", 52, "cash and cash equivalents", "現金及現金等價物"),
    ("hk", "2324_capitalvc_2021_annual.pdf", 52, "现金及现金等价物", "Cash and cash equivalents"),
    # 0717_emperorcapital_2021_annual p118: "Segment results 分部業績"
    ("hk", "0717_emperorcapital_2021_annual.pdf", 118, "segment results", "分部業績"),
    # 000001 2024 annual p21, 分部经营数据: "零售金融业务 批发金融业务 其他业务 合计" (the part noun is no word of the name; the
    # dictionary alone would cut 零售 金融业 务)
    ("cn", "000001_pinganyinhang_2024_annual.pdf", 21, "retail banking", "零售金融业务"),
    # 3012_amundietfs_2021_annual-fund-fs p13: "Management fee 6(a) 114,568 144,675"
    ("hk", "3012_amundietfs_2021_annual-fund-fs.pdf", 13, "管理费", "Management fee"),
])
def test_a_part_is_found_by_its_printed_name_in_the_other_language(market, name, number, asked, printed):
    assert printed_name(asked, labels(market, name, number, chinese=not CJK.search(asked))) == printed


@pytest.mark.parametrize("asked, not_this", [
    # 2324_capitalvc_2021_annual p52 prints "Current assets 流動資產" and "Net current assets 流動資產淨值"
    ("net current assets", "流動資產"),
    ("流動資產淨值", "Current assets"),
    ("流動資產", "Net current assets"),
    ("non-current assets", "流動資產"),
])
def test_a_name_that_says_more_or_less_is_another_row(asked, not_this):
    found = printed_name(asked, labels("hk", "2324_capitalvc_2021_annual.pdf", 52, chinese=not CJK.search(asked)))
    assert found != not_this
    assert name_score(asked, not_this) == 0


def test_each_side_saying_what_the_other_does_not_is_another_part():
    # 0717_emperorcapital_2021_annual p138: "Variable-rate loans receivable 應收浮息貸款" beside a fixed-rate row
    assert name_score("variable-rate loans receivable", "應收固定利率貸款") == 0
    assert printed_name("variable-rate loans receivable", ["應收固定利率貸款"]) is None


def test_two_labels_as_good_are_no_answer():
    # 603339's p12 prints 境内 and 境外 rows: a name both would say equally is none of them
    assert printed_name("equipment", ["冷冻设备", "制冷设备"]) is None


@pytest.fixture(scope="module")
def sifang(tmp_path_factory):
    from conftest import ingested_home
    from filings import Filings

    home = ingested_home(tmp_path_factory, "other_language_sifang", [("cn", "603339_sifangkeji_2019_annual.pdf")],
                         dense=False)
    with Filings(home, read_only=True) as f:
        yield f


def test_an_english_question_reads_a_chinese_reports_part(sifang):
    """603339 2019 annual p12: 冷冻设备 营业收入 371,318,215.91 (元); the company's total is not given for it."""
    a = sifang.ask("What revenue did Sifang Technology's freezing equipment products bring in for 2019?")
    assert a.status == "answered" and a.passages
    first = a.passages[0]
    assert first.source["page"] == 12 and "冷冻设备" in first.text and "371,318,215.91" in first.text
    assert not a.rows  # a part: no stored total in its place


def test_of_which_is_no_word_of_a_rows_label():
    assert row_labels("其中：零售金融业务 1,234 5,678") == ["零售金融业务"]


@pytest.mark.parametrize("market, name, number, asked, printed", [
    # 8169_ecotek_2021_annual-mda-extract p1 (English only): "The revenue of water supply plant business for the year
    # ended 31 October 2021 was HK31,252,000"
    ("hk", "8169_ecotek_2021_annual-mda-extract.pdf", 1, "供水厂业务", "water supply plant business"),
    # 002821_kailaiying_2025_interim p11 (Chinese only): "来自欧洲市场客户收入 5.48 亿元"
    ("cn", "002821_kailaiying_2025_interim.pdf", 11, "european customers", "欧洲市场客户"),
])
def test_a_part_named_in_running_text_is_found_in_the_other_language(market, name, number, asked, printed):
    from router.other_language_names import prose_names

    text = corpus_page(market, name, number)
    wanted = [label for label in prose_names(text) if bool(CJK.search(label)) != bool(CJK.search(asked))]
    assert printed in wanted and printed_name(asked, wanted) == printed


def test_a_parts_sentence_may_name_its_period_before_the_figure():
    """8169_ecotek_2021_annual-mda-extract p1: the metric, the part, then "for the year ended 31 October 2021 was"."""
    from router.fallback import labels_of
    from router.part_names import flexible
    from router.part_rows import part_sentence_span

    text = corpus_page("hk", "8169_ecotek_2021_annual-mda-extract.pdf", 1)
    span = part_sentence_span(text, flexible("water supply plant business"), labels_of("revenue"), "money")
    assert span is not None and " ".join(text[span[0]: span[1]].split()).endswith("was HK31,252,000,")


def test_senses_filings_use_that_the_dictionary_lacks():
    """mappings/glossary_extra.yaml: 试验 is a (clinical) trial, 财务费用 finance expenses, 在手订单 a backlog."""
    assert name_score("临床试验技术服务", "clinical trial technology services") == 1.0
    assert name_score("财务费用", "finance expenses") == 1.0 and name_score("在手订单", "backlog") == 1.0


def test_a_label_that_says_the_name_whole_is_not_doubted_beside_fragments():
    # fragments of longer labels a page's text layer cut ("衍生金融资产" as "生金融资") say less of the name
    assert printed_name("finance expenses", ["财务费用", "生金融资", "动金融资"]) == "财务费用"
    # two labels that each say it whole are two readings: neither is taken
    assert printed_name("finance expenses", ["财务费用", "融资费用"]) is None
