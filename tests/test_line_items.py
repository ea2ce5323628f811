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
    # 3012_amundietfs_2021_annual-fund-fs p13 and 3073_spdrgreaterchina_2021_annual-fund p11: a note and its letter
    ("Management fee 6(a) 114,568 144,675", ["management fee"], True),
    ("Other income 11, 13(i) 659,102 538,576", ["other income"], True),
    ("Management fee payable 6(a) 4,936 10,588", ["management fee"], False),
    # 002821 2025 interim p11: the company as the clause's subject before the label
    ("截至本报告披露日，不含本报告期已确认的收入，公司在手订单总额 10.88 亿美元，为实现全年业绩保持增长态势", ["在手订单总额"], True),
    ("主要客户的在手订单总额 10.88 亿美元", ["订单总额"], False),  # the tail of a longer term
    # 600080 2025 Q3 report p3, 股东信息: the period before the label ("报告期末普通股股东总数 20,096")
    ("报告期末普通股股东总数 20,096 报告期末表决权恢复的优先股", ["普通股股东总数"], True),
    # MGMRESORTS_2023Q2_10Q p30, key hotel statistics: an abbreviation printed in brackets after its name
    ("Revenue per available room (RevPAR) $ 224 $ 208 $ 231 $ 182", ["revpar"], True),
    ("Las Vegas Strip Resorts rooms revenue increased 2% due to an increase in RevPAR.", ["revpar"], False),
    # 603339 2019 annual p10: a clause that opens with its year, and 达到 before the figure
    ("公司 2019年罐式集装箱销量全球市场占有率达到 15.55%，较上年同比有增长。", ["罐式集装箱销量全球市场占有率"], True),
    # 000999_huarunsanjiu_2024_summary p1: what the company did with the amount before its label, 合计为 after it
    ("则 2024年度每 10 股合计派送现金 13.20 元（含税），年度派发现金红利总额合计为 1,695,274,264.20 元（含税）", ["现金红利总额"], True),
    ("公司 2025年前三季度实现营业收入人民币 328.6 亿元，同比增长 18.6%", ["营业收入"], True),  # 603259 2025 Q3 p6
    ("公司2024年度非现金红利总额 5 元", ["现金红利总额"], False),  # the tail of another term still is not
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


@pytest.mark.parametrize("question, amount", [
    ("Nvidia H100 average selling price fiscal 2024", True),  # the item named alone
    ("How much was the cash sign-on bonus Foot Locker paid its new CEO?", True),
    ("华润三九2022年度分红方案，每股派现金多少？", True),
    ("What principal risks and uncertainties does Ri Ying describe in its 2021 annual report?", False),
    ("Why did the brokerage income of Emperor Capital fall in 2021?", False),
])
def test_an_amount_is_asked(question, amount):
    from router.line_items import asks_amount
    from schema.models import QueryPlan

    assert asks_amount(QueryPlan(question=question)) is amount


@pytest.mark.parametrize("question, text, prints", [
    # NVIDIA FY2024 10-K risk factors: mentions of average selling prices, no figure ("10-K" is no amount)
    ("Nvidia H100 average selling price fiscal 2024",
     "In the past, we have experienced a reduction in average selling prices, including due to channel pricing "
     "programs that we have implemented. Our competitors' products described in this annual report on Form 10-K may "
     "result in lower-than-expected selling prices for our products.", False),
    # FOOTLOCKER 8-K of 2022-08-19 p2
    ("Foot Locker Mary Dillon sign-on bonus", "The Employment Agreement provides that Ms. Dillon will also be "
     "provided with a cash sign-on bonus equal to $250,000.", True),
    # 000999 2022 summary p1: the dividend per 10 shares, printed across a line break
    ("华润三九2022年度分红方案，每股派现金多少？", "以 2022年末总股本 98,834.60 万股为基数，向全体股东每 10 股派发现\n"
     "金红利 10 元（含税），送红股 0 股（含税）", True),
    ("华润三九2022年度分红方案，每股派现金多少？", "公司重视对投资者的合理回报，分红政策保持稳定。", False),
    # a page in the other language than the question's is not judged by the question's words
    ("Ping An Bank credit cost FY24", "信贷成本 1.56 1.85 2.01", True),
])
def test_a_passage_prints_the_items_figure(question, text, prints):
    from router.line_items import prints_a_figure
    from schema.models import QueryPlan

    assert prints_a_figure(text, QueryPlan(question=question)) is prints


def test_a_definition_between_label_and_figure_is_an_aside():
    from mappings.vocabulary import simplified_in_place

    # 2324 (Capital VC) 2021 annual report p12, printed in Traditional Chinese
    text = simplified_in_place("資產負債比率\n資產負債比率（定義為計息負債總額╱權益總額）\n為4.5%（二零二零年：8.13%）。")
    labels = ["资产负债比率"]
    span = figure_span(text, labels)
    assert span is not None and own_row(text, span, labels) and text[span[0]: span[1]].endswith("4.5%")


def test_an_amount_printed_before_its_label_with_its_currency():
    from router.line_items import prints_a_figure
    from schema.models import QueryPlan

    # 0618 (PKU Resources) 2020 MD&A extract p6
    text = "As at 31 December 2020, the Group had approximately RMB12,173.9 million interest-bearing bank and other borrowings"
    assert prints_a_figure(text, QueryPlan(question="PKU interest-bearing bank and other borrowings at 31 December 2020"))


