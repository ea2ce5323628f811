"""The printed-figure fallback: a metric question without a stored row may be answered only by a filing's page
that prints the metric's label and a number; what a company says on an earnings call is no such figure."""

from __future__ import annotations

import pytest

from conftest import require_corpus
from filings import Filings


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    home = tmp_path_factory.mktemp("printed_figures")
    with Filings(home) as f:  # the call only: Coca-Cola has no filing in the corpus, so no stored revenue
        assert not f.ingest(require_corpus("transcripts", "KO_2021_Q4.json"), dense=False).failed
    return home


def test_a_call_is_not_a_printed_figure(home):
    with Filings(home, read_only=True) as f:
        # the call does print "revenue" with a number right after it (its growth rate)
        text = " ".join(r[0] for r in f.con.execute("SELECT text FROM pages").fetchall()).lower()
        assert "revenue growth was 9%" in text
        answer = f.ask("What was Coca-Cola's revenue in 2021?")
    assert answer.plan["metrics"] == ["revenue"]
    assert answer.status == "no_data", answer.answer
    assert not answer.passages


@pytest.fixture(scope="module")
def annual_only(tmp_path_factory):
    home = tmp_path_factory.mktemp("printed_figures_annual")
    with Filings(home) as f:  # 金花股份's 2024 annual report alone: year-end balances, no quarter's report
        assert not f.ingest(require_corpus("cn", "600080_jinhuagufen_2024_annual.pdf"), dense=False).failed
    return home


def test_another_periods_report_is_no_printed_figure(annual_only):
    with Filings(annual_only, read_only=True) as f:
        # the annual report prints 总资产 with its year-end figures; none of them is the balance at 30 September
        text = " ".join(r[0] for r in f.con.execute("SELECT text FROM pages").fetchall())
        assert "总资产" in text
        answer = f.ask("金花股份2024年9月30日的总资产")
    assert answer.plan["metrics"] == ["total_assets"]
    assert answer.status == "no_data", answer.answer
    assert not answer.passages and "FY2024" in answer.reason  # what the warehouse holds instead


def test_a_chinese_label_inside_a_longer_term_has_no_figure():
    from router.fallback import figure_span

    labels = ["总资产", "毛利率"]
    assert figure_span("总资产收益率 0.77", labels) is None  # return on assets, not assets
    assert figure_span("主营业务毛利率\n由上年同期的 39.1%", labels) is None  # the comparative's margin
    text = "总资产（人民币百万元） 5,769,270"
    assert text[slice(*figure_span(text, labels))] == text
    assert figure_span("总资产为1,234亿元", labels) is not None


def test_a_figure_keeps_its_unit_and_its_decimals():
    """Sentences of two HK MD&A extracts (1611_huobitech_2021 p6, 8169_ecotek_2021 p2): the quote ends after the
    unit ("cents": HK46.0276 cents is not HK$46) and after the last decimal, even where the figure starts near the
    end of the label's window."""
    from router.fallback import figure_span, labels_of

    eps = "Basic earnings per share of the Group for Year 2021 was HK46.0276 cents (Year 2020: basic loss per share"
    a, b = figure_span(eps, labels_of("eps_basic"), "per_share")
    assert eps[a:b].endswith("HK46.0276 cents")
    ratio = ("The current ratio, being the ratio of current assets to current liabilities, was approximately \n"
             "1.47 as at 31 October 2021 (31 October 2020: 1.34).")
    a, b = figure_span(ratio, labels_of("current_ratio"), "ratio")
    assert ratio[a:b].endswith("1.47")


@pytest.fixture(scope="module")
def fsm(tmp_path_factory):
    from conftest import ingested_home

    home = ingested_home(tmp_path_factory, "fsm_ratio", [("hk", "1721_fsm_2020_annual.pdf")], dense=False)
    with Filings(home, read_only=True) as f:
        yield f


def test_a_computed_ratio_quotes_the_printed_one_beside_it(fsm):
    """1721_fsm_2020_annual p10: "the Group's current ratio (calculated by dividing current assets by current
    liabilities as at the end of the year) was approximately 7.3 times" - the aside between label and figure is
    skipped, and the printed figure is quoted beside the one computed from the balance sheet."""
    a = fsm.ask("FSM Holdings current ratio at 31 December 2020")
    assert a.status == "answered" and a.route == "sql"
    assert any(r.metric == "current_ratio" and " = " in r.original_label for r in a.rows)
    assert any("approximately 7.3 times" in p.text and p.source["page"] == 10 for p in a.passages)
    assert any("prints its own figure" in c for c in a.caveats)


def test_a_ratio_from_one_figure_to_another_is_the_later_one():
    """2324_capitalvc_2021_annual p12: "current ratio (as defined by current assets/ current liabilities) increased
    from 13.8 as at 30 September 2020 to 14.1 as at 30 September 2021": 13.8 is the earlier year's."""
    from router.fallback import figure_span, labels_of

    text = ("The Group’s current ratio (as defined by current assets/\ncurrent liabilities) increased from 13.8 as at "
            "30 September 2020 to \n14.1 as at 30 September 2021, which was maintained at a healthy")
    a, b = figure_span(text, labels_of("current_ratio"), "ratio")
    assert text[a:b].endswith("14.1")


