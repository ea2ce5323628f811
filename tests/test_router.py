"""Question understanding and the SQL route. Plans need only the company master; answers read a real
warehouse built from the corpus. Expected numbers are typed from the filings."""

from __future__ import annotations

from decimal import Decimal

import pytest

from conftest import require_corpus
from filings import Filings
from router.answer import unsupported_numbers
from router.periods import find_periods
from router.plan import Planner, find_metrics
from schema.models import Answer, AnswerRow
from warehouse import store


@pytest.fixture(scope="module")
def planner(tmp_path_factory):
    con = store.connect(tmp_path_factory.mktemp("plan_home"))  # the master alone
    yield Planner(con)
    con.close()


@pytest.mark.parametrize("question,periods", [
    ("What did Best Buy say about its inventory in the first half of fiscal 2024?", ["H1", "Q2"]),
    ("金花股份2025年前三季度的经营情况", ["9M", "Q3"]),
    ("How did JPMorgan describe credit costs in Q1 2021?", ["Q1"]),
    ("What did Pfizer report in the fourth quarter of 2022?", ["FY", "Q4"]),
    ("What risks did Apple describe in fiscal 2024?", None),   # a year: every report of it
])
def test_a_quarter_asked_searches_that_periods_reports_first(planner, question, periods):
    from router.search import EVIDENCE, filters_for
    assert filters_for(planner.plan(question), EVIDENCE).get("fiscal_period") == periods


def companies(planner, q):
    return [c.company_id for c in planner.plan(q).companies]


@pytest.mark.parametrize("question,expected", [
    ("What was Apple's revenue in fiscal 2024?", ["apple"]),
    ("Kweichow? no: 金花股份2024年营业收入是多少", ["jinhua"]),
    ("How did AT&T describe its fiber strategy?", ["att"]),
    ("What was T's revenue in 2021?", ["att"]),
    ("Which risks were discussed by management?", []),          # DIS / T never match "discussed"
    ("What did DIS say about parks?", ["disney"]),
    ("Revenue of Technology companies", []),                   # generic words never identify a company
    ("Which Bank reported the highest profit?", []),
    ("Compare the Companies' margins", []),
    ("2359.HK revenue", ["wuxi_apptec"]),
    ("02359 revenue", ["wuxi_apptec"]),
    ("2359 revenue in 2025", ["wuxi_apptec"]),
    ("603259 营业收入", ["wuxi_apptec"]),
    ("6821.HK revenue", ["asymchem"]),
    ("凯莱英和泰格医药的收入对比", ["asymchem", "tigermed"]),
    ("Water Oasis profit for 2021", ["water_oasis"]),
    ("Revenue of 2,359 million", []),                           # an amount is not a listing code
    ("NVDA vs AAPL revenue", ["nvidia", "apple"]),
    ("now what about Lowe's", ["lowes"]),                       # NOW (ServiceNow) only in capitals
])
def test_companies_resolve_right_or_not_at_all(planner, question, expected):
    assert companies(planner, question) == expected


@pytest.mark.parametrize("question,expected", [
    ("FY2024", [(2024, "FY")]), ("fiscal 2024", [(2024, "FY")]), ("2024年度", [(2024, "FY")]),
    ("2024财年", [(2024, "FY")]), ("2024年", [(2024, None)]), ("1Q25", [(2025, "Q1")]),
    ("Q1 2025", [(2025, "Q1")]), ("2025年第一季度", [(2025, "Q1")]), ("2025年上半年", [(2025, "H1")]),
    ("H1 2025", [(2025, "H1")]), ("2025年前三季度", [(2025, "9M")]), ("FY2022-FY2024", [(2022, None), (2023, None), (2024, None)]),
    ("revenue of 2,024 million", []),
    # a range written with "fiscal" on both ends; bare years listed before a year's period share it, and a year
    # written with 年 of its own does not ("2022年和2023年一季度": the year 2022 and a quarter of 2023)
    ("from fiscal 2022 to fiscal 2024", [(2022, None), (2023, None), (2024, None)]),
    ("2022、2023、2024年一季度", [(2022, "Q1"), (2023, "Q1"), (2024, "Q1")]),
    ("2022, 2023 and 2024 Q1", [(2022, "Q1"), (2023, "Q1"), (2024, "Q1")]),
    ("2023、2024年上半年", [(2023, "H1"), (2024, "H1")]),
    ("2022、2023年末", [(2022, "FY"), (2023, "FY")]),
    ("2022年和2023年一季度", [(2022, None), (2023, "Q1")]),
    # a two-digit year before 年, and shorthand run on with Chinese words on either side
    ("金花股份22年Q4单季扣非净利润", [(2022, "Q4")]),
    ("药明康德25Q1非经常性损益", [(2025, "Q1")]),
    ("平安银行24年三季度营收", [(2024, "Q3")]),
    ("24年上半年净利润", [(2024, "H1")]),
    ("英伟达FY24营收", [(2024, "FY")]),
    ("近10年营收", []),  # ten years, not 2010
    ("公司成立20年以来", []),
])
def test_periods(question, expected):
    periods, _ = find_periods(question)
    assert [(p.fiscal_year, p.fiscal_period) for p in periods] == expected


