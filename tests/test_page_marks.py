"""Where a character span of a stored page sits in its source: PDF glyph boxes and inline-XBRL page HTML.

A span of ``Page.text`` can only be marked in the source if the mapping gives back exactly the stored page:
these tests compare the mapping's text with ``read_pages`` / ``html_pages`` on corpus files."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest
from lxml import html as lxml_html

from conftest import require_corpus
from parsers.html_fragments import ink_offsets, page_fragments, sanitize
from parsers.html_pages import _WS, html_pages
from parsers.pdf_pages import page_text_boxes, read_pages


@pytest.mark.parametrize("parts", [("cn", "600080_jinhuagufen_2025_q3.pdf"),  # Chinese statements
                                   ("hk", "0717_emperorcapital_2021_annual.pdf"),  # bilingual columns
                                   ("us", "financebench", "pdfs", "AMCOR_2023Q4_EARNINGS.pdf")])
def test_pdf_text_boxes_give_back_the_stored_page_text(parts):
    path = require_corpus(*parts)
    pages = read_pages(path, ocr=False)
    pdf = pdfium.PdfDocument(str(path))
    try:
        for p in pages:
            page = pdf[p.page - 1]
            text, boxes = page_text_boxes(page)
            assert text == p.text, p.page
            assert len(boxes) == len(text)
            # every visible character has its glyph's box on the page; inserted spaces / breaks have none
            width, height = page.get_size()
            for ch, box in zip(text, boxes):
                if ch in " \n":
                    assert box is None
                else:
                    assert box is not None and -1 <= box[0] <= box[2] <= width + 1 and box[1] <= box[3] <= height + 1
    finally:
        pdf.close()


def test_ixbrl_page_fragments_hold_the_page_text():
    path = require_corpus("us", "ixbrl", "aapl-10k-fy2024", "aapl-20240928.htm")
    pages = html_pages(path)
    fragments, fact_pages = page_fragments(path)
    assert len(fragments) == len(pages) == 59
    for p, fragment in zip(pages, fragments):
        shown = "".join(lxml_html.fragment_fromstring(fragment, create_parent="div").itertext()) if fragment else ""
        assert _WS.sub("", shown) == _WS.sub("", p.text), p.page
    # Total net sales FY2024 ($391,035 million, SEC companyfacts) is a displayed fact on the income statement
    page = fact_pages["f-66"]
    assert "Total net sales" in pages[page - 1].text and 'id="fact-f-66"' in fragments[page - 1]
    text = pages[page - 1].text
    start = text.index("391,035")
    assert ink_offsets(text, start, start + 7)[1] - ink_offsets(text, start, start + 7)[0] == 7


def test_sanitizer_keeps_layout_drops_active_content():
    dirty = ('<p style="color:red;background:url(http://x/y.png)" onclick="alert(1)">a<script>alert(2)</script>'
             '<img src=x onerror=alert(3)><a href="javascript:alert(4)">b</a><iframe src="http://x"></iframe>'
             '<span id="fact-1" class="ixf">1</span></p>')
    clean = sanitize(dirty)
    assert 'style="color:red"' in clean and '<span id="fact-1" class="ixf">1</span>' in clean
    for bad in ("url(", "onclick", "<script", "alert(2)", "<img", "onerror", "javascript:", "<iframe", "href"):
        assert bad not in clean, bad
