"""A part of a company's figure (a segment's, region's or product's) is read from the breakdown table that prints it,
quoted from the table's top to the part's row (router/part_rows.py). Expected figures are read from the pages named
beside each case; the page text is the corpus PDF's as the parser reads it."""

from __future__ import annotations

import pytest

from conftest import corpus_page
from router.fallback import labels_of
from router.part_names import flexible as _flexible, part_names
from router.part_rows import part_row_span, part_sentence_span, part_table_span


page = corpus_page


def quoted(text: str, qualifier: str, metric: str) -> str | None:
    own, other = part_names(qualifier)
    labels = labels_of(metric)
    for names in (own, other):
        for name in names:
            pattern = _flexible(name)
            for span in (part_row_span(text, pattern, labels), part_table_span(text, pattern, labels),
                         part_sentence_span(text, pattern, labels, None)):
                if span:
                    return text[span[0]: span[1]]
    return None


@pytest.mark.parametrize("market, name, number, qualifier, metric, figure, header", [
    # the part heads a row of a revenue table; its English name in brackets ("测试业务（WuXi Testing）")
    ("cn", "603259_yaomingkangde_2024_summary.pdf", 7, "wuxi testing segment", "revenue", "567,073.84", "营业收入"),
    ("cn", "603259_yaomingkangde_2024_summary.pdf", 7, "测试业务", "revenue", "567,073.84", "营业收入"),
    # a row printed with the part's class word ("骨科类 474,235,247.40 ..." for 骨科类产品; 600080 2024 annual p14)
    ("cn", "600080_jinhuagufen_2024_annual.pdf", 14, "骨科类产品", "revenue", "474,235,247.40", "营业收入"),
    # a region row whose cells the text layer wrapped (境外 ... / 737,763,832.75 ...), under 分地区 营业收入
    ("cn", "603339_sifangkeji_2019_annual.pdf", 12, "境外", "revenue", "737,763,832.75", "分地区"),
    # a product row of the same page's 分产品 table, gross margin among its columns
    ("cn", "603339_sifangkeji_2019_annual.pdf", 12, "罐式集装箱", "gross_margin", "764,321,152.14", "毛利率"),
    ("cn", "603339_sifangkeji_2019_annual.pdf", 12, "罐式集装箱产品", "revenue", "764,321,152.14", "营业收入"),  # 产品 left out
    # the English question's "overseas" is the report's 境外
    ("cn", "300347_taigeyiyao_2025_interim.pdf", 17, "overseas", "revenue", "154,144.57 万元", "境外主营业务收入"),
    # a segment row of a US table; the row's label goes on past the part's name
    ("us", "ADOBE_2015_10K.pdf", 42, "digital marketing segment", "revenue", "1,508.9", "Fiscal"),
    # the table's intro sentence begins on the line before: its qualifier is quoted ("Subscription\nrevenue by ...")
    ("us", "ADOBE_2015_10K.pdf", 41, "digital marketing segment", "revenue", "937.0", "Subscription revenue"),
    ("hk", "1741_riying_2021_annual.pdf", 7, "general building works", "revenue", "70,578", "revenue"),
    # the part heads a table whose row is the metric
    ("us", "CORNING_2021_10K.pdf", 37, "optical communications", "revenue", "Segment net sales $ 4,349 $ 3,563 $ 4,064",
     "Optical Communications segment"),
])
def test_a_parts_figure_is_quoted_with_its_table(market, name, number, qualifier, metric, figure, header):
    quote = quoted(page(market, name, number), qualifier, metric)
    assert quote is not None
    flat = " ".join(quote.split())
    assert figure in flat and header in flat


def test_a_mention_in_running_text_heads_no_table():
    # 603339 2019 annual p6: "按照境外会计准则 ... 营业收入 333,437,272.78" is a quarterly table, not overseas revenue
    text = page("cn", "603339_sifangkeji_2019_annual.pdf", 6)
    assert "境外会计准则" in text
    assert quoted(text, "境外", "revenue") is None