def test_a_month_end_is_an_instant_at_that_date():
    import datetime as dt

    for question, day in [("2025年6月末商誉", dt.date(2025, 6, 30)), ("2024年12月底总负债", dt.date(2024, 12, 31))]:
        [p] = find_periods(question)[0]
        assert p.instant and p.period_end == day


@pytest.mark.parametrize("question", ["2019-2021年末商誉", "2019年至2021年末商誉", "2019到2021年底总负债"])
def test_a_range_of_year_ends_is_each_years_end(question):
    periods, _ = find_periods(question)
    assert [(p.fiscal_year, p.fiscal_period, p.instant) for p in periods] == [
        (2019, "FY", True), (2020, "FY", True), (2021, "FY", True)]


def test_relative_periods():
    assert find_periods("revenue over the last three years")[1] == 3
    assert find_periods("近三年营业收入")[1] == 3
    assert find_periods("latest revenue")[0][0].relative == "latest"


@pytest.mark.parametrize("question,expected", [
    ("营业收入", ["revenue"]), ("营业总收入", ["revenue"]), ("turnover", ["revenue"]), ("net sales", ["revenue"]),
    ("毛利率", ["gross_margin"]), ("gross margin", ["gross_margin"]), ("ROE", ["roe"]), ("R&D spending", ["rd_expense"]),
    ("capex", ["capex"]), ("EPS", ["eps_basic"]), ("diluted EPS", ["eps_diluted"]), ("net income", ["net_income_parent"]),
    ("归母净利润", ["net_income_parent"]), ("扣非净利润", ["net_income_excl_nonrecurring"]),
    ("operating cash flow and capex", ["operating_cash_flow", "capex"]),
    ("2024年末资产总额", ["total_assets"]), ("负债总计", ["total_liabilities"]), ("股东权益总额", ["total_equity"]),
    # 收入 / 收益 / 溢利 name a metric standing alone (HK statements in Chinese print 收益 for revenue), never inside
    # a compound
    ("纯利", ["net_income"]), ("股東應佔純利", ["net_income_parent"]),
    ("集團2021年度收入", ["revenue"]), ("本年度的收益", ["revenue"]), ("截至3月31日止年度溢利", ["net_income"]),
    ("净利润和收入", ["net_income", "revenue"]), ("股東應佔溢利", ["net_income_parent"]),
    ("利息收入", []), ("其他收益", []), ("投资收益率", []), ("收益表", []),
])
def test_metric_aliases(question, expected):
    assert find_metrics(question) == expected


@pytest.mark.parametrize("question,intent,route", [
    ("What was Apple's revenue in fiscal 2024?", "metric", "sql"),
    ("Compare Nvidia and Apple gross margin in fiscal 2024", "comparison", "sql"),
    ("Nvidia revenue FY2023-FY2025", "trend", "sql"),
    ("金花股份近三年营业收入", "trend", "sql"),
    ("What risk factors does Apple describe about its supply chain?", "narrative", "search"),
    ("金花股份的风险因素", "narrative", "search"),
    ("Why did Nvidia's revenue grow in fiscal 2025?", "mixed", "mixed"),
    ("金花股份管理层如何解释2024年营业收入的变化？", "mixed", "mixed"),  # 解释: how management explains a figure
    # a metric's own name is no question word: "attributable" is not the "attribut*" of why
    ("Apple net income attributable to shareholders in fiscal 2024", "metric", "sql"),
    ("Why did Apple's net income attributable to shareholders fall in fiscal 2024?", "mixed", "mixed"),
])
def test_intent_and_route(planner, question, intent, route):
    plan = planner.plan(question)
    assert (plan.intent, plan.route) == (intent, route)


