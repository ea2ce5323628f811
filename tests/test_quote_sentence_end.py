"""A quote of a search unit read with its page (router/quote_reading.py). Expected text from the pages named: a quote
that stops inside a Chinese sentence, where its unit was cut, is read on to the sentence's end; a quote that
announces an outlook is read on to its figure."""

from __future__ import annotations

from conftest import corpus_page, require_corpus
from router.quote_reading import on_to_figure, to_sentence_end
from schema.models import Passage




def quote(text: str, start: int, end: int) -> Passage:
    return Passage(text=text[start:end], company_id=None,
                   source={"document_id": "d", "page": 2, "char_start": start, "char_end": end})


def test_a_quote_cut_inside_a_chinese_sentence_is_read_to_its_end():
    """0640_infinitydev_2021_annual-mda-extract p2: "基於上文所述，截至二零二一年及二零二零年九月三十日止年度本集團之溢利分別約
    41,463,000港元及約56,018,000港元，於回顧年度內減少約26.0%。" (printed in two columns: short Chinese lines)."""
    text = corpus_page("hk", "0640_infinitydev_2021_annual-mda-extract.pdf", 2)
    start = text.index("基於上文所述")
    cut = quote(text, start, text.index("溢利分別約") + len("溢利分別約"))
    read = to_sentence_end(cut, lambda _d, _p: text)
    flat = "".join(read.text.split())
    assert flat.endswith("減少約26.0%。") and "41,463,000港元及約56,018,000港元" in flat
    assert text[read.source["char_start"]: read.source["char_end"]] == read.text  # still the page's own text
    whole = quote(text, start, text.index("26.0%。") + len("26.0%。"))
    assert to_sentence_end(whole, lambda _d, _p: text) == whole  # a whole sentence stays as it is


def test_a_quote_announcing_an_outlook_is_read_to_its_figure():
    """AAPL_2025_Q1 (the call's outlook for the March quarter): "We expect services revenue to grow low double digits
    year-over-year. When you remove the negative impact of the foreign exchange headwinds I described earlier, the
    year-over-year growth rate would be comparable to that of the December quarter. We expect gross margin to be
    between 46.5% and 47.5%." """
    text = require_corpus("transcripts", "AAPL_2025_Q1.txt").read_text(encoding="utf-8")
    start = text.index("We expect services revenue to grow low double digits")
    cut = quote(text, start, text.index("year-over-year.", start) + len("year-over-year."))
    read = on_to_figure(cut, lambda _d, _p: text)
    assert read.text.startswith(cut.text) and read.text.endswith("between 46.5% and 47.5%.")
    figure = quote(text, text.index("We expect gross margin to be between"), text.index("47.5%.") + len("47.5%."))
    assert on_to_figure(figure, lambda _d, _p: text) == figure  # a figure given: as it is


def test_a_change_without_its_cause_reads_on_to_the_sentence_that_gives_it():
    """MGMRESORTS_2022_10K p39: "Las Vegas Strip Resorts rooms revenue was $2.7 billion in 2022, compared to $1.4 billion
    in 2021, an increase of 95%. The current year benefited from the inclusion of The Cosmopolitan and a full year of
    revenues from Aria, partially offset by the disposition of The Mirage."."""
    from conftest import corpus_page
    from router.quote_reading import with_reason
    from schema.models import Passage

    page = corpus_page("us", "MGMRESORTS_2022_10K.pdf", 39)
    start = page.index("Las Vegas Strip Resorts rooms revenue was")
    end = page.index("an increase of 95%.", start) + len("an increase of 95%.")
    quote = Passage(text=page[start:end], company_id="mgm_resorts",
                    source={"document_id": "d", "page": 39, "char_start": start, "char_end": end})
    read = with_reason(quote, lambda document_id, number: page)
    assert read.text.startswith(quote.text) and read.text.endswith("the disposition of The Mirage.")
    assert page[read.source["char_start"]: read.source["char_end"]] == read.text


def test_a_quote_announcing_a_table_reads_on_through_its_rows():
    """MGMRESORTS_2022_10K p39: "The following table shows key hotel statistics for our Las Vegas Strip Resorts:" then
    "Year Ended December 31," / "2022 2021 2020" / ... / "Revenue per Available Room (REVPAR) $ 203 $ 128 $ 88", then a
    note and prose."""
    from conftest import corpus_page
    from router.quote_reading import with_table
    from schema.models import Passage

    page = corpus_page("us", "MGMRESORTS_2022_10K.pdf", 39)
    start = page.index("The following table shows key hotel statistics")
    end = page.index(":", start) + 1
    quote = Passage(text=page[start:end], company_id="mgm_resorts",
                    source={"document_id": "d", "page": 39, "char_start": start, "char_end": end})
    read = with_table(quote, lambda document_id, number: page)
    assert read.text.rstrip().endswith("Revenue per Available Room (REVPAR) $ 203 $ 128 $ 88")
    assert "Rooms that were out of service" not in read.text  # the note under the table is no row
    assert page[read.source["char_start"]: read.source["char_end"]] == read.text