def test_a_longer_row_label_is_another_row():
    text = "Segment revenue (in millions)\nDigital Media Services ....... 120.5 110.2\nTotal revenue 500.0 480.0"
    assert quoted(text, "digital media", "revenue") is None
    assert "120.5" in quoted(text, "digital media services", "revenue")


@pytest.fixture(scope="module")
def lmt(tmp_path_factory):
    from conftest import ingested_home
    from filings import Filings

    home = ingested_home(tmp_path_factory, "part_rows_lmt", [("us", "financebench", "pdfs", f"LOCKHEEDMARTIN_{y}_10K.pdf")
                                                             for y in (2020, 2021, 2022)], dense=False)
    with Filings(home, read_only=True) as f:
        yield f


def test_a_parts_trend_quotes_the_table_that_prints_every_year_asked(lmt):
    """LOCKHEEDMARTIN_2022_10K p39: "2022 2021 2020 / Net sales / Aeronautics $ 26,987 $ 26,748 $ 26,266"; the 2020 and
    2021 10-Ks print the segment's own table with their years (p46 "2020 2019 2018", p45 "2021 2020 2019")."""
    a = lmt.ask("Aeronautics segment net sales of Lockheed Martin in 2020, 2021 and 2022")
    assert a.status == "answered" and a.passages
    first = a.passages[0]
    assert first.source["doc_name"] == "LOCKHEEDMARTIN_2022_10K" and "26,987" in first.text and "26,266" in first.text


@pytest.mark.parametrize("qualifier", ["企业融资分部", "corporate finance segment"])
def test_a_bilingual_row_is_read_by_either_name(qualifier):
    """0717_emperorcapital_2021_annual p5 prints its revenue table in English and Chinese side by side: "Total revenue
    總收入 676,812 917,407" ... "Corporate Finance 企業融資 12,735 9,145"."""
    from mappings.vocabulary import simplified_in_place

    quote = quoted(simplified_in_place(page("hk", "0717_emperorcapital_2021_annual.pdf", 5)), qualifier, "revenue")
    assert quote is not None and quote.rstrip().endswith("12,735 9,145") and "676,812" in quote


def test_a_segments_heading_tells_whose_sentence_it_is():
    """BESTBUY_2023_10K p27: "Our gross profit rate decreased in fiscal 2023, primarily driven by lower product margin
    rates and higher supply chain costs in Canada." under the "International Segment" heading; p26 prints the Domestic
    segment's reason with no heading on its page (the Domestic heading is on p25)."""
    from router.part_names import part_heading

    p27 = page("us", "BESTBUY_2023_10K.pdf", 27)
    at = p27.index("supply chain costs in Canada")
    assert part_heading(p27, at, "international segment") is True
    assert part_heading(p27, at, "domestic segment") is False
    p26 = page("us", "BESTBUY_2023_10K.pdf", 26)
    assert part_heading(p26, p26.index("Our gross profit rate decreased"), "domestic segment") is None


def test_a_parts_name_matches_its_printed_possessive():
    assert _flexible("sam club u.s").search("Sam's Club U.S. had net sales of $90.2 billion")
    assert not _flexible("sam club").search("Samuel's Club")



def test_a_footnote_mark_or_a_row_of_percentages_is_no_parts_amount():
    """wmt-20250131 p78 (segment table) ends a block at "Sam's Club U.S.(1)", its figures on the next page's unit;
    p35 prints comparable sales "Sam's Club U.S. 4.7% 2.3% (1.5)% (2.6)%" (lines as the filing prints them)."""
    from router.part_names import ends_at_part

    table = ("(Amounts in millions) 2025 2024 2023\nWalmart International\nNet sales $121,885 $114,641 $100,983\n"
             "Operating income $5,501 $4,909 $2,965\nSam's Club U.S.(1)")
    pattern = _flexible("sam club u.s")
    assert part_row_span(table, pattern, labels_of("revenue"), "money") is None
    assert ends_at_part(table, "sam club u.s")
    comps = "Comparable sales (calculated from net sales)\nWalmart U.S. 4.8% 5.5% (0.1)% (0.1)%\nSam's Club U.S. 4.7% 2.3% (1.5)% (2.6)%"
    assert part_row_span(comps, pattern, labels_of("revenue"), "money") is None
    sentence = "Sam's Club U.S. had net sales of $90.2 billion for fiscal 2025"
    assert not ends_at_part(sentence, "sam club u.s")


