"""A part of a metric ("advertising sales", 境外业务收入) and a figure under another accounting standard than the
company's stored ones are never answered with the company's stored total: they are quoted where a filing prints
them, or no_data. Walmart's Q2 fiscal 2025 call (transcripts/WMT_2025_Q2.txt) says "Advertising sales driven by
marketplace sellers were up nearly 50%"; WuXi AppTec's Q1 2025 report (603259_yaomingkangde_2025_q1.pdf) holds
CAS statements only."""

from __future__ import annotations

import pytest

from conftest import ingested_home
from filings import Filings


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    with Filings(ingested_home(tmp_path_factory, "metric_parts", [("transcripts", "WMT_2025_Q2.txt"),
                                                            ("cn", "603259_yaomingkangde_2025_q1.pdf")], dense=False), read_only=True) as fx:
        yield fx


@pytest.mark.parametrize("question, part", [
    ("What were Walmart's advertising sales in Q2 fiscal 2025?", "advertising"),
    ("Walmart eCommerce net sales Q2 fiscal 2025", "ecommerce"),
    ("What was Walmart's Sam's Club membership revenue in Q2 fiscal 2025?", "membership"),
    ("Walmart Greater China net sales Q2 fiscal 2025", "greater china"),  # a place that begins with a comparison word
    ("Walmart 山姆会员店 net sales Q2 fiscal 2025", "山姆会员店"),  # Chinese words before an English metric
    ("Walmart 家电 net sales Q2 fiscal 2025", "家电"),  # a filler word (几家) is no part of a two-character name
])
def test_a_word_before_the_metric_names_a_part(f, question, part):
    plan = f.plan(question)
    assert plan.metrics == [] and [w for w, _ in plan.non_gaap] and plan.non_gaap[0][0].endswith(part)
    assert plan.route == "search"


@pytest.mark.parametrize("question, part", [
    ("Walmart eCommerce adjusted operating income Q2 fiscal 2025", "ecommerce"),
    ("What was Walmart's Sam's Club adjusted EBIT in Q2 fiscal 2025?", "sam club"),  # (the possessive off)
])
def test_a_part_before_a_company_defined_measure_is_kept_with_it(f, question, part):
    """A segment's company-defined measure: the qualifier says which measure, the words before it whose."""
    plan = f.plan(question)
    words = [w for w, _ in plan.non_gaap]
    assert plan.metrics == [] and "adjusted" in words and any(w.endswith(part) for w in words if w != "adjusted")


@pytest.mark.parametrize("question", [
    "What was Walmart's total revenue in Q2 fiscal 2025?",
    "What were Walmart's consolidated net sales in Q2 fiscal 2025?",
    "How much revenue did Walmart report in Q2 fiscal 2025?",
    "Walmart Q2 fiscal 2025 revenue",
    "药明康德2025年一季度营业收入",
    "药明康德2025年全年营业收入",
    "药明康德2025年各季度营业收入",  # a filler at the end may leave one character, which names nothing
])
def test_words_that_do_not_narrow_the_metric(f, question):
    plan = f.plan(question)
    assert plan.metrics == ["revenue"] and plan.non_gaap == []


def test_a_part_is_quoted_from_the_passage_that_names_it(f):
    a = f.ask("What were Walmart's advertising sales in Q2 fiscal 2025?")
    assert a.status == "answered" and not a.rows
    assert any("Advertising sales" in p.text for p in a.passages)
    assert any("part of the company's Revenue" in c for c in a.caveats)


def test_another_standard_than_the_stored_one_is_not_answered_with_it(f):
    cas = f.plan("药明康德2025年一季度按中国会计准则的归母净利润")
    assert cas.metrics == ["net_income_parent"] and cas.non_gaap == []
    q = "药明康德2025年一季度按国际会计准则计算的归母净利润"
    plan = f.plan(q)
    assert plan.metrics == [] and plan.non_gaap == [("国际会计准则", "net_income_parent")]
    a = f.ask(q)
    assert not a.rows and not any("CAS" in (a.answer or "") for _ in [0])


