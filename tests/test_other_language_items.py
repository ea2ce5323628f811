"""A line item asked in the language its company's filings do not print: a Traditional-Chinese question about an HK
fund whose report is printed in English only is read from the English row that says the same words
(``router.line_items.other_language_labels``). 3073_spdrgreaterchina_2021_annual-fund p11, the statement of
comprehensive income: "For the year ended 30.09.2021 30.09.2020" over "Dividend income 31,286,751 25,093,136" and
"Management fee 13(d) 2,707,890 1,681,556"."""

from __future__ import annotations

import pytest

from conftest import opened_home


def _keywords_only(tmp_path_factory, name: str, market: str, file: str):
    """One corpus document's warehouse, searched by keywords only, opened read-only for a module."""
    with opened_home(tmp_path_factory, name, [(market, file)], dense=False) as fx:
        yield fx


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    yield from _keywords_only(tmp_path_factory, "other_language_items", "hk", "3073_spdrgreaterchina_2021_annual-fund.pdf")


@pytest.mark.parametrize("question, row", [
    ("SPDR富時大中華ETF（3073）2021年度股息收入是多少？", "Dividend income 31,286,751 25,093,136"),
    ("3073 2021財年管理費是多少？", "Management fee 13(d) 2,707,890 1,681,556"),
])
def test_a_chinese_question_reads_the_english_row(f, question, row):
    answer = f.ask(question)
    assert answer.status == "answered"
    first = answer.passages[0]
    assert first.source["page"] == 11 and " ".join(first.text.split()).endswith(row)
    assert first.text.lstrip().startswith("30.09.2021 30.09.2020")  # the columns' dates, so each figure's year is seen


def test_two_years_compared_are_the_rows_amounts(f):
    answer = f.ask("SPDR富時大中華ETF（3073）2021年度股息收入與2020年度相比如何？")
    assert " ".join(answer.passages[0].text.split()).endswith("Dividend income 31,286,751 25,093,136")


@pytest.fixture(scope="module")
def pku(tmp_path_factory):
    yield from _keywords_only(tmp_path_factory, "other_language_words", "hk", "0618_pkuresources_2020_annual-mda-extract.pdf")


def test_a_chinese_questions_topic_words_search_an_english_page(pku):
    """0618_pkuresources_2020_annual-mda-extract p4 (English only): "Contracted sales ... amounted to approximately
    RMB3.15 billion ..., with an average selling price of approximately RMB9,297 per square meter"."""
    from mappings.glossary import english_glosses

    assert "average" in english_glosses("合约销售平均售价") and "selling price" in english_glosses("合约销售平均售价")
    answer = pku.ask("Peking University Resources (0618) 2020年合约销售的平均售价是多少？")
    assert answer.status == "answered"
    assert any("average selling price of approximately RMB9,297" in " ".join(p.text.split()) for p in answer.passages[:3])


@pytest.fixture(scope="module")
def amundi(tmp_path_factory):
    yield from _keywords_only(tmp_path_factory, "umbrella_fund", "hk", "3012_amundietfs_2021_annual-fund-fs.pdf")


def test_a_fund_without_a_filing_of_its_own_is_read_where_its_name_is_printed(amundi):
    """3012_amundietfs_2021_annual-fund-fs holds both sub-funds' statements and is filed under one of them: p13, "AMUNDI
    Hang Seng HK 35 Index ETF" ... "Management fee 6(a) 114,568 144,675"; p14, "AMUNDI FTSE China A50 Index ETF" ...
    "Management fee 6(a) 1,209,723 1,187,847" (RMB)."""
    filed = {c for (c,) in amundi.con.execute("SELECT DISTINCT company_id FROM documents").fetchall()}
    assert "amundi_a50_etf" not in filed
    answer = amundi.ask("Amundi FTSE China A50 Index ETF 2021財年管理費是多少？")
    assert answer.status == "answered" and answer.passages[0].source["page"] == 14
    assert " ".join(answer.passages[0].text.split()).endswith("Management fee 6(a) 1,209,723 1,187,847")
    other = amundi.ask("Amundi Hang Seng HK 35 Index ETF 2021財年管理費是多少？")
    assert " ".join(other.passages[0].text.split()).endswith("Management fee 6(a) 114,568 144,675")


def test_the_funds_year_is_the_year_of_the_filing_that_prints_it(amundi):
    """The same report, p25 ("RMB RMB" / "Net assets attributable to unitholders 77,675,703 230,238,630", the A50 fund's
    note 4) and p16 ("Net assets attributable to unitholders" / "at the beginning of the year 230,238,630 ..."): the
    funds' years end on 30 September, so "at 30 September 2021" is the end of the fund's fiscal 2021, and the opening
    balance under a label that goes on is another row."""
    question = "Amundi FTSE China A50 Index ETF net assets attributable to unitholders at 30 September 2021?"
    plan = amundi.plan(question)
    assert [(p.fiscal_year, p.fiscal_period) for p in plan.periods] == [(2021, "FY")]
    first = amundi.ask(question).passages[0]
    assert " ".join(first.text.split()).endswith("Net assets attributable to unitholders 77,675,703 230,238,630")


def test_a_funds_row_is_read_under_its_own_name_not_its_siblings(amundi):
    """p25 of the same report prints both funds' note 4 one under the other: "AMUNDI Hang Seng HK 35 Index ETF" ... "Net
    asset value per unit 21.0504 17.8923", then "AMUNDI FTSE China A50 Index ETF" ... "Net asset value per unit 15.5351
    15.3492"; p31 prints the HK 35 fund's change in it under its name ("Net asset value per unit 17.65 (10.11)")."""
    from router.name_headings import heading_company

    answer = amundi.ask("Amundi FTSE China A50 Index ETF net asset value per unit at 30 September 2021?")
    assert answer.status == "answered"
    assert " ".join(answer.passages[0].text.split()).endswith("Net asset value per unit 15.5351 15.3492")
    rows = [p for p in answer.passages if "Net asset value per unit" in p.text]
    lex = amundi.router.planner.lexicon
    page_text = amundi.router._page_text
    # none under the sibling's name before one under its own
    seen = [heading_company(p, page_text, lex) for p in rows]
    assert "amundi_hk35_etf" not in seen or seen.index("amundi_hk35_etf") > seen.index("amundi_a50_etf")
    other = amundi.ask("Amundi Hang Seng HK 35 Index ETF net asset value per unit at 30 September 2021?")
    assert " ".join(other.passages[0].text.split()).endswith("Net asset value per unit 21.0504 17.8923")


@pytest.fixture(scope="module")
def wuxi_q1(tmp_path_factory):
    yield from _keywords_only(tmp_path_factory, "chinese_only_statements", "cn", "603259_yaomingkangde_2025_q1.pdf")


def test_an_english_line_item_is_read_from_a_chinese_statements_row(wuxi_q1):
    """603259_yaomingkangde_2025_q1 p10, 合并利润表: "财务费用 71,608,394.08 -424,361,845.90" (元). Asked in English, the
    row its statement stored under the Chinese label answers, exact and cited."""
    answer = wuxi_q1.ask("What were WuXi AppTec's finance expenses in the first quarter of 2025?")
    assert answer.status == "answered" and answer.rows
    row = answer.rows[0]
    assert row.value == "71608394.08" and row.currency == "CNY" and row.source["page"] == 10
    assert row.original_label == "财务费用"