@pytest.mark.parametrize("number, year, figure", [(241, "2024年度", "71,255"), (242, "2023年度", "96,161")])
def test_a_segment_columns_table_is_quoted_with_its_years_heading(number, year, figure):
    """000001 2024 annual p241 prints the business segments' table under "2024年度" (零售金融业务 营业收入 71,255), p242 the
    comparative under "2023年度" (96,161): each quote carries its year, so the comparative is not read as the year's."""
    quote = quoted(page("cn", "000001_pinganyinhang_2024_annual.pdf", number), "零售金融业务", "revenue")
    assert quote is not None and quote.startswith(year) and figure in quote


def test_a_rows_bracketed_note_wrapped_round_its_figures():
    """002821 2025 interim p15 (分地区): "境外（包括北美、欧洲、除中" / "2,474,968,710.69 77.63% ..." / "国大陆地区以外的亚洲地区）"."""
    quote = quoted(page("cn", "002821_kailaiying_2025_interim.pdf", 15), "境外", "revenue")
    assert quote is not None and "2,474,968,710.69" in quote and "营业收入" in quote


def test_a_parts_sentence_is_read_to_its_own_figure():
    """603259 2025 interim p12: "- 实验室分析与测试业务收入人民币 18.9 亿元，同比增长 0.4%。其中，药物安全性评价业务收入同比下降
    2.2%": the part's sentence gives its own figure, not a later sentence's."""
    quote = quoted(page("cn", "603259_yaomingkangde_2025_interim.pdf", 12), "实验室分析与测试业务", "revenue")
    assert quote is not None and quote.replace("\n", "").endswith("18.9 亿元")


def test_a_chinese_sentence_says_other_things_of_the_part_before_its_metric():
    """002821 2025 Q1 p3: "新兴业务收入同比增长超 80%，毛利率 33.05%" (the same sentence gives 小分子业务's margin earlier)."""
    quote = quoted(page("cn", "002821_kailaiying_2025_q1.pdf", 3), "新兴业务", "gross_margin")
    assert quote is not None and quote.endswith("毛利率 33.05%")


def test_a_metric_named_before_its_part_with_each_years_figure():
    """1741_riying_2021_annual p8: "... a decrease in gross profit margin for foundation and site formation works (2020:
    approximately 12.7%; 2021: approximately 6.4%)"; "a gross loss margin for general building works and associated
    services (2020: gross profit margin of approximately 10.9%; ..." gives that part's 2020 figure only: none of it."""
    text = page("hk", "1741_riying_2021_annual.pdf", 8)
    quote = quoted(text, "foundation and site formation works", "gross_margin")
    assert quote is not None and quote.endswith("(2020: approximately 12.7%; 2021: approximately 6.4%)")
    assert quoted(text, "general building works and associated services", "gross_margin") is None


def test_a_figure_a_chinese_sentence_says_a_part_went_to():
    """300347 2025 interim p19: "主营业务毛利率\\n由上年同期的 39.1%下降至 29.4%" (the year's is the one it went to); the
    table above it prints "主营业务成本 224,430.98 200,620.17", a longer term's row, not 主营业务's."""
    text = page("cn", "300347_taigeyiyao_2025_interim.pdf", 19)
    quote = quoted(text, "主营业务", "gross_margin")
    assert quote is not None and quote.endswith("29.4%") and "主营业务成本" not in quote