@pytest.mark.parametrize("question, part", [
    ("Walmart membership business revenue Q2 fiscal 2025", "membership business"),  # a part noun ends no part
    ("Walmart international segment operating income Q2 fiscal 2025", "international segment"),
    ("药明康德2025年一季度资本化的研发投入", "资本化"),  # the period's 年 is no part of it
    # the basis asked on stands between (PEPSICO_2022_10K p70 prints "FLNA $ 23,291 ... $ 6,135": a division)
    ("What was PepsiCo's FLNA reported operating profit in 2022?", "flna"),
])
def test_a_part_named_before_a_part_noun(f, question, part):
    plan = f.plan(question)
    assert plan.metrics == [] and plan.non_gaap and plan.non_gaap[0][0] == part


@pytest.mark.parametrize("question, after", [
    ("What was Walmart's goodwill impairment in fiscal 2025?", "impairment"),
    ("Walmart basic EPS from continuing operations fiscal 2025", "from continuing operations"),
    ("Walmart EPS excluding one-time items in fiscal 2025", "excluding one-time items"),
    ("Walmart net income per employee fiscal 2025", "per employee"),
    ("Walmart net sales per square foot fiscal 2025", "per square foot"),
    # a balance summed with others it is listed with (1721_fsm_2020_annual p10 prints "cash and cash equivalents,
    # short-term and pledged bank deposits of approximately S$23.5 million"; the cash alone is S$10,602,000, p61)
    ("Walmart cash and cash equivalents, short-term and pledged bank deposits at the end of fiscal 2025",
     ", short-term and pledged bank deposits"),
    ("Walmart cash and cash equivalents and short-term investments at the end of fiscal 2025", "and short-term investments"),
])
def test_words_after_the_metric_make_another_figure(f, question, after):
    plan = f.plan(question)
    assert plan.metrics == [] and plan.non_gaap and plan.non_gaap[0][0] == after


@pytest.mark.parametrize("question, metric", [
    ("What were Walmart's worldwide net sales in Q2 fiscal 2025?", "revenue"),
    ("Walmart segment revenue Q2 fiscal 2025", "revenue"),  # a part noun alone narrows nothing
    ("Walmart goodwill at the end of fiscal 2025", "goodwill"),
    ("Walmart diluted EPS per share fiscal 2025", "eps_diluted"),
    ("Walmart earnings per diluted share fiscal 2025", "eps_diluted"),
    ("Walmart cash and cash equivalents and total debt at the end of fiscal 2025", "cash_and_equivalents"),
])
def test_words_that_leave_the_metric_whole(f, question, metric):
    plan = f.plan(question)
    assert plan.metrics == [metric] and plan.non_gaap == []


@pytest.mark.parametrize("question, part", [
    # the verb between the metric and the part, the part as the verb's subject, a place the list of places names
    ("How much revenue did Walmart earn from its membership business in Q2 fiscal 2025?", "membership business"),
    ("Net sales generated by the Walmart International segment in Q2 fiscal 2025", "international segment"),
    ("Walmart's revenue attributable to the Sam's Club segment in Q2 fiscal 2025", "sam's club segment"),
    ("How much operating income did Walmart's international segment generate in Q2 fiscal 2025?", "international segment"),
    ("Walmart net sales in Canada Q2 fiscal 2025", "canada"),
    ("Walmart revenue outside the United States Q2 fiscal 2025", "united states"),
    ("How much of Walmart's revenue came from advertising in Q2 fiscal 2025?", "advertising"),
    ("Walmart net sales from other international operations Q2 fiscal 2025", "international"),
    # "for X" / "by X" where X is no company, period or generic word
    ("Walmart net sales for Sam's Club Q2 fiscal 2025", "sam's club"),
    ("What was the operating income for Walmart's international segment in Q2 fiscal 2025?", "international segment"),
    ("Walmart revenue breakdown by segment Q2 fiscal 2025", "segment"),
    # a code in brackets after the name, a possessive subject without a part noun, one deal's figure
    ("How much revenue did Walmart (WMT) earn from advertising in Q2 fiscal 2025?", "advertising"),
    ("How much revenue did Walmart's U.S. stores generate in Q2 fiscal 2025?", "u.s. stores"),
    ("How much goodwill did Walmart record in its purchase price allocation for the Vizio acquisition in fiscal 2025?",
     "acquisition"),
])
def test_a_part_after_the_metric_in_other_forms(f, question, part):
    plan = f.plan(question)
    assert plan.metrics == [] and plan.non_gaap and part in plan.non_gaap[0][0], plan


