"""html_pages: physical pages of SEC iXBRL filings, split at CSS page breaks."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import require_corpus

from parsers.html_pages import html_pages

FILES = {
    "aapl-10k-fy2024/aapl-20240928.htm": (50, 70),
    "aapl-10q-fy2025q2/aapl-20250329.htm": (15, 40),
    "hd-10k-fy2024/hd-20250202.htm": (60, 120),
    "ibm-10k-fy2024/ibm-20241231.htm": (20, 60),  # statements are in Exhibit 13, not here
    "nvda-10k-fy2024/nvda-20240128.htm": (60, 120),
    "nvda-10k-fy2025/nvda-20250126.htm": (60, 120),
    "nvda-10q-fy2026q2/nvda-20250727.htm": (25, 60),
    "wfc-10k-fy2024/wfc-20241231.htm": (15, 40),  # MD&A / statements in Exhibit 13
    "wmt-10k-fy2025/wmt-20250131.htm": (60, 120),
}


def test_synthetic_page_breaks(tmp_path: Path):
    doc = tmp_path / "x.htm"
    doc.write_text(
        '<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><head>'
        "<style>p{}</style></head><body>"
        '<div style="display:none"><ix:header>hidden facts</ix:header></div>'
        "<p>Cover   page</p><div>line two</div>"
        '<hr style="page-break-after:always"/>'
        "<table><tr><td><p>Total net sales</p></td><td>$</td><td>391,035</td><td>(3</td><td>)%</td></tr></table>"
        '<div style="page-break-before: always">Third <span>pa</span>ge</div><script>x()</script>'
        '<hr style="page-break-after:always"/></body></html>',
        encoding="utf-8",
    )
    pages = html_pages(doc)
    assert [p.page for p in pages] == [1, 2, 3]
    assert pages[0].text == "Cover page\nline two"
    assert pages[1].text == "Total net sales $391,035 (3)%"
    assert pages[2].text == "Third page"


@pytest.mark.parametrize("rel", sorted(FILES))
def test_corpus_page_counts(rel: str):
    path = require_corpus("us", "ixbrl", *rel.split("/"))
    t = time.perf_counter()
    pages = html_pages(path)
    elapsed = time.perf_counter() - t
    lo, hi = FILES[rel]
    assert lo <= len(pages) <= hi, len(pages)
    assert [p.page for p in pages] == list(range(1, len(pages) + 1))
    assert sum(1 for p in pages if p.text) >= len(pages) - 2
    assert "\n\n" not in "".join(p.text for p in pages)
    assert elapsed < 5  # generous: ~0.1 s measured; the bench reports the figure


def test_aapl_printed_pages_and_statement_row():
    path = require_corpus("us", "ixbrl", "aapl-10k-fy2024", "aapl-20240928.htm")
    pages = html_pages(path)
    # printed footer "Apple Inc. | 2024 Form 10-K | 29" is physical page 31 (cover + TOC before page 1)
    p31 = pages[30].text
    assert p31.split("\n")[-1] == "Apple Inc. | 2024 Form 10-K | 29"
    assert "CONSOLIDATED STATEMENTS OF OPERATIONS" in p31.upper()
    assert "Total net sales 391,035 383,285 394,328" in p31.split("\n")
    # TOC: "Item 1A. Risk Factors 5" -> printed page 5 = physical page 7, where the heading is
    assert "Item 1A. Risk Factors 5" in pages[1].text
    assert "Item 1A. Risk Factors" in pages[6].text.split("\n")
    assert pages[6].text.split("\n")[-1].endswith("| 5")
    # hidden ix:header facts are not page text
    assert "dei:" not in pages[0].text and "FORM 10-K" in pages[0].text