def test_a_stacked_tables_row_is_read_under_its_own_section():
    """NIKE_2021_10K p91: one table, sections REVENUES ("Greater China 8,290 6,679 6,208") then EARNINGS BEFORE
    INTEREST AND TAXES ("Greater China 3,243 2,490 2,376"); "EBIT" is read with the names filings print it with."""
    from mappings.vocabulary import reading_labels

    text = page("us", "NIKE_2021_10K.pdf", 91)
    labels = [*reading_labels("Nike Greater China EBIT in FY21", "operating_income"), *labels_of("operating_income")]
    span = part_row_span(text, _flexible("greater china"), labels)
    assert span is not None and text[span[0]: span[1]].rstrip().endswith("Greater China 3,243 2,490 2,376")
    revenue = part_row_span(text, _flexible("greater china"), labels_of("revenue"))
    assert revenue is not None and text[revenue[0]: revenue[1]].rstrip().endswith("Greater China 8,290 6,679 6,208")


def test_a_stacked_tables_section_is_known_by_the_name_over_its_years():
    """3M_2022_10K p123: "Net Sales 2022 2021 2020" ("Health Care 8,421 8,597 7,832"), then "Operating Performance 2022
    2021 2020" ("Health Care 1,815 2,037 1,662") whose rows add up to "Total business segment operating income"."""
    text = page("us", "3M_2022_10K.pdf", 123)
    span = part_row_span(text, _flexible("health care"), labels_of("operating_income"), "money")
    assert span is not None and text[span[0]: span[1]].rstrip().endswith("Health Care 1,815 2,037 1,662")
    revenue = part_row_span(text, _flexible("health care"), labels_of("revenue"), "money")
    assert revenue is not None and text[revenue[0]: revenue[1]].rstrip().endswith("Health Care 8,421 8,597 7,832")


def test_a_heading_over_every_segment_is_no_segments_heading():
    """MGMRESORTS_2022_10K p38 heads its segment discussion "Net Revenues by Segment"; p39 goes on with "Las Vegas Strip
    Resorts rooms revenue was $2.7 billion in 2022": no other segment's heading is over it."""
    from router.part_names import part_heading

    p38 = page("us", "MGMRESORTS_2022_10K.pdf", 38)
    assert "Net Revenues by Segment" in p38
    assert part_heading(p38, len(p38), "las vegas strip resorts rooms") is None


def test_a_segments_passage_is_told_from_the_whole_companys():
    """BESTBUY_2024Q2_10Q: p16 "Selected consolidated financial data ... Comparable sales % change (6.2)%" is the
    company's; p19 opens "International segment revenue mix percentages and comparable sales ..."; p18's category
    comparable sales sit under the "Domestic Segment" heading that p17 prints last."""
    from router.part_names import segment_scoped
    from schema.models import Passage

    name = "BESTBUY_2024Q2_10Q.pdf"

    def passage(number: int, words: str) -> Passage:
        text = page("us", name, number)
        at = text.index(words)
        return Passage(text=text[at: at + 200], company_id="best_buy", source={"document_id": "d", "page": number, "char_start": at})

    def page_text(_doc: str, number: int) -> str:
        return page("us", name, number)

    assert not segment_scoped(passage(16, "Selected consolidated financial data"), page_text)
    assert segment_scoped(passage(19, "International segment revenue mix"), page_text)
    assert segment_scoped(passage(18, "Notable comparable sales changes"), page_text)


def test_a_parts_sentence_under_its_own_heading_is_read_with_it():
    """1611_huobitech_2021_annual-mda-extract p7: "(ii) Provision of Software-as-a-Service (“SaaS”)", then "... the
    revenue has increased by 17,400% or HK$121.8 million from HK$0.7 million in Year 2020 to HK$122.5 million in Year
    2021.": the sentence says "the revenue", its heading says whose; the figure is the one the change went to."""
    from router.part_sections import part_section_span

    text = page("hk", "1611_huobitech_2021_annual-mda-extract.pdf", 7)
    span = part_section_span(text, _flexible("saas"), labels_of("revenue"), "money")
    assert span is not None
    quote = text[span[0]: span[1]]
    assert quote.startswith("(ii) Provision of Software-as-a-Service") and quote.endswith("HK$122.5 million in Year 2021.")
    other = part_section_span(text, _flexible("asset management"), labels_of("revenue"), "money")
    assert other is None or "122.5" not in text[other[0]: other[1]]  # the next heading's section is its own