@pytest.mark.parametrize("question, metric", [
    ("How much revenue did Walmart generate in Q2 fiscal 2025?", "revenue"),
    ("Walmart revenue from its operations in Q2 fiscal 2025", "revenue"),
    ("How much revenue came from contracts with customers at Walmart in Q2 fiscal 2025?", "revenue"),
    ("Walmart revenue for Q2 fiscal 2025", "revenue"),
    ("Walmart revenue for the three months of Q2 fiscal 2025", "revenue"),
    ("What was the revenue for Walmart in Q2 fiscal 2025?", "revenue"),
    ("Walmart revenue for the same period of Q2 fiscal 2025", "revenue"),
    ("Which quarter had the higher revenue at Walmart, Q1 or Q2 fiscal 2025?", "revenue"),  # a comparison's word
])
def test_verbs_and_operations_that_leave_the_metric_whole(f, question, metric):
    plan = f.plan(question)
    assert plan.metrics == [metric] and plan.non_gaap == [], plan


def test_a_whole_named_before_its_part_is_not_asked(f):
    """"营业收入中来自境外客户的收入": the total is where the part is read from; the part alone is asked."""
    plan = f.plan("药明康德2025年一季度营业收入中来自境外客户的收入")
    assert plan.metrics == [] and plan.non_gaap and "境外客户" in plan.non_gaap[0][0], plan


def test_a_parts_name_is_read_without_its_linking_words():
    from router.part_names import part_names

    assert part_names("from the health management and consultancy business")[0][0] == \
        "health management and consultancy business"
    assert part_names("attributable to its international segment")[0][0] == "international segment"
    assert part_names("中来自境外客户的")[0][0] == "境外客户"


def test_a_qualifier_printed_after_the_label_names_the_measure():
    from router.measure_names import names_measure

    assert names_measure("Goodwill impairment losses 1,197 7,008", "impairment", "goodwill")  # KHC 2019 p50
    assert names_measure("本期资本化研发投入 76,168,422.62", "资本化", "rd_investment")  # 600201 2020 p17
    assert not names_measure("Goodwill 35,546 36,503", "impairment", "goodwill")


def test_a_chinese_part_is_named_across_a_line_break_and_without_the_questions_latin_name():
    from router.measure_names import names_measure

    # 002821_kailaiying_2024_summary p3 prints "小\n分子业务实现毛利率 47.95%" and "新兴业务毛利率为 21.67%"
    assert names_measure("通过持续的提升运营效率和成本控制，小\n分子业务实现毛利率 47.95%。", "小分子cdmo业务", "gross_margin")
    assert not names_measure("部分业务仍处于产能爬坡期等因素影响，新兴业务毛利率为 21.67%", "小分子cdmo业务", "gross_margin")


def test_a_part_noun_may_be_left_out_where_the_part_is_printed():
    from router.measure_names import names_measure

    assert names_measure("International net sales were $114.6 billion", "international segment", "revenue")
    assert names_measure("Civil engineering works\nrevenue was S$35.3 million", "civil engineering works", "revenue")