@pytest.mark.parametrize("question,sections", [
    ("What did analysts ask Walmart about pricing in the earnings call?", ["transcript"]),
    ("What questions did analysts ask about margins?", ["transcript"]),
    # an analyst's point of view is no call
    ("How would a credit analyst describe Walmart's liquidity?", []),
    ("What do sell-side analysts think of Apple's services strategy?", []),
    ("What risks does Apple describe?", ["risk_factors"]),
    # one named risk is discussed in MD&A and the notes, not only under Risk Factors
    ("How did Apple's interest rate risk change in fiscal 2024?", []),
])
def test_section_words(planner, question, sections):
    assert planner.plan(question).sections == sections


# ------------------------------------------------------------------------------------- answers
@pytest.fixture(scope="module")
def f(tmp_path_factory):
    home = tmp_path_factory.mktemp("router_home")
    with Filings(home) as fx:
        report = fx.ingest(require_corpus("us", "ixbrl"), require_corpus("cn", "600080_jinhuagufen_2024_annual.pdf"),
                           index=False)
        assert not report.failed
    fx = Filings(home, read_only=True)
    yield fx
    fx.close()


def _row(answer, metric, year, period="FY", code=None):
    hits = [r for r in answer.rows if r.metric == metric and r.fiscal_year == year and r.fiscal_period == period
            and (code is None or r.stock_code == code)]
    assert hits, f"no {metric} {period}{year} row in {[(r.metric, r.fiscal_year) for r in answer.rows]}"
    return hits[0]


@pytest.mark.parametrize("question,pairs", [
    ("Compare Apple's revenue in fiscal 2024 with Nvidia's in fiscal 2025", {"apple": [0], "nvidia": [1]}),
    ("Apple FY2024 vs Nvidia FY2025 revenue", {"apple": [0], "nvidia": [1]}),
    ("Compare Apple and Nvidia revenue in fiscal 2024 and 2025", {}),  # every period for each company
])
def test_periods_paired_with_companies(planner, question, pairs):
    assert planner.plan(question).company_periods == pairs


def test_a_comparison_across_periods_answers_each_companys_own(f):
    a = f.ask("Compare Apple's revenue in fiscal 2024 with Nvidia's in fiscal 2025")
    # Apple total net sales $391,035 million (FY2024 10-K); Nvidia revenue $130,497 million (FY2025 10-K)
    assert sorted((r.stock_code, r.fiscal_year, Decimal(r.value)) for r in a.rows if r.metric == "revenue") == [
        ("AAPL", 2024, Decimal("391035000000")), ("NVDA", 2025, Decimal("130497000000"))]


def test_metric_answer_carries_currency_standard_and_source(f):
    a = f.ask("What was Apple's revenue in fiscal 2024?")
    assert (a.status, a.route) == ("answered", "sql")
    r = _row(a, "revenue", 2024)
    assert Decimal(r.value) == Decimal("391035000000")  # Total net sales $391,035 million (AAPL 10-K)
    assert (r.currency, r.accounting_standard, str(r.period_end)) == ("USD", "US_GAAP", "2024-09-28")
    assert r.source["doc_name"] == "aapl-20240928" and r.source["document_id"]
    assert "391,035,000,000" in a.answer


def test_ratio_is_exact_and_changes_are_in_percentage_points(f):
    a = f.ask("Nvidia gross margin change in fiscal 2025")
    gm25 = _row(a, "gross_margin", 2025)
    # NVDA FY2025 10-K: gross profit $97,858 million on revenue $130,497 million
    assert Decimal(gm25.value) == (Decimal(97858) / Decimal(130497)).quantize(Decimal("1e-10"))
    pp = _row(a, "gross_margin_change_pp", 2025)
    # FY2024: 44,301 / 60,922
    expected = (Decimal(97858) / Decimal(130497) - Decimal(44301) / Decimal(60922)) * 100
    assert abs(Decimal(pp.value) - expected) < Decimal("1e-8")
    assert "pp" in a.answer and "%" not in a.answer.split("change (percentage points)")[1].split("[")[0]
    assert {r.metric for r in a.rows} >= {"gross_profit", "revenue"}  # the components, with their sources


def test_growth_is_exact_decimal(f):
    a = f.ask("Nvidia revenue growth in fiscal 2025")
    g = _row(a, "revenue_yoy", 2025)
    assert Decimal(g.value) == ((Decimal(130497) - Decimal(60922)) / Decimal(60922)).quantize(Decimal("1e-10"))


