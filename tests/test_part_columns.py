"""A part's figure read from a table that prints the parts as columns (router/part_columns.py). Expected figures are
read from the pages named:

- 1161_wateroasis_2021_annual p88: "Product segment Service segment Elimination Consolidated" over "2021 2020" pairs
  in HK$'000; "Sales to external customers 125,211 117,950 704,724 413,424 – – 829,935 531,374"; "Segment results
  15,840 18,353 257,629 79,481 – – 273,469 97,834".
- 0328_alco_2025_annual-results p9: years outside ("二零二五年 二零二四年"), segments inside ("影音產品 電腦產品 抵銷
  總計" twice) in 千港元; under 分類營業額, "外部銷售 – 99,313 – 99,313 – 148,422 – 148,422"; "分類業績 – (42,868) –
  (42,868) – (67,621) – (67,621)".
- 000001_pinganyinhang_2024_annual p21 (2.5.1 盈利与规模, 人民币百万元): "零售金融业务 批发金融业务 其他业务 合计" over
  "2024 年 2023 年" under each; each row an amounts line (金额) and a shares line (占比%), its label round them: 营业收入
  金额 71,255 96,161 63,841 53,581 11,599 14,957 146,695 164,699; 利润总额 金额 356 6,864 ...; 净利润 金额 289 5,525 35,441
  29,558 8,778 11,372 44,508 46,455.
"""

from __future__ import annotations

import pytest

from conftest import corpus_page
from mappings.vocabulary import simplified_in_place
from router.fallback import labels_of
from router.part_columns import column_reading, part_column_span
from router.part_names import flexible as _flexible


@pytest.fixture(scope="module")
def water_oasis() -> str:
    return corpus_page("hk", "1161_wateroasis_2021_annual.pdf", 88)


@pytest.fixture(scope="module")
def alco() -> str:
    return simplified_in_place(corpus_page("hk", "0328_alco_2025_annual-results.pdf", 9))


@pytest.mark.parametrize("part, metric, year, figure", [
    ("service segment", "revenue", 2021, "704,724"),
    ("service", "revenue", 2020, "413,424"),
    ("product segment", "revenue", 2021, "125,211"),
    ("product", "segment_result", 2020, "18,353"),
    ("service segment", "segment_result", 2021, "257,629"),
])
def test_a_part_heading_a_column_pair_is_read_by_its_year(water_oasis, part, metric, year, figure):
    reading = column_reading(water_oasis, _flexible(part), labels_of(metric), {year})
    assert reading is not None and reading.figure == figure and reading.year == year
    assert reading.unit.startswith("HK$") and reading.heading.casefold().startswith(part.split()[0])
    a, b = part_column_span(water_oasis, _flexible(part), labels_of(metric), {year})
    quote = water_oasis[a:b]
    assert quote.startswith("Product segment Service segment") and figure in quote.splitlines()[-1]


@pytest.mark.parametrize("part, metric, year, figure", [
    ("电脑产品", "segment_result", 2025, "(42,868)"),
    ("电脑产品", "segment_result", 2024, "(67,621)"),
    ("电脑产品", "revenue", 2025, "99,313"),  # the row under 分类营业额 (external sales)
    ("电脑产品", "revenue", 2024, "148,422"),
    ("影音产品", "segment_result", 2025, "–"),  # an empty cell is read as printed
])
def test_years_outside_and_parts_inside_are_read_by_both(alco, part, metric, year, figure):
    reading = column_reading(alco, _flexible(part), labels_of(metric), {year})
    assert reading is not None and reading.figure == figure and reading.unit == "千港元"


def test_a_year_the_table_does_not_print_or_a_part_it_does_not_head_is_no_reading(water_oasis, alco):
    assert column_reading(water_oasis, _flexible("service segment"), labels_of("revenue"), {2019}) is None
    assert column_reading(water_oasis, _flexible("retail segment"), labels_of("revenue"), {2021}) is None
    assert column_reading(alco, _flexible("手机产品"), labels_of("segment_result"), {2025}) is None


def test_a_table_whose_cells_do_not_add_up_to_its_total_column_is_no_reading(water_oasis):
    # the same table with one cell changed: the year's segments no longer add up to "Consolidated"
    broken = water_oasis.replace("15,840 18,353 257,629", "15,840 18,353 257,620")
    assert column_reading(broken, _flexible("service segment"), labels_of("segment_result"), {2021}) is None
    # a row with a cell missing has another shape: no reading either
    short = water_oasis.replace("Segment results 15,840 18,353", "Segment results 15,840")
    assert column_reading(short, _flexible("product"), labels_of("segment_result"), {2020}) is None


@pytest.fixture(scope="module")
def ping_an() -> str:
    return corpus_page("cn", "000001_pinganyinhang_2024_annual.pdf", 21)


@pytest.mark.parametrize("part, metric, year, figure", [
    ("零售金融业务", "net_income", 2024, "289"),
    ("零售金融业务", "net_income", 2023, "5,525"),
    ("批发金融业务", "net_income", 2024, "35,441"),
    ("其他业务", "revenue", 2023, "14,957"),
    ("零售金融业务", "pretax_income", 2024, "356"),
])
def test_parts_with_years_under_each_and_rows_of_amounts_and_shares(ping_an, part, metric, year, figure):
    reading = column_reading(ping_an, _flexible(part), labels_of(metric), {year})
    assert reading is not None and reading.figure == figure and reading.year == year and reading.heading == part
    a, b = part_column_span(ping_an, _flexible(part), labels_of(metric), {year})
    quote = ping_an[a:b]
    assert quote.startswith("零售金融业务 批发金融业务") and figure in quote.splitlines()[-2] + quote.splitlines()[-1]
    assert reading.row[:2] in quote and reading.row[-2:] in quote  # the label's pieces round the rows


def test_a_label_printed_above_its_amounts_line_in_spaced_characters(ping_an):
    # the other way text layers print such a table: "净 利 润" on its own lines above "金额 ..."
    lines, out = ping_an.splitlines(), []
    for i, line in enumerate(lines):
        if line.startswith("金额 289"):
            out += ["净 利 润", line]
        elif line.strip() != "净利润":
            out.append(line)
    reading = column_reading("\n".join(out), _flexible("零售金融业务"), labels_of("net_income"), {2024})
    assert reading is not None and reading.figure == "289" and reading.row == "净利润"


def test_a_longer_line_item_that_begins_with_the_label_is_not_its_row():
    text = ("Hotels Restaurants Total\n2021 2021 2021\nHK$'000 HK$'000 HK$'000\n"
            "Total assets less current liabilities 10 20 30\nTotal assets 40 50 90\n")
    reading = column_reading(text, _flexible("hotels"), labels_of("total_assets"), {2021})
    assert reading is not None and reading.figure == "40"


def test_an_english_question_reads_the_column_with_the_figure_stated(water_oasis_home):
    from filings import Filings

    with Filings(water_oasis_home, read_only=True) as f:
        a = f.ask("What was Water Oasis's service segment revenue in 2021?")
    assert a.status == "answered" and a.passages[0].source["page"] == 88
    assert any("Service segment, 2021" in c and "704,724" in c for c in a.caveats)
    assert not a.rows  # a part: no stored total in its place


@pytest.fixture(scope="module")
def water_oasis_home(tmp_path_factory):
    from conftest import ingested_home

    return ingested_home(tmp_path_factory, "part_columns_water_oasis", [("hk", "1161_wateroasis_2021_annual.pdf")],
                         dense=False)