@pytest.mark.parametrize("question, metrics, part", [
    ("药明康德2025年一季度原料药营业收入", [], "原料药"),  # a product named without a marker word
    ("药明康德2025年一季度利息收入", [], None),  # 收入 inside another term names no metric
    ("药明康德2025年一季度租金收入", [], None),  # a kind of income of its own (bare_metric_words.income_kinds)
    ("药明康德2025年一季度原料药收入", [], "原料药"),  # 收入 right after a product's name: the product's revenue
    ("药明康德收入是多少", ["revenue"], None),  # right after the company's name: the company's
    # a question's English words before a Chinese part are none of its name
    ("What was 药明康德's 境外业务收入 in 2025 Q1?", [], "境外业务"),
    ("What is the 境外业务收入 of 药明康德 in 2025 Q1", [], "境外业务"),
    ("药明康德在2025年半年报中对全年整体收入的指引", ["revenue"], None),  # the whole (整体): no part before it
    ("药明康德在2025年半年报中将全年收入指引调整为多少", ["revenue"], None),  # a report and its verb name no part
    ("药明康德2025年一季度境外收入", [], "境外"),  # 收入 after a marker names the part's revenue
    ("药明康德2025年一季度测试业务收入", [], "测试业务"),
    ("药明康德2025年一季度小分子新药工艺研究业务收入", [], "小分子新药工艺研究业务"),  # a long name before a marker word
    ("药明康德2025年一季度公司小分子新药工艺研究业务收入", [], "小分子新药工艺研究业务"),  # less the words that narrow nothing
    ("药明康德2025年一季度公司实现营业收入", ["revenue"], None),  # words that narrow nothing
    ("药明康德2025年一季度的营收", ["revenue"], None),
    ("药明康德2025年一季度按中国会计准则的营业收入", ["revenue"], None),
    # the question's own asking (how, explain) is no part's name: what follows it may be
    ("药明康德管理层如何解释2025年一季度毛利率的变化", ["gross_margin"], None),
    ("药明康德2025年一季度管理层如何解释毛利率的变化", ["gross_margin"], None),
    ("药明康德2025年一季度为什么境外业务收入下降", [], "境外业务"),
])
def test_chinese_words_before_the_metric_name_a_part_or_nothing(f, question, metrics, part):
    plan = f.plan(question)
    assert plan.metrics == metrics
    assert [w for w, _ in plan.non_gaap] == ([part] if part else [])


@pytest.mark.parametrize("question, metrics, qualified", [
    # a transaction's gain or loss is its own line, not the year's profit
    ("Walmart net loss on disposal of subsidiaries in fiscal 2025", [], True),
    ("Walmart gain on sale of business fiscal 2025", [], False),  # "gain" names no metric of the vocabulary
    # revenue from a group of customers is a part; revenue from contracts with customers is revenue
    ("Walmart revenue from Mexico customers in fiscal 2025", [], True),
    ("Walmart revenue from contracts with customers in fiscal 2025", ["revenue"], False),
    # a statement row "Consolidated net income attributable to Walmart" is the parent's; net current liabilities are
    # working capital below zero; turnover days are days outstanding
    ("Walmart consolidated net income attributable to Walmart fiscal 2025", ["net_income_parent"], False),
    ("Walmart consolidated net income fiscal 2025", ["net_income"], False),
    ("Walmart net current liabilities at the end of fiscal 2025", ["working_capital"], False),
    ("Walmart trade receivables turnover days fiscal 2025", ["days_sales_outstanding"], False),
    ("药明康德2025年一季度应收帐款周转天数", ["days_sales_outstanding"], False),
])
def test_words_after_the_metric_and_printed_names(f, question, metrics, qualified):
    plan = f.plan(question)
    assert plan.metrics == metrics and bool(plan.non_gaap) is qualified


@pytest.mark.parametrize("text, qualifier, metric, named", [
    # MICROSOFT_2023_10K: "Microsoft Cloud revenue, which includes Azure and other cloud services" is not Azure's
    ("Our Microsoft Cloud revenue, which includes Azure and other cloud services, was $111.6 billion", "azure",
     "revenue", False),
    ("Revenue from Azure and other cloud services grew 29%", "azure", "revenue", True),
    ("Diluted earnings per share from continuing operations 1.23", "continuing operations", "eps_diluted", True),
    ("Goodwill impairment losses 1,197 7,008", "impairment", "goodwill", True),
])
def test_a_qualifier_after_the_label_is_linked_to_it(text, qualifier, metric, named):
    from router.measure_names import names_measure

    assert names_measure(text, qualifier, metric) is named