@pytest.mark.parametrize("text, metric", [
    # PFIZER_2021_10K p113 (a footnote): the amount after the sentence's end is another measure's
    ("(b) The fourth quarter historically reflects higher costs in Cost of sales, Selling, informational and "
     "administrative expenses and Research and development expenses. Certain asset impairments totaled $900 million",
     "rd_expense"),
    # 1611_huobitech_2021 p7: a change ("by 17,400% or HK$121.8 million") and a part of revenue ("generated from")
    ("the business grew dramatically and the revenue has increased by 17,400% or\nHK$121.8 million", "revenue"),
    ("the revenue generated from the provision of asset management services was\nHK$6.6 million", "revenue"),
    ("R&D expenses increased $4.4 billion", "rd_expense"),
    # ibm-20241231 p29: a table of provisions whose row heading starts with the metric's name
    ("Revenue Based Provisions\n2024 $480", "revenue"),
])
def test_no_figure_of_another_sentence_a_change_or_a_part(text, metric):
    from router.fallback import figure_span, labels_of

    assert figure_span(text, labels_of(metric), "money") is None


def test_a_note_reference_is_no_figure():
    """2324_capitalvc_2021_annual p53 (statement row, note 23) and p112 (the note's heading)."""
    from router.fallback import figure_span, labels_of

    row = "Net asset value per share 每股資產淨值 23 1.53 1.63"
    a, b = figure_span(row, labels_of("book_value_per_share"), "per_share")
    assert row[a:b].endswith("1.53")
    assert figure_span("23. NET ASSET VALUE PER SHARE 23", labels_of("book_value_per_share"), "per_share") is None


@pytest.mark.parametrize("text, figure", [
    # 0618_pkuresources_2020_annual-mda-extract p3: whose figure it is and of when between the label and "were"
    ("Basic and diluted loss per share attributable to equity holders of the Company for the Reporting Period were "
     "RMB31.57\ncents (year ended 31 December 2019: RMB37.75 cents).", "RMB31.57\ncents"),
    # 1161_wateroasis_2021_annual p7: an abbreviation defined between the label's words
    ("The consolidated gross profit (“GP”) margin for the Group rose year on year, from 90.5% to 92.2%, as a result",
     "92.2%"),
])
def test_a_label_with_an_abbreviation_defined_inside_it(text, figure):
    from router.fallback import figure_span

    from router.fallback import labels_of

    span = figure_span(text, ["gross profit margin", *labels_of("eps_basic")])
    assert span is not None and text[span[0]: span[1]].endswith(figure)


@pytest.mark.parametrize("text, years, figure", [
    # COCACOLA_2017_10K p65: the first figure is the first year's
    ("This is our 56th consecutive annual increase. Our annual common stock dividend was $1.48 per share, $1.40 per "
     "share and $1.32 per share in 2017, 2016 and\n2015, respectively.", {2017}, "$1.48 per share"),
    # 1161_wateroasis_2021_annual p8: the year's dividend, not the final one before it
    ("recommend the payment of a final dividend of 16.5 HK cents per share, making the full-year dividend 22.0\nHK "
     "cents (2020: 6.0 HK cents) per share.", {2021}, "22.0\nHK cents (2020: 6.0 HK cents) per share"),
])
def test_a_dividend_per_share_printed_in_a_sentence(text, years, figure):
    from router.per_share_sentences import per_share_sentence_span

    span = per_share_sentence_span(text, "dividends_per_share", frozenset(years))
    assert span is not None and text[span[0]: span[1]].endswith(figure)  # (never the final dividend's 16.5 cents)


@pytest.mark.parametrize("text, years", [
    ("Our annual common stock dividend was $1.48 per share, $1.40 per share and $1.32 per share in 2017, 2016 and 2015",
     {2016}),  # the first figure is 2017's: not 2016's
    ("our Board of Directors increased our quarterly dividend by 5 percent, raising it to $0.39 per share, equivalent "
     "to a full year dividend of $1.56 per share in 2018.", {2017}),  # a quarter's, and the next year's
    ("the Board recommended a final dividend of 16.5 HK cents per share", {2021}),  # a part of the year's
    ("a final cash dividend of RMB0.50 per share", {2021}),
    ("The Board does not recommend the payment of any dividend for the year (2020: HK$0.05 per share).", {2021}),
    ("Dividends paid in 2019 were $1.32 per share", {2021}),  # a year before the figure
    ("the dividend was raised to $0.39 per share each quarter", {2021}),  # a quarter's
])
def test_no_dividend_per_share_read_for_another_year_or_a_part(text, years):
    from router.per_share_sentences import per_share_sentence_span

    assert per_share_sentence_span(text, "dividends_per_share", frozenset(years)) is None