@pytest.fixture(scope="module")
def amcor(tmp_path_factory):
    from conftest import ingested_home
    from filings import Filings

    home = ingested_home(tmp_path_factory, "part_rows_amcor", [("us", "financebench", "pdfs", "AMCOR_2023Q2_10Q.pdf")],
                         dense=False)
    with Filings(home, read_only=True) as f:
        yield f


@pytest.mark.parametrize("period, months, figure", [("quarter ended December 31, 2022", "Three Months Ended", "353"),
                                                    ("six months ended December 31, 2022", "Six Months Ended", "706")])
def test_a_segments_company_defined_measure_is_read_from_its_own_table(amcor, period, months, figure):
    """AMCOR_2023Q2_10Q: p28's segment table prints "Flexibles $ 2,812 ..." under net sales, then "Adjusted earnings
    before interest and taxes ("Adjusted EBIT")" and "Flexibles $ 353 $ 352 $ 706 $ 691"; p36 / p39 print the segment's
    own "Three (Six) Months Ended" tables ("Adjusted EBIT 353 352", "$ 706 $ 691"). The segment's adjusted EBIT is read,
    never its net sales nor the GAAP figure, from a table of the span of months asked."""
    a = amcor.ask(f"Amcor Flexibles segment adjusted EBIT for the {period}")
    assert a.status == "answered" and a.passages
    first = a.passages[0].text
    last = first.rstrip().rsplit("\n", 1)[-1]
    assert "Adjusted" in first and months in first and figure in last and "2,812" not in last


@pytest.mark.parametrize("question, company, segment", [
    ("Netflix international streaming segment contribution profit (loss) in 2015?", "Netflix", "international streaming"),
    ("What was Walmart's International segment unit count?", "Walmart", "International"),
    ("Best Buy domestic segment comparable sales in Q2?", "Best Buy", "domestic"),
    ("What were the segment results in 2015?", None, None),  # no segment's name
])
def test_a_segment_named_without_a_metric_is_read_without_the_companys_name(question, company, segment):
    """A segment a question names by its words when no metric carries it as a part: passages under another segment's
    heading are no answer for it (NETFLIX_2015_10K p21 prints the Domestic table under "Domestic Streaming Segment")."""
    from router.part_names import named_segment
    from schema.models import CompanyRef, QueryPlan

    companies = [CompanyRef(company_id="c", matched=company, via="name")] if company else []
    plan = QueryPlan(question=question, companies=companies)
    assert named_segment(plan) == ([segment] if segment else [])


def _passage(market: str, name: str, number: int):
    from schema.models import Passage

    text = page(market, name, number)
    return Passage(text=text, company_id="x", source={"document_id": "d", "doc_name": name, "page": number,
                                                      "char_start": 0, "char_end": len(text)})


def test_a_part_asked_by_its_rows_name_and_its_groups():
    """1678_chinacreative_2019_annual p11, revenue by product type: "Home decor products" over "Polyresin series 44,597
    38.7 46,719 30.6"; the question names both ("polyresin series home decor products")."""
    from router.part_rows import _in_group

    [quote] = _in_group([_passage("hk", "1678_chinacreative_2019_annual.pdf", 11)], "polyresin series home decor products",
                        labels_of("revenue"), "money")
    assert "Home decor products\nPolyresin series 44,597 38.7 46,719 30.6" in quote.text
    assert _in_group([_passage("hk", "1678_chinacreative_2019_annual.pdf", 11)], "polyresin series garden products",
                     labels_of("revenue"), "money") == []  # no such group above the row