@pytest.mark.parametrize("text, amount", [
    # MICROSOFT_2023_10K: what Microsoft Cloud revenue includes names products, not amounts
    ("Revenue from Azure and other cloud services, Office 365 Commercial, the commercial portion of LinkedIn, "
     "Dynamics 365, and other commercial cloud properties", False),
    ("Azure and other cloud services revenue grew 29% in fiscal year 2023", False),  # a growth, no amount
    ("Microsoft Cloud revenue was $111.6 billion, $91.4 billion, and $69.1 billion in fiscal years 2023, 2022, and 2021",
     True),
    ("境外主营业务收入 154,144.57 万元", True),
])
def test_an_amount_of_money_is_printed(text, amount):
    from router.fallback import prints_amount

    assert prints_amount(text) is amount


@pytest.mark.parametrize("question, part", [
    ("Walmart Mexico net sales fiscal 2025", "mexico"),  # a place right after the company's name
    ("Walmart Inc net sales fiscal 2025", None),  # a legal form never
    ("Walmart gross margin on grocery products fiscal 2025", "on grocery products"),
    ("Walmart revenue from membership services fiscal 2025", "from membership services"),
    ("Walmart Europe net sales fiscal 2025", "europe"),  # a place, not a company's name
    ("Walmart net sales from Latin America fiscal 2025", "from latin america"),
    ("Walmart net sales in Japan fiscal 2025", "in japan"),
    ("Walmart net sales in US dollars fiscal 2025", None),  # a currency, not a place
    # a segment's name with "and" in it (names read from 10-Ks: Lockheed Martin's "Rotary and Mission Systems")
    ("Walmart Rotary and Mission Systems net sales fiscal 2025", "rotary and mission systems"),
    ("Walmart and WuXi AppTec revenue 2025", None),  # "and" never starts a part
])
def test_a_place_or_a_line_of_products_names_a_part(f, question, part):
    plan = f.plan(question)
    assert [w for w, _ in plan.non_gaap] == ([part] if part else [])


def test_a_share_of_a_named_companys_metric_sets_it_aside(f):
    plan = f.plan("What share of Walmart's fiscal 2025 net sales came from eCommerce?")
    assert plan.metrics == [] and plan.set_aside == ["revenue"]


def test_a_dividend_plan_asks_no_profit():
    from mappings.analysis import analysis

    assert analysis().generic_metric("药明康德2024年度利润分配方案每10股派多少") is None  # 利润 of 利润分配
    assert analysis().generic_metric("药明康德2024年利润是多少")[1] == "net_income_parent"


def test_a_parent_companys_own_statement_is_read_last():
    from router.fallback import consolidated_first
    from schema.models import Passage

    # 300347 2025 interim: the consolidated income statement (p53) and the parent company's (p55)
    parent = Passage(text="母公司利润表\n单位：元\n公允价值变动收益（损失以“—”号填列） -19,750,353.06 29,947,509.96",
                     company_id="tigermed", source={"page": 55})
    group = Passage(text="合并利润表\n单位：元\n公允价值变动收益（损失以“—”号填列） -89,643,957.92 -98,403,141.06",
                    company_id="tigermed", source={"page": 53})
    assert [p.source["page"] for p in consolidated_first([parent, group])] == [53, 55]


def test_a_word_of_the_companys_own_names_is_no_place():
    from router.plan import metric_mentions
    from router.qualifiers import normalised, part_of

    q = "Wisdom Education International revenue for 2021"  # 6068's English name ends in "International"
    start = metric_mentions(q)[0][0]
    company = [(0, len("wisdom education"))]  # the words that resolved the company
    names = frozenset({"wisdom", "education", "international"})
    assert part_of(q, start, company, True, company, names) is None
    assert part_of(q, start, company, True, company, frozenset({"wisdom", "education"})) == "international"
    assert normalised(q).startswith("wisdom education international")


