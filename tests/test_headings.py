"""Search units carry the headings printed above them on their page, and BM25 finds a table's rows by them."""

from __future__ import annotations

import re

import pytest

from conftest import corpus_page
from schema.models import DocumentInfo, Page, ParsedDocument
from vectorstore.chunking import chunk
from vectorstore.headings import is_heading, unit_context
from vectorstore.index import NarrativeIndex
from vectorstore.sparse import SPARSE_SETTINGS

CVS = "CVSHEALTH_2022_10K.pdf"  # Item 7's segment analysis: pages 78-88


@pytest.mark.parametrize("line", ["Walmart International Segment", "CONSOLIDATED BALANCE SHEETS", "Results of Operations",
                                  "Note 12. Taxes", "Segment information", "（三）主营业务分析", "35、收入", "管理层讨论与分析"])
def test_headings(line):
    assert is_heading(line)


@pytest.mark.parametrize("line", [
    "in the year ended December 31, 2022, compared with",  # a wrapped sentence
    "Net sales $ 120,130 $ 120,824 $ 118,068",  # a table row
    "Memberships:",  # a label inside a table
    "The following table presents revenue by geographic area for each period presented:",
    "As of/ Year Ended December 31, Change",  # a table's period columns
    "Page 46", "□适用 √不适用",
    "本集團的主要重大事件為本公司於二零二一年十月通",  # a line of Chinese prose wrapped at the column's width
    "Hao Wen Holdings Limited which is listed on GEM of the Stock",
])
def test_not_headings(line):
    assert not is_heading(line)


def test_a_wrapped_label_is_no_heading_and_the_nearest_headings_are_kept():
    page = ("Segment Results\nDomestic Streaming Segment\nAs of/ Year Ended December 31, Change\n2017 2016 2015\n"
            "Average monthly revenue per paying\nmembership $ 10.18 $ 9.21 $ 8.50\nContribution profit:\n"
            "Revenues $ 6,153,025 $ 5,077,307\n")
    at = page.index("Revenues")
    assert unit_context(page, 0, at) == "Segment Results\nDomestic Streaming Segment"
    assert unit_context(page, 0, 0) is None  # nothing above the page's first unit: its own heading is in its text


def _cvs() -> ParsedDocument:
    pages = [Page(page=n, text=corpus_page("us", CVS, n)) for n in range(78, 89)]
    info = DocumentInfo(document_id="c" * 64, market="US", company_id="cvs", form="10-K", fiscal_year=2022,
                        fiscal_period="FY", language="en")
    return ParsedDocument(info=info, pages=pages, parser="test/1")


def test_a_segment_row_cut_from_its_heading_is_found_by_it(tmp_path):
    """Page 85 prints "Retail/LTC Segment", its table, and on a unit of its own the table's "Operating income
    $ 3,778" row, which names no segment; the other segments' pages print the same row. Asked for the Retail/LTC
    segment's operating income, BM25 ranks the row's unit above the other segments' rows because it carries its heading
    (without it, it scores no higher than theirs)."""
    doc = _cvs()
    units, _ = chunk(doc.info, doc.pages, [], "CVSHEALTH_2022_10K")
    row = next(u for u in units if u.page == 85 and "Operating income $ 3,778" in u.text)
    assert "Retail" not in row.text and (row.context or "").startswith("Retail/LTC Segment")
    index = NarrativeIndex(tmp_path, models={"US": "hashing@64"})
    index.index_document(doc, "CVSHEALTH_2022_10K")
    bm25 = index.sparse_encoder("filings_us")
    assert bm25.headings and index.model_card("filings_us")["sparse"] == "bm25+pairs+headings"
    query = "Retail/LTC segment operating income"
    others = [u for u in units if u.page in (81, 83) and re.search(r"Operating income \$ [\d,]+", u.text)]
    assert len(others) == 2  # Health Care Benefits' and Pharmacy Services' rows, each under its segment's heading
    hits = index.engine.query_sparse("filings_us", bm25.encode_query(query), k=60)
    order = [h.payload["unit_id"] for h in hits]
    assert all(order.index(row.unit_id) < order.index(u.unit_id) for u in others if u.unit_id in order)
    index.close()
    old = SPARSE_SETTINGS["bm25+pairs"]  # the same units, each without its headings: the row is no better than theirs
    terms = set(old.encode_query(query)[0])
    score = {u.unit_id: sum(v for i, v in zip(*old.encode_unit(u.text, u.context)) if i in terms) for u in [row, *others]}
    assert score[row.unit_id] <= max(score[u.unit_id] for u in others)


def test_an_encoding_without_headings_indexes_the_text_alone():
    """A collection built before units carried their headings keeps its encoding (recorded as ``bm25+pairs``)."""
    old, new = SPARSE_SETTINGS["bm25+pairs"], SPARSE_SETTINGS["bm25+pairs+headings"]
    text, context = "Revenues $ 6,153,025 Cost of revenues 3,319,230", "Domestic Streaming Segment"
    assert old.encode_unit(text, context) == old.encode_document(text)
    assert new.encode_unit(text, context) == new.encode_document(f"{context}\n{text}")
    assert new.encode_unit(text, None) == new.encode_document(text)