def test_a_label_over_its_figure_is_read_below_the_columns_date():
    """3073_spdrgreaterchina_2021_annual-fund p81: "Ongoing Charges" / "Financial year ended" / "30.09.2021 0.48%*":
    the figure is the ratio under the label, never the column's date."""
    from conftest import corpus_page
    from router.line_items import label_over_figure

    text = corpus_page("hk", "3073_spdrgreaterchina_2021_annual-fund.pdf", 81)
    span = label_over_figure(text, ["ongoing charges figure", "ongoing charges"])
    assert span is not None and text[span[0]: span[1]].endswith("0.48%") and text[span[0]:].startswith("Ongoing Charges")
    assert label_over_figure(text, ["fund performance"]) is None  # its next lines are a sentence's, with no row of it


def test_an_item_asked_as_a_rows_name_and_a_columns_is_quoted_from_the_columns_heading():
    """600201_shengwugufen_2020_annual p15 (产销量情况分析表): "主要产品 单位 生产量 销售量 库存量 ..." over "口蹄疫疫苗 万毫升
    87,584.48 77,315.13 12,089.20 ...": 口蹄疫疫苗销售量 is quoted from the header naming 销售量 to the row."""
    from conftest import corpus_page
    from router.line_items import row_under_column

    text = corpus_page("cn", "600201_shengwugufen_2020_annual.pdf", 15)
    span = row_under_column(text, ["口蹄疫疫苗销售量"])
    assert span is not None
    quote = text[span[0]: span[1]]
    assert quote.startswith("主要产品 单位 生产量 销售量") and quote.endswith("口蹄疫疫苗 万毫升 87,584.48 77,315.13 12,089.20 49.11 20.38 119.87")
    assert row_under_column(text, ["口蹄疫疫苗市场份额"]) is None  # no column of that name above the row


@pytest.mark.parametrize("question, label", [
    ("SPDR富時大中華ETF（3073）2021年度股息收入與2020年度相比如何？", "股息收入"),  # the name before its code is no label
    ("3073 2021年管理費是多少", "管理费"),  # a fee is named in three characters
    ("3073 2019年罐式集装箱销量的全球市场占有率是多少？", "罐式集装箱销量全球市场占有率"),  # (的 is printed without)
])
def test_the_label_of_a_chinese_question_about_an_english_filer(question, label):
    from router.line_items import topic_labels
    from router.periods import find_periods
    from schema.models import CompanyRef, QueryPlan

    plan = QueryPlan(question=question, companies=[CompanyRef(company_id="x", matched="3073", via="code")],
                     periods=find_periods(question)[0])
    assert topic_labels(plan)[0] == label


@pytest.mark.parametrize("question, item", [
    ("Amundi ETF management fee for the year ended 30 September 2021?", True),  # "management" names the fee's kind
    ("Amundi ETF restructuring charges 2021", True),
    ("Amundi ETF risk factors 2021", False),
    ("What did Amundi ETF management say about fees in 2021?", False),
    ("Amundi ETF股息收入2021年度与2020年度相比如何？", True),  # two periods compared: their amounts
    ("Amundi ETF股息收入2021年度与2020年度相比如何变化，原因是什么？", False),  # a why question
])
def test_a_line_item_is_asked(question, item):
    from router.line_items import asks_line_item
    from router.periods import find_periods
    from schema.models import CompanyRef, QueryPlan

    plan = QueryPlan(question=question, companies=[CompanyRef(company_id="x", matched="Amundi ETF", via="name")],
                     periods=find_periods(question)[0])
    assert asks_line_item(plan) is item


def test_an_amount_in_hundreds_of_millions_printed_with_a_space():
    """002821 2024 summary p4: "2024 年度公司研发投入 6.16 亿元，占营业收入比例 10.47%": 6.16 亿元 is an amount of money."""
    from conftest import corpus_page
    from router.fallback import labels_of

    text = corpus_page("cn", "002821_kailaiying_2024_summary.pdf", 4)
    span = figure_span(text, labels_of("rd_investment"), "money")
    assert span is not None and " ".join(text[span[0]: span[1]].split()) == "研发投入 6.16 亿元"


def test_an_abbreviation_the_item_ends_in_is_a_label_of_its_own():
    from router.line_items import topic_labels
    from router.periods import find_periods
    from schema.models import CompanyRef, QueryPlan

    question = "MGM Resorts Las Vegas Strip RevPAR in Q2 2023?"
    plan = QueryPlan(question=question, companies=[CompanyRef(company_id="x", matched="MGM Resorts", via="name")],
                     periods=find_periods(question)[0])
    assert topic_labels(plan) == ["las vegas strip revpar", "revpar"]


def test_a_chinese_label_is_looked_for_in_the_words_filings_print_for_it():
    from mappings.vocabulary import with_same_words_zh

    assert "现金红利总额" in with_same_words_zh("现金分红总额") and "现金股利总额" in with_same_words_zh("现金分红总额")
    assert with_same_words_zh("营业成本") == ["营业成本"]