@pytest.mark.parametrize("question, part", [
    ("药明康德2025年一季度测试业务（WuXi Testing）收入是多少？", "测试业务"),  # the English name in brackets is an aside
    ("药明康德2025年一季度化学业务(WuXi Chemistry)收入", "化学业务"),
])
def test_a_part_named_with_its_name_in_brackets(f, question, part):
    plan = f.plan(question)
    assert plan.metrics == [] and plan.non_gaap and plan.non_gaap[0][0] == part


def test_a_share_asked_with_a_bracketed_name_among_the_words_takes_no_total(f):
    plan = f.plan("What share of WuXi AppTec's (药明康德) Q1 2025 revenue came from overseas?")
    assert "revenue" not in plan.metrics


def test_an_average_over_years_names_no_part(f):
    plan = f.plan("药明康德近三年平均营业收入")
    assert plan.metrics == ["revenue"] and not plan.non_gaap


@pytest.mark.parametrize("question, metrics", [
    ("WuXi AppTec cash and bank balances (货币资金) as of 31 March 2025", ["cash_and_deposits"]),
    ("药明康德2025年一季度营业收入（收入）", ["revenue"]),  # the same metric named again: one
])
def test_a_metric_named_again_in_brackets_is_the_one_asked(f, question, metrics):
    assert f.plan(question).metrics == metrics


def test_a_parts_printed_name_in_brackets_is_one_of_its_names():
    from router.part_names import aside_names

    question = "Tigermed revenue from clinical trial technology services (臨床試驗技術服務) in 1H 2025"
    assert aside_names(question, "from clinical trial technology services") == ["临床试验技术服务"]
    assert aside_names("Tigermed revenue from clinical trial technology services in 1H 2025",
                       "from clinical trial technology services") == []


def test_the_same_metric_named_again_in_brackets_keeps_the_part_before_it(f):
    # 息税前利润（EBIT）: one mention of the measure, its part (大中华区) kept
    plan = f.plan("Walmart 2025财年大中华区的息税前利润（EBIT）是多少？")
    assert plan.metrics == [] and [(w, m) for w, m in plan.non_gaap] == [("大中华区", "operating_income")]


def test_a_group_of_customers_is_named_by_its_place_in_the_other_language():
    from router.part_names import part_names

    own, other = part_names("from european customers")
    assert "european" in own and "欧洲" in other
    assert "大中华区" in part_names("greater china")[1]


def test_a_qualifier_asked_in_english_is_found_by_its_chinese_name():
    """300347_taigeyiyao_2025_interim p19: "主营业务毛利率\\n由上年同期的 39.1%下降至 29.4%"; 0328_alco_2025_annual-results
    p20: "本集團持續經營業務的營業額為99,000,000"."""
    from conftest import corpus_page
    from router.measure_names import names_measure

    assert names_measure(corpus_page("cn", "300347_taigeyiyao_2025_interim.pdf", 19), "main-business", "gross_margin")
    assert names_measure(corpus_page("hk", "0328_alco_2025_annual-results.pdf", 20), "from continuing operations",
                         "revenue")
    assert not names_measure(corpus_page("hk", "0328_alco_2025_annual-results.pdf", 20), "from discontinued operations",
                             "revenue")


def test_an_english_question_reads_a_parts_sentence_on_a_chinese_page(f):
    """603259_yaomingkangde_2025_q1 p4: "TIDES 业务（寡核苷酸和多肽）保持高速增长。随着去年新增产能逐季度爬坡，TIDES / 业务收入达到人民币
    22.4 亿元，同比增长 187.6%。" Asked in English, the part's sentence answers; the company's total is not given for it."""
    a = f.ask("WuXi AppTec TIDES revenue in Q1 2025?")
    assert a.status == "answered" and not a.rows
    assert "22.4 亿元" in a.passages[0].text and a.passages[0].source["page"] == 4