def test_cross_market_comparison_converts_and_says_so(f):
    a = f.ask("Compare Apple and 金花股份 revenue in 2024")
    assert a.status == "answered" and a.plan["intent"] == "comparison"
    cn = _row(a, "revenue", 2024, code="600080")
    assert Decimal(cn.value) == Decimal("585461786.23")  # 600080 2024 annual p82, 营业收入
    assert cn.currency == "CNY" and cn.converted and cn.converted["currency"] == "USD"
    assert cn.converted["fx_rate"] and cn.converted["fx_date"] and cn.converted["fx_source"]
    assert Decimal(cn.converted["value"].replace(",", "")) == (Decimal("585461786.23") / Decimal(cn.converted["fx_rate"])).quantize(Decimal("0.01"))
    assert any("different accounting standards" in c for c in a.caveats)
    assert any("different currencies" in c for c in a.caveats)


def test_latest_balance_is_the_newest_report_and_latest_period_says_so(f):
    # aapl-20250329 p5 (10-Q, March 29, 2025): Total assets $331,233 million; the FY2024 10-K's $364,980 million is older
    for question in ("What are Apple's latest total assets?", "Apple total assets in the most recent period"):
        a = f.ask(question)
        assert a.status == "answered" and [Decimal(r.value) for r in a.rows if r.metric == "total_assets"] == [
            Decimal("331233000000")], question
    # a flow: "latest" keeps to fiscal years (Total net sales FY2024 $391,035 million)
    a = f.ask("What was Apple's latest revenue?")
    assert [(r.fiscal_year, r.fiscal_period) for r in a.rows if r.metric == "revenue"] == [(2024, "FY")]
    assert find_periods("金花股份最新一期总资产")[0][0].relative == "latest_period"


def test_cash_and_deposits_is_the_balance_sheet_line(f):
    # 600080 2024 annual p78 合并资产负债表: 货币资金 347,680,977.31 (cash_and_equivalents stays the cash-flow statement's)
    a = f.ask("金花股份2024年末货币资金余额")
    assert a.status == "answered" and [(r.metric, Decimal(r.value), r.source["page"]) for r in a.rows] == [
        ("cash_and_deposits", Decimal("347680977.31"), 78)]


def test_market_measures_are_never_computed(f):
    a = f.ask("金花股份2024年市盈率")
    assert a.status == "no_data" and "市盈率" in a.reason and not a.rows and not a.passages
    a = f.ask("Apple's diluted EPS and P/E ratio in fiscal 2024")
    # Diluted EPS $6.08 (aapl-20240928 income statement); the P/E part is named as not answered
    assert [Decimal(r.value) for r in a.rows if r.metric == "eps_diluted"] == [Decimal("6.08")]
    assert any("P/E ratio" in c and "share price" in c for c in a.caveats)


@pytest.mark.parametrize("question", [
    "What was Tencent's revenue in 2024?",            # company not in the warehouse
    "What was Apple's revenue in fiscal 2015?",       # period not covered
    "金花股份2018年营业收入",                             # period not covered
    "What was Apple's net_income_excl_nonrecurring in 2024?",  # metric a US filer does not report
])
def test_unanswerable_is_no_data_with_a_reason(f, question):
    a = f.ask(question)
    assert a.status == "no_data" and a.reason


def test_number_check_catches_numbers_not_in_rows():
    row = AnswerRow(company_id="x", stock_code="X", market="US", fiscal_year=2024, fiscal_period="FY",
                    period_end=None, metric="revenue", value="1000", currency="USD", accounting_standard="US_GAAP",
                    original_label=None, source={"document_id": "d", "doc_name": "x-2024", "page": 3})
    good = Answer(question="q", status="answered", route="sql", plan={}, answer="X revenue FY2024: USD 1,000", rows=[row])
    bad = good.model_copy(update={"answer": "X revenue FY2024: USD 1,200"})
    assert unsupported_numbers(good) == []
    assert unsupported_numbers(bad) == ["1200"]
    # a value cited from two reports: the second one's XBRL fact id is a label, and its digits are the citation's
    also = {"document_id": "e", "doc_name": "x-20240630", "page": "id_6568047_F7A26265-66FD_1_11"}
    cited = row.model_copy(update={"source": dict(row.source, also_in=[also])})
    twice = good.model_copy(update={"rows": [cited], "answer": good.answer + " [x-2024 p3; x-20240630 " + also["page"] + "]"})
    assert unsupported_numbers(twice) == []
    assert unsupported_numbers(twice.model_copy(update={"answer": twice.answer + " up 7%"})) == ["7"]
    # a nine-month period is named "9M": its 9 is the period's name, not a figure; another 9 still is one
    nine = good.model_copy(update={"rows": [row.model_copy(update={"fiscal_period": "9M"})],
                                   "answer": "X revenue 9M 2024: USD 1,000"})
    assert unsupported_numbers(nine) == []
    assert unsupported_numbers(good.model_copy(update={"answer": "X revenue 9M 2024: USD 1,000"})) == ["9"]