def test_a_quote_ending_at_a_heading_reads_on_through_the_table_under_it():
    """NETFLIX_2017_10K p23: a unit ends at the heading "International Streaming Segment"; the table under it prints
    "Paid memberships at end of period 57,834 41,185 27,438 ..." and ends with "Contribution margin 4% (10)% (17)%"."""
    from conftest import corpus_page
    from router.quote_reading import with_table
    from schema.models import Passage

    page = corpus_page("us", "NETFLIX_2017_10K.pdf", 23)
    start = page.index("Our Domestic streaming segment had a contribution margin of 36%")
    end = page.index("International Streaming Segment") + len("International Streaming Segment")
    quote = Passage(text=page[start:end], company_id="netflix",
                    source={"document_id": "d", "page": 23, "char_start": start, "char_end": end})
    read = with_table(quote, lambda document_id, number: page).text
    assert "Paid memberships at end of period 57,834 41,185 27,438" in read
    assert "Contribution margin 4% (10)% (17)%" in read
    assert "we derive revenues from monthly membership fees" not in read  # the prose after the table is not read


def test_a_quote_ending_at_a_tables_row_is_read_through_the_table():
    """6068_wisdomeducation_2021_annual p15: a quote of the table's header and its first row ("High school 15,303 22.0
    13,534 22.5") reads on through "Primary school 26,874 38.6 20,875 34.7" to "Total number of students 69,695 ...",
    and not into the page's foot ("Annual Report 2021 13")."""
    from router.quote_reading import with_table

    text = corpus_page("hk", "6068_wisdomeducation_2021_annual.pdf", 15)
    start = text.index("School Year School Year")
    cut = quote(text, start, text.index("13,534 22.5") + len("13,534 22.5"))
    read = with_table(cut, lambda _d, _p: text)
    assert "Primary school 26,874 38.6 20,875 34.7" in read.text
    assert read.text.rstrip().endswith("Total number of students 69,695 100.0 60,116 100.0")
    assert text[read.source["char_start"]: read.source["char_end"]] == read.text
    prose = quote(text, text.index("The following table sets forth"), text.index("High school") - 1)
    assert with_table(prose, lambda _d, _p: text).text.rstrip().endswith("100.0")  # announced: the table read whole


def test_a_printed_row_of_several_years_is_read_from_its_line_of_years():
    """NETFLIX_2017_10K p19: "2017 2016 2015 2014 2013" / "(in thousands)" / ... / "Free cash flow (1) (2,019,659)
    (1,659,755) (920,557) (126,699) (16,300)": the row quoted with the years above it, each figure's year seen."""
    from router.quote_reading import with_years

    text = corpus_page("us", "NETFLIX_2017_10K.pdf", 19)
    start = text.index("Free cash flow (1)")
    row = quote(text, start, text.index("\n", start))
    read = with_years(row, lambda _d, _p: text)
    assert read.text.startswith("2017 2016 2015 2014 2013") and read.text.endswith("(126,699) (16,300)")
    assert text[read.source["char_start"]: read.source["char_end"]] == read.text
    prose = quote(text, text.index("Free cash flow"), text.index("Free cash flow") + 20)
    assert with_years(prose, lambda _d, _p: "") == prose  # no page to read: as it is


def test_a_table_whose_heading_lines_carry_note_marks_and_abbreviations_is_read_whole():
    """wmt-20250131 (Walmart's 10-K for fiscal 2025), ITEM 2. PROPERTIES: "... are summarized as follows:" then "Total
    Square feet(2)" / "Walmart U.S." / "Supercenters 3,559 632,577" ... "Walmart International Total 5,566 274,420" /
    "Total Company 10,771 1,052,720", then the note "(1)Walmart International unit counts, ...". A heading with a note's
    mark ("feet(2)") or an abbreviation's stops ("U.S.") is a line of the table, not the end of it."""
    from conftest import require_corpus
    from parsers.html_pages import html_pages
    from router.quote_reading import with_table

    pages = html_pages(require_corpus("us", "ixbrl", "wmt-10k-fy2025", "wmt-20250131.htm"))
    text = next(p.text for p in pages if "ITEM 2. PROPERTIES" in p.text and "retail unit counts" in p.text)
    start = text.index("As of January 31, 2025(1), retail unit counts")
    read = with_table(quote(text, start, text.index("as follows:", start) + len("as follows:")), lambda _d, _p: text)
    assert "Walmart International Total 5,566 274,420" in read.text
    assert read.text.rstrip().endswith("Total Company 10,771 1,052,720")  # the note under it is no row
    assert text[read.source["char_start"]: read.source["char_end"]] == read.text


def test_a_quote_cut_inside_an_english_list_of_causes_is_read_to_its_end():
    """1678_chinacreative_2019_annual p10: "This was mainly due to (1) increases in selling and distribution expenses, and
    administrative and other operating expenses; and (2) the net loss arising on deconsolidation of subsidiaries of
    RMB1,329.1 million." A quote that stops at the semicolon reads on to the sentence's end."""
    text = corpus_page("hk", "1678_chinacreative_2019_annual.pdf", 10)
    start = text.index("This was mainly due to (1)")
    cut = quote(text, start, text.index("operating expenses;", start) + len("operating expenses;"))
    read = to_sentence_end(cut, lambda _d, _p: text)
    assert " ".join(read.text.split()).endswith("deconsolidation of subsidiaries of RMB1,329.1 million.")
    assert text[read.source["char_start"]: read.source["char_end"]] == read.text
    whole = quote(text, start, read.source["char_end"])
    assert to_sentence_end(whole, lambda _d, _p: text) == whole  # a whole sentence stays as it is