def test_parts_listed_in_one_name_are_each_read():
    """603339 2019 annual p12 (分产品): 冷冻设备 ... 32.51 and 罐式集装箱 ... 17.30, asked as 冷冻设备和罐式集装箱的毛利率."""
    from router.part_rows import _found
    from router.table_cells import listed as _listed

    assert _listed("冷冻设备和罐式集装箱") == ["冷冻设备", "罐式集装箱"]
    assert _listed("food and beverage") == ["food and beverage"]  # an English "and" joins one name's words
    evidence = [_passage("cn", "603339_sifangkeji_2019_annual.pdf", 12)]
    quotes = [q.text for piece in _listed("冷冻设备和罐式集装箱")
              for q in _found(evidence, ([piece],), labels_of("gross_margin"), None, {2019})[:1]]
    assert len(quotes) == 2 and "32.51" in quotes[0] and quotes[1].rstrip().endswith("17.30 -8.34 -3.29")


def test_a_row_name_the_text_layer_split_round_its_figures():
    """300347 2025 interim p23 (分产品): "临床试验技术" / "1,469,530,239.35 1,134,379,478.97 22.81% ..." / "服务": the
    row of 临床试验技术服务, quoted to the name's tail."""
    from router.part_rows import _found
    from router.table_cells import rejoined as _rejoined

    evidence = [_passage("cn", "300347_taigeyiyao_2025_interim.pdf", 23)]
    text = evidence[0].text
    assert len(_rejoined(text, ["临床试验技术服务"])) == len(text)
    [quote] = _found(evidence, (["临床试验技术服务"],), labels_of("gross_margin"), None, {2025})
    assert "22.81%" in quote.text and quote.text.rstrip().endswith("服务") and "毛利率" in quote.text


def test_a_columns_row_without_the_parts_cell_is_not_its_figure():
    """000001 2024 annual p241: "批发金融业务 零售金融业务 其他业务 合计" over "营业收入 63,841 71,255 11,599 146,695" (a cell
    per part) and "净利润 44,508" (the total's alone): the retail segment's net profit is not read from it."""
    text = page("cn", "000001_pinganyinhang_2024_annual.pdf", 241)
    pattern = _flexible("零售金融业务")
    assert "71,255" in text[slice(*part_table_span(text, pattern, labels_of("revenue")))]
    assert part_table_span(text, pattern, labels_of("net_income")) is None


def test_a_row_with_a_text_column_under_a_titled_table():
    """Pfizer_2023Q2_10Q p39, "Significant Product Revenues": "Vyndaqel family ATTR-CM and polyneuropathy 782 552 1,468
    1,164" (product, primary indication, then the quarters' and half-years' revenues), far below the title."""
    from router.part_rows import _found

    [quote] = _found([_passage("us", "Pfizer_2023Q2_10Q.pdf", 39)], (["vyndaqel family"],), labels_of("revenue"), "money",
                     {2023})
    assert quote.text.rstrip().endswith("Vyndaqel family ATTR-CM and polyneuropathy 782 552 1,468 1,164")
    # words around one figure are a sentence, not a text column
    sentence = "Significant Product Revenues\nVyndaqel family revenues grew 41% to 782 in the quarter\n"
    assert part_row_span(sentence, _flexible("vyndaqel family"), labels_of("revenue"), "money") is None


def test_a_part_asked_by_its_abbreviation_is_the_row_it_spells():
    """PEPSICO_2023Q1_EARNINGS p5 prints its divisions' rows: "Frito-Lay North America $ 1,599", "Quaker Foods North
    America 188", "PepsiCo Beverages North America ...", "Latin America", "Europe"."""
    from router.other_language_names import row_labels
    from router.part_names import spelled_by

    labels = row_labels(corpus_page("us", "PEPSICO_2023Q1_EARNINGS.pdf", 5))
    assert spelled_by("QFNA", labels) == "Quaker Foods North America"
    assert spelled_by("PBNA", labels) == "PepsiCo Beverages North America"
    assert spelled_by("FLNA", ["Frito-Lay North America", "Latin America"]) == "Frito-Lay North America"
    assert spelled_by("XYZ", labels) is None and spelled_by("Quaker", labels) is None