def test_a_segment_named_then_its_figure_by_reference():
    """0717_emperorcapital_2021_annual p7: under the heading "Financing", "The Group's financing segment derives ...
    During the Year, the segment's revenue was HK$548.4 million"; "margin financing" in running text names no segment."""
    from router.measure_names import names_measure

    page = ("Financing\nThe Group’s financing segment derives interest income from commercial and personal lending as "
            "well as margin and IPO financing.\nDuring the Year, the segment’s revenue was HK$548.4 million (2020: "
            "HK$779.2 million)")
    assert names_measure(page, "financing segment", "revenue")
    other = ("Placing and Underwriting\nfees from margin financing clients rose.\nDuring the Year, the segment’s "
             "revenue was HK$12.1 million")
    assert not names_measure(other, "financing segment", "revenue")


def test_a_part_and_a_label_in_two_sentences_name_no_measure():
    """0717_emperorcapital_2021_annual p8: "... a number of primary and secondary market financing projects. Revenue from
    the placing and underwriting segment increased to HK$16.3 million" is no revenue of the financing segment."""
    from router.measure_names import names_measure

    text = ("During the Year, the Group participated in a number of primary and secondary market financing projects. "
            "Revenue from the placing and underwriting segment increased to HK$16.3 million")
    assert not names_measure(text, "financing segment", "revenue")
    assert names_measure("Financing segment revenue was HK$548.4 million", "financing segment", "revenue")


def test_a_figure_by_reference_is_quoted_from_the_parts_name_to_its_sentences_end():
    from router.measure_names import by_reference

    page = ("Financing\nThe Group’s financing segment derives interest income from lending.\nDuring the Year, the "
            "segment’s revenue was HK$548.4 million\n(2020: HK$779.2 million), accounting for 81.0% of the Group’s total "
            "revenue. With the visibility on the economic outlook remained uncertain, the Group")
    span = by_reference(page, "financing segment", "revenue")
    assert span is not None
    quote = page[span[0]: span[1]]
    assert quote.startswith("The Group’s financing segment") and quote.endswith("of the Group’s total revenue.")


def test_a_quarters_row_beside_words_of_what_is_anticipated_is_no_guidance():
    """Pfizer_2023Q2_10Q p47 prints Paxlovid's quarter "QTD ... Worldwide $ 143 $ 8,115" beside "in anticipation of
    transition to traditional commercial markets in the second half of 2023"; p44 the year's forecast "Paxlovid revenues
    of approximately $8 billion in 2023 ... These forecasts". A Q2 question's quotes: the quarter's row names the
    quarter, the forecast does not."""
    from router.quote_reading import names_quarter

    row = ("QTD Down 98% Declines primarily driven by:\nInt’l. 143 3,660 (96) (96)\n• No second quarter U.S. sales in "
           "anticipation of transition to traditional\ncommercial markets in the second half of 2023, and\n"
           "(operationally) Worldwide $ 143 $ 8,115 (98) (98)")
    forecast = "Paxlovid revenues of approximately $8 billion in 2023, down 58% from actual 2022 results. These forecasts"
    assert names_quarter(row, {"Q2"}) and not names_quarter(forecast, {"Q2"})


def test_a_banks_tangible_book_value_per_share_is_its_own_printed_figure():
    """JPMORGAN_2023Q2_10Q p3 (highlights): "Book value per share 98.11 ..." and "Tangible book value per share
    (“TBVPS”) 79.90 ...": the shorthand names the tangible one, never the book value per share."""
    from conftest import corpus_page
    from router.fallback import figure_passages
    from schema.models import Passage

    text = corpus_page("us", "JPMORGAN_2023Q2_10Q.pdf", 3)
    page = Passage(text=text, company_id="jpmorgan", source={"doc_name": "JPMORGAN_2023Q2_10Q", "page": 3})
    quoted = figure_passages([page], "tangible_book_value_per_share")
    assert quoted and quoted[0].text.startswith("Tangible book value per share") and "79.90" in quoted[0].text
    assert "98.11" not in quoted[0].text


def test_several_years_asked_quote_the_row_that_prints_the_most_of_them_first():
    """000001_pinganyinhang_2024_annual p19 (补充财务比率): "净息差 1.87 2.38 2.75 -0.51 个百分点" (2024, 2023, 2022); p26
    prints "净息差 1.87% 2.38%" (two years)."""
    from conftest import corpus_page
    from router.fallback import search_for_figures
    from schema.models import Passage, PeriodRef, QueryPlan

    pages = {n: corpus_page("cn", "000001_pinganyinhang_2024_annual.pdf", n) for n in (26, 19)}
    units = [Passage(text=t, company_id="ping_an_bank", source={"doc_name": "pab", "page": n}) for n, t in pages.items()]
    plan = QueryPlan(question="平安银行2022年至2024年的净息差", metrics=["net_interest_margin"], intent="trend",
                     periods=[PeriodRef(fiscal_year=y, fiscal_period="FY") for y in (2022, 2023, 2024)])
    quoted = search_for_figures(lambda query, filters, whole=False, pool=None: units, plan, whole_line=True, each=3)
    assert quoted[0].source["page"] == 19 and "1.87 2.38 2.75" in quoted[0].text
