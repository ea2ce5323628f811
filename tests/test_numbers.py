"""Numbers as an analyst reads them: printed ratios, changes from a loss, CAGR and N-year averages, trailing
twelve months, FX by period. Answers read a real warehouse built from corpus documents; expected values are
typed from the pages cited in the comments, or follow from arithmetic identities."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from conftest import ingested_home
from filings import Filings
from mappings.analysis import analysis
from mappings.formulas import Input, inputs
from mappings.fx import CLOSING_TOLERANCE_DAYS, FxRefused, FxTable
from schema.models import Passage
from router.fallback import figure_passages
from router.formulas import evaluate
from router.growth import sign_change_word

DOCS = [("us", "ixbrl", "nvda-10k-fy2025"), ("us", "ixbrl", "nvda-10q-fy2026q2"), ("us", "ixbrl", "aapl-10k-fy2024"),
        ("cn", "600080_jinhuagufen_2024_annual.pdf"), ("hk", "1161_wateroasis_2021_annual.pdf"),
        ("us", "financebench", "pdfs", "VERIZON_2022_10K.pdf")]


@pytest.fixture(scope="module")
def f(tmp_path_factory):
    fx = Filings(ingested_home(tmp_path_factory, "numbers_home", DOCS), read_only=True)
    yield fx
    fx.close()


def rows(answer, metric, year=None, period=None):
    return [r for r in answer.rows if r.metric == metric and (year is None or r.fiscal_year == year)
            and (period is None or r.fiscal_period == period)]


# ------------------------------------------------------------------------------------ printed ratios
def test_printed_roe_is_stored_and_answered_as_printed(f):
    # 600080 2024 annual p6: 加权平均净资产收益率（%） 4.79 (2024), -2.58 (2023), 2.00 (2022)
    stored = f.sql("SELECT fiscal_year, metric_value, page FROM financial_metrics WHERE stock_code = '600080' "
                   "AND metric_name = 'roe_weighted' AND fiscal_period = 'FY' ORDER BY fiscal_year")
    assert [(int(y), v, p) for y, v, p in stored.itertuples(index=False)] == [
        (2022, Decimal("0.02"), "6"), (2023, Decimal("-0.0258"), "6"), (2024, Decimal("0.0479"), "6")]
    a = f.ask("金花股份2024年净资产收益率")
    assert a.status == "answered"
    r = rows(a, "roe_weighted", 2024)
    assert r and Decimal(r[0].value) == Decimal("0.0479") and r[0].source["page"] == 6
    assert "4.79%" in a.answer and "报告披露值" in a.answer
    assert not rows(a, "roe")  # no computed figure beside the printed one


def test_change_of_a_printed_ratio_is_in_percentage_points(f):
    a = f.ask("金花股份2024年加权平均净资产收益率同比变动")
    pp = rows(a, "roe_weighted_change_pp", 2024)
    assert pp and Decimal(pp[0].value) == Decimal("7.37")  # p6: 增加7.37个百分点


def test_computed_ratio_says_computed_with_its_formula(f):
    a = f.ask("What was Apple's return on equity in fiscal 2024?")
    r = rows(a, "roe", 2024)
    # AAPL FY2024 10-K: net income 93,736; total shareholders' equity 56,950 ($ millions)
    assert r and Decimal(r[0].value) == (Decimal(93736) / Decimal(56950)).quantize(Decimal("1e-10"))
    assert "computed: net_income_parent / equity_parent" in a.answer


# ---------------------------------------------------------------------------------------- growth
def test_growth_from_a_loss_is_not_meaningful_with_the_change_in_amount(f):
    a = f.ask("金花股份2024年归母净利润同比增长")
    assert a.status == "answered"
    change = rows(a, "net_income_parent_change", 2024)
    # p6: 归属于上市公司股东的净利润 74,611,329.88 (2024) vs -42,890,580.25 (2023)
    assert change and Decimal(change[0].value) == Decimal("74611329.88") - Decimal("-42890580.25")
    assert not rows(a, "net_income_parent_yoy")
    assert "n.m." in a.answer and "扭亏为盈" in a.answer and "+117,501,910.13" in a.answer


@pytest.mark.parametrize("metric,current,previous,word", [
    ("net_income", 5, -3, "turned_profit"), ("net_income", -5, 3, "turned_loss"), ("net_income", -2, -3, "loss_narrowed"),
    ("net_income", -4, -3, "loss_widened"), ("operating_cash_flow", 5, -3, "turned_positive"), ("revenue", 5, 0, "from_zero"),
    ("revenue", 5, 3, None), ("revenue", 0, 3, None),
])
def test_sign_change_words(metric, current, previous, word):
    assert sign_change_word(metric, Decimal(current), Decimal(previous)) == word
    if word:
        assert analysis().word(word, zh=True) and analysis().word(word, zh=False)


def test_cagr_over_the_years_asked(f):
    a = f.ask("Nvidia revenue CAGR from FY2023 to FY2025")
    c = rows(a, "revenue_cagr", 2025)
    # NVDA FY2025 10-K income statement: revenue 130,497 (FY2025), 26,974 (FY2023), $ millions
    expected = (Decimal(130497) / Decimal(26974)).sqrt() - 1
    assert c and abs(Decimal(c[0].value) - expected) < Decimal("1e-9")
    assert {(r.metric, r.fiscal_year) for r in a.rows} >= {("revenue", 2023), ("revenue", 2025)}


def test_n_year_average_of_a_ratio(f):
    a = f.ask("What is Nvidia's 3 year average gross margin from FY2023 to FY2025?")
    avg = rows(a, "gross_margin_average", 2025)
    # NVDA FY2025 10-K: gross profit / revenue 97,858/130,497; 44,301/60,922; 15,356/26,974
    margins = [Decimal(97858) / Decimal(130497), Decimal(44301) / Decimal(60922), Decimal(15356) / Decimal(26974)]
    assert avg and abs(Decimal(avg[0].value) - sum(margins) / 3) < Decimal("1e-9")


def test_formula_functions_prev_and_avg():
    formula = "365 * avg(accounts_payable) / (cost_of_revenue + inventory - prev(inventory))"
    assert set(inputs(formula)) == {Input("accounts_payable", 0), Input("accounts_payable", 1), Input("cost_of_revenue", 0),
                                    Input("inventory", 0), Input("inventory", 1)}
    values = {Input("accounts_payable", 0): Decimal(30), Input("accounts_payable", 1): Decimal(10),
              Input("cost_of_revenue", 0): Decimal(350), Input("inventory", 0): Decimal(40), Input("inventory", 1): Decimal(25)}
    assert evaluate(formula, values) == Decimal(365) * 20 / 365
    assert evaluate(formula, {k: v for k, v in values.items() if k.years_back == 0}) is None


# ----------------------------------------------------------------------------------------- TTM
def test_ttm_is_last_fy_plus_ytd_minus_prior_ytd(f):
    a = f.ask("Nvidia TTM revenue")
    t = rows(a, "revenue_ttm")
    # FY2025 10-K: 130,497; FY2026 Q2 10-Q: six months 90,805 (2025) and 56,084 (2024), $ millions
    assert t and Decimal(t[0].value) == Decimal("165218000000")
    assert str(t[0].period_end) == "2025-07-27"
    inputs_shown = {(r.fiscal_year, r.fiscal_period) for r in rows(a, "revenue")}
    assert inputs_shown == {(2025, "FY"), (2026, "H1"), (2025, "H1")}
    assert all(r.source["page"] for r in rows(a, "revenue"))


# ------------------------------------------------------------------------------------------ FX
def test_hkd_closing_rates_sit_in_the_peg_band():
    table = FxTable("/nonexistent")
    for year in range(2019, 2026):
        for month, day in ((3, 31), (6, 30), (9, 30), (12, 31)):
            rate = table.closing("USD", "HKD", dt.date(year, month, day))
            # HKMA Linked Exchange Rate band 7.75-7.85; a cross of two ECB fixings (4-5 figures each) may sit
            # up to ~0.0005 outside it
            assert Decimal("7.749") <= rate.rate <= Decimal("7.851")
            assert 0 <= (dt.date(year, month, day) - rate.date).days <= CLOSING_TOLERANCE_DAYS


def test_rates_far_from_the_period_are_refused():
    table = FxTable("/nonexistent")
    with pytest.raises(FxRefused, match="history"):
        table.closing("USD", "CNY", dt.date(2031, 12, 31))
    with pytest.raises(FxRefused, match="does not cover"):
        table.average("USD", "CNY", dt.date(2001, 1, 1), dt.date(2001, 12, 31))  # ECB fixes CNY from 2005


def test_user_rates_take_precedence(tmp_path):
    (tmp_path / "fx_rates.csv").write_text("date,base,quote,rate,source,kind,start\n"
                                           "2024-12-31,USD,CNY,7.1884,PBOC central parity,closing,\n", encoding="utf-8")
    rate = FxTable(tmp_path).closing("USD", "CNY", dt.date(2024, 12, 31))
    assert (rate.rate, rate.source) == (Decimal("7.1884"), "PBOC central parity")


def test_flows_convert_at_the_average_rate_of_their_own_period(f):
    a = f.ask("Compare Nvidia and Water Oasis revenue in 2021 and 2023")
    wo = rows(a, "revenue", 2021)
    assert wo and wo[0].currency == "HKD" and wo[0].converted
    c = wo[0].converted
    # Water Oasis FY2021 ends 2021-09-30 (annual report p61): the average over Oct 2020 - Sep 2021
    assert c["fx_kind"] == "average" and c["fx_pair"] == "USD/HKD"
    assert dt.date(2020, 10, 1) <= dt.date.fromisoformat(c["fx_start"]) <= dt.date(2020, 10, 8)
    assert dt.date(2021, 9, 23) <= dt.date.fromisoformat(c["fx_date"]) <= dt.date(2021, 9, 30)
    assert Decimal(c["value"].replace(",", "")) == (Decimal(wo[0].value) / Decimal(c["fx_rate"])).quantize(Decimal("0.01"))
    assert any("average rate" in cav for cav in a.caveats)


def test_comparison_of_fiscal_years_ending_in_different_months_says_so(f):
    a = f.ask("Compare Apple and Nvidia revenue in fiscal 2024")
    assert any("fiscal years end in different months" in c and "2024-09-28" in c and "2024-01-28" in c
               for c in a.caveats)


# ------------------------------------------------------------------------------- answered means answered
def test_generic_profit_reads_as_net_income_and_says_so(f):
    a = f.ask("What was Apple's profit in 2024?")
    assert a.status == "answered" and a.route == "sql"
    r = rows(a, "net_income_parent", 2024, "FY")
    assert r and Decimal(r[0].value) == Decimal("93736000000")  # AAPL FY2024 10-K: net income $93,736 million
    assert a.caveats[0].startswith("reading: “profit” read as")


def _page(f, doc_name, page):
    return f.sql(f"SELECT text FROM pages p JOIN documents d USING (document_id) WHERE d.doc_name = '{doc_name}' "
                 f"AND p.page = {page}")["text"][0]


def test_a_passage_answers_only_with_the_metrics_own_figure(f):
    pension = _page(f, "VERIZON_2022_10K", 46)  # "... the funded ratio of the pension plan ..."
    balance = _page(f, "VERIZON_2022_10K", 56)  # balance sheet: "Total current assets 37,857 36,728"
    src = {"document_id": "d", "doc_name": "VERIZON_2022_10K", "page": 46, "char_start": 0, "char_end": len(pension)}
    assert figure_passages([Passage(text=pension, company_id="verizon", source=src)], "quick_ratio") == []
    found = figure_passages([Passage(text=balance, company_id="verizon", source=dict(src, page=56))], "current_assets")
    assert len(found) == 1 and found[0].text.endswith("Total current assets 37,857")
    assert balance[found[0].source["char_start"]:found[0].source["char_end"]] == found[0].text


def test_a_ratio_with_no_stored_inputs_is_no_data_not_a_quote_about_something_else(f):
    a = f.ask("What is Verizon's quick ratio for FY2022?")
    assert not a.passages
    if a.status == "answered":  # once US PDF statements are stored: (current assets - inventory) / current liabilities
        r = rows(a, "quick_ratio", 2022)
        # VERIZON 2022 10-K p56: total current assets 37,857; inventories 2,388; total current liabilities 50,171
        assert r and Decimal(r[0].value) == ((Decimal(37857) - Decimal(2388)) / Decimal(50171)).quantize(Decimal("1e-10"))
    else:
        assert "quick_ratio" in a.reason and "Available" in a.reason


# ------------------------------------------------------------------------ fiscal years as each company names them
US_FILINGS = [("us", "ixbrl"), ("us", "xbrl")]  # every US XBRL filing of the corpus (10-Ks and 10-Qs)


@pytest.fixture(scope="module")
def us(tmp_path_factory):
    fx = Filings(ingested_home(tmp_path_factory, "fiscal_home", US_FILINGS), read_only=True)
    yield fx
    fx.close()


def test_fiscal_n_is_the_companys_own_fiscal_n(us):
    a = us.ask("Home Depot net sales in fiscal 2024")
    r = rows(a, "revenue", period="FY")
    # HD 10-K for the fiscal year ended February 2, 2025 (cover: DocumentFiscalYearFocus 2024): net sales $159,514 million
    assert [(Decimal(x.value), str(x.period_end), x.fiscal_year_label) for x in r] == \
        [(Decimal("159514000000"), "2025-02-02", 2024)]
    assert "fiscal 2024" in a.answer and "2025-02-02" in a.answer


def test_a_calendar_year_is_read_by_period_end_and_says_so(us):
    a = us.ask("Home Depot net sales in 2024")
    r = rows(a, "revenue", 2024, "FY")
    # the year ending in 2024: ended January 28, 2024, which HD calls fiscal 2023 (net sales $152,669 million)
    assert [(Decimal(x.value), str(x.period_end), x.fiscal_year_label) for x in r] == \
        [(Decimal("152669000000"), "2024-01-28", 2023)]
    assert any("read by period end" in c and "2024-01-28" in c for c in a.caveats)


def test_a_year_named_by_its_end_date_is_that_year(us):
    a = us.ask("Home Depot net sales for the fiscal year ended February 2, 2025")
    assert [Decimal(x.value) for x in rows(a, "revenue", period="FY")] == [Decimal("159514000000")]


@pytest.mark.parametrize("question", ["Walmart revenue for the fiscal year ending January 2025",
                                      "Walmart revenue in the January 2025 fiscal year"])
def test_a_year_named_by_its_end_month(us, question):
    a = us.ask(question)
    # WMT 10-K for the fiscal year ended January 31, 2025: total revenues $680,985 million
    assert [(Decimal(x.value), str(x.period_end)) for x in rows(a, "revenue", period="FY")] == \
        [(Decimal("680985000000"), "2025-01-31")]


def test_a_month_named_quarter_is_the_companys_fiscal_quarter(us):
    a = us.ask("Apple revenue in the March 2025 quarter")
    r = rows(a, "revenue")
    # AAPL 10-Q for the quarter ended March 29, 2025 (Q2 of fiscal 2025): net sales, three months, $95,359 million
    assert [(Decimal(x.value), x.fiscal_year, x.fiscal_period, str(x.period_end)) for x in r] == \
        [(Decimal("95359000000"), 2025, "Q2", "2025-03-29")]


def test_comparison_by_own_fiscal_year_gives_both_period_ends(us):
    a = us.ask("Compare Apple and Home Depot revenue in fiscal 2024")
    got = {x.stock_code: (Decimal(x.value), str(x.period_end)) for x in rows(a, "revenue", period="FY")}
    # AAPL 10-K FY2024: total net sales $391,035 million (September 28, 2024); HD fiscal 2024 as above
    assert got == {"AAPL": (Decimal("391035000000"), "2024-09-28"), "HD": (Decimal("159514000000"), "2025-02-02")}
    assert any("end in different months" in c and "2024-09-28" in c and "2025-02-02" in c for c in a.caveats)


def test_trend_over_own_fiscal_years(us):
    a = us.ask("Home Depot net sales fiscal 2022-2024")
    got = {x.fiscal_year_label: Decimal(x.value) for x in rows(a, "revenue", period="FY")}
    # HD 10-K fiscal 2024, income statement: 159,514 (2024), 152,669 (2023), 157,403 (2022), $ millions
    assert got == {2024: Decimal("159514000000"), 2023: Decimal("152669000000"), 2022: Decimal("157403000000")}


def test_cagr_over_own_fiscal_years(us):
    a = us.ask("Home Depot revenue CAGR fiscal 2022-2024")
    c = rows(a, "revenue_cagr")
    # HD net sales fiscal 2022 157,403 and fiscal 2024 159,514 ($ millions): two years of growth
    expected = (Decimal(159514) / Decimal(157403)) ** (Decimal(1) / 2) - 1
    assert c and abs(Decimal(c[0].value) - expected) < Decimal("1e-9")
    assert "fiscal 2022–2024" in a.answer


def test_ttm_to_a_named_quarter(us):
    a = us.ask("Apple TTM revenue to Q2 fiscal 2025")
    t = rows(a, "revenue_ttm")
    # FY2024 10-K 391,035 + six months to March 29, 2025 219,659 - six months to March 30, 2024 210,328 ($ millions)
    assert t and Decimal(t[0].value) == Decimal("400366000000") and str(t[0].period_end) == "2025-03-29"


def test_fiscal_year_grid_equals_each_companys_own_10k(us, corpus):
    from bench.fiscal_grid import grid, us_filings

    filings = us_filings(corpus)
    checks, naming = grid(us, filings)
    bad = [c for c in checks if not c.ok]
    assert not bad, bad
    # the corpus's US 10-Ks: AAPL, HD, IBM, MSFT, NFLX, NVDA, WFC, WMT (IBM and WFC tag no income statement)
    assert set(naming) == {"AAPL", "HD", "IBM", "MSFT", "NFLX", "NVDA", "WFC", "WMT"}
    assert naming["HD"]["offset"] == -1 and naming["NVDA"]["offset"] == 0 and naming["WMT"]["offset"] == 0
    assert {c.ticker for c in checks} >= {"AAPL", "HD", "MSFT", "NFLX", "NVDA", "WMT"} and len(checks) >= 40
