"""Two-layer chunking: units never cross a page and are exact page substrings; windows ~650 words."""

from __future__ import annotations

import statistics

import pytest

from conftest import require_corpus
from schema.models import DocumentInfo, Page, SectionSpan
from vectorstore.chunking import (FIGURE_SHARE, UNIT_TARGET, WINDOW_TARGET, chunk, content_span, figure_share,
                                  is_table_page, repeated_lines, words)

INFO = DocumentInfo(
    document_id="d" * 64,
    market="US",
    company_id="acme",
    stock_code="ACME",
    form="10-K",
    fiscal_year=2024,
    fiscal_period="FY",
    language="en",
)


_NOUNS = ["revenue", "margin", "demand", "pricing", "inventory", "freight", "wages", "tariffs", "capex", "backlog", "churn"]
_VERBS = ["grew", "fell", "rose", "softened", "improved", "declined", "stabilised"]


def _sentences(n: int, seed: int = 0) -> str:
    out = []
    for i in range(n):
        k = seed + i
        a, b, c = _NOUNS[k % 11], _NOUNS[(k * 7 + 3) % 11], _VERBS[(k * 3) % 7]
        out.append(f"In segment {k} {a} {c} {k % 9} percent as {b} {_VERBS[k % 7]} across the {_NOUNS[(k + 5) % 11]} lines")
    return ". ".join(out) + "."


def _wrap(text: str, width: int = 90) -> str:
    """Break prose into PDF-like visual lines."""
    lines, cur = [], ""
    for w in text.split(" "):
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    lines.append(cur)
    return "\n".join(lines)


def _doc(n_pages: int = 6) -> list[Page]:
    pages = []
    for i in range(1, n_pages + 1):
        body = _wrap(_sentences(40 + 10 * (i % 3), seed=i * 100))
        pages.append(Page(page=i, text=f"ACME Corp Annual Report 2024\n{body}\n{i}"))
    return pages


def check_invariants(units, windows, pages):
    by_page = {p.page: p for p in pages}
    ids = set()
    for u in units:
        assert u.text == by_page[u.page].text[u.char_start : u.char_end]
        assert u.text and u.text == u.text.strip()
        assert u.window_id in windows
        ids.add(u.unit_id)
    assert len(ids) == len(units)
    # units on one page do not overlap and come in order
    last: dict[int, int] = {}
    for u in units:
        assert u.char_start >= last.get(u.page, 0)
        last[u.page] = u.char_end
    # every unit's text is inside its window's text
    for u in units:
        assert u.text in windows[u.window_id]


def test_words_counts_latin_words_and_cjk_chars():
    assert words("Revenue grew 5% to $1,234 million.") == 6
    assert words("营业收入增长") == pytest.approx(6 * 0.55)
    assert words("营业收入 grew 12%，同比上升。") == pytest.approx(8 * 0.55 + 2)
    assert words("") == 0


def test_synthetic_document_units_windows_and_metadata():
    pages = _doc()
    pages.insert(3, Page(page=4, text=""))
    pages = [Page(page=i + 1, text=p.text) for i, p in enumerate(pages)]
    sections = [SectionSpan(section="business", page_start=1, page_end=3), SectionSpan(section="risk_factors", page_start=4, page_end=7)]
    units, windows = chunk(INFO, pages, sections, "ACME_2024_10K")
    check_invariants(units, windows, pages)
    assert {u.page for u in units} == {1, 2, 3, 5, 6, 7}  # the empty page 4 gives nothing
    for u in units:
        assert "ACME Corp Annual Report" not in u.text  # running header skipped
        assert not u.text.endswith(f"\n{u.page}")  # page number footer skipped
        assert 100 <= words(u.text) <= 330
        assert u.text.endswith(".")  # cut at sentence ends when there are some
        assert u.section == ("business" if u.page <= 3 else "risk_factors")
        assert (u.document_id, u.doc_name, u.company_id, u.stock_code, u.market) == (
            INFO.document_id, "ACME_2024_10K", "acme", "ACME", "US")
        assert (u.fiscal_year, u.fiscal_period, u.report_type, u.language, u.kind) == (2024, "FY", "10-K", "en", "narrative")
    # windows never mix sections, run over consecutive units, and are ~650 words
    for wid in {u.window_id for u in units}:
        members = [u for u in units if u.window_id == wid]
        assert len({u.section for u in members}) == 1
        idx = [units.index(m) for m in members]
        assert idx == list(range(idx[0], idx[0] + len(idx)))
        assert words(windows[wid]) <= 1.4 * WINDOW_TARGET
    # stable ids
    again, _ = chunk(INFO, pages, sections, "ACME_2024_10K")
    assert [u.unit_id for u in again] == [u.unit_id for u in units]
    assert [u.window_id for u in again] == [u.window_id for u in units]


def test_small_pages_and_kinds():
    pages = [Page(page=1, text="Short cover page."), Page(page=2, text=_sentences(30))]
    units, _ = chunk(INFO.model_copy(update={"form": "transcript"}), pages, [], "call")
    assert sorted({u.page for u in units}) == [1, 2] and {u.kind for u in units} == {"transcript"}
    grid = "\n".join(f"Line item {i} $ {i * 1000:,} $ {i * 900:,}" for i in range(1, 30))
    pages[1] = Page(page=2, text=grid)
    units, _ = chunk(INFO, pages, [], "doc", table_pages={2})
    assert [u.kind for u in units if u.page == 1] == ["narrative"] and {u.kind for u in units if u.page == 2} == {"table"}
    assert units[0].section is None


def test_prose_on_a_table_page_is_prose():
    """An MD&A page prints its results table, then says what drove the figures: the table is a table unit, the
    explanation a narrative one (dense vector, found by narrative questions); column headings and short label
    lines stay with their grid."""
    heading = "Results of Operations\nFiscal Years Ended December 31,\n(Amounts in millions) 2024 2023"
    grid = "\n".join(f"Line item {i} $ {i * 1000:,} $ {i * 900:,}" for i in range(1, 25))
    prose = _wrap(_sentences(12))
    text = f"{heading}\n{grid}\nAssets:\n{grid}\n{prose}"
    units, windows = chunk(INFO, [Page(page=1, text=text)], [], "doc", table_pages={1})
    check_invariants(units, windows, [Page(page=1, text=text)])
    kinds = [(u.kind, u.text) for u in units]
    assert [k for k, _ in kinds] == ["table"] * (len(kinds) - 1) + ["narrative"]
    assert kinds[-1][1] == prose and "Assets:" in "".join(t for k, t in kinds if k == "table")
    # a grid's column headings run on for many lines but say no sentence: still the table's
    headings = "\n".join(f"Column heading number {i} of the grid below" for i in range(12))
    units, _ = chunk(INFO, [Page(page=1, text=f"{headings}\n{grid}")], [], "doc", table_pages={1})
    assert {u.kind for u in units} == {"table"}


def test_chinese_text_measured_by_characters():
    sent = "报告期内公司营业收入同比增长主要原因为主导产品销售量增加，毛利率保持稳定。"
    text = "\n".join(sent * 3 for _ in range(20))  # ~2,200 CJK characters, one page
    units, _ = chunk(INFO.model_copy(update={"language": "zh-Hans"}), [Page(page=1, text=text)], [], "cn")
    assert len(units) >= 4
    for u in units:
        n_cjk = sum("\u4e00" <= c <= "\u9fff" for c in u.text)
        assert 200 <= n_cjk <= 560
        assert u.text.endswith("。")
        assert u.text == text[u.char_start : u.char_end]


def test_figure_share_of_prose_and_of_a_flattened_grid():
    assert figure_share("Net sales increased 5% to $25.3 billion, driven by higher volumes in every segment.") < 0.2
    assert figure_share("营业收入 1,234,567.89 1,100,000.00 12.23 营业成本 987,654.32 900,000.00 9.74") >= FIGURE_SHARE
    assert figure_share("") == 0.0


def test_table_page_detection():
    table = "\n".join(f"Line item {i} $ {i * 1000:,} $ {i * 900:,}" for i in range(1, 15))
    assert is_table_page("Consolidated Balance Sheets\n($ in millions) 2024 2023\n" + table)
    assert not is_table_page(_wrap(_sentences(30)))
    cn = "\n".join(f"营业收入项目{i} 七、{i} {i * 12345.67:,.2f} {i * 1111.11:,.2f}" for i in range(1, 12))
    assert is_table_page(cn)


def test_headers_found_and_skipped():
    pages = _doc(8)
    rep = repeated_lines(pages)
    assert "ACME Corp Annual Report 2024" in rep and "3" in rep
    a, b = content_span(pages[2].text, rep)
    assert pages[2].text[a:].startswith("In segment") and pages[2].text[:b].endswith(".")
    assert content_span("ACME Corp Annual Report 2024\n4", rep) == (0, 0)


# ------------------------------------------------------------------------------------------ corpus


def _check_corpus_doc(path, info):
    from parsers.pdf_pages import read_pages

    pages = read_pages(path, ocr=False)
    units, windows = chunk(info, pages, [], path.stem)
    check_invariants(units, windows, pages)
    rep = repeated_lines(pages)
    covered = {u.page for u in units}
    for p in pages:
        a, b = content_span(p.text, rep)
        content = p.text[a:b]
        if words(content) >= 3:
            assert p.page in covered, f"page {p.page} not covered"
            # the page's units tile its content: nothing but whitespace is left out
            page_units = [u for u in units if u.page == p.page]
            assert sum(len(u.text) for u in page_units) >= len(content.replace(" ", "").replace("\n", "")) * 0.9
        else:
            assert p.page not in covered
    sizes = [words(u.text) for u in units]
    assert max(sizes) <= 1.5 * UNIT_TARGET
    assert 0.75 * UNIT_TARGET <= statistics.median(sizes) <= 1.2 * UNIT_TARGET
    # units of pages with at least a unit's worth of text are never tiny
    page_words = {p.page: words(p.text) for p in pages}
    assert all(words(u.text) >= 60 for u in units if page_words[u.page] >= 1.5 * UNIT_TARGET)
    wsizes = [words(t) for t in windows.values()]
    assert 0.7 * WINDOW_TARGET <= statistics.median(wsizes) <= 1.15 * WINDOW_TARGET
    assert max(wsizes) <= 1.5 * WINDOW_TARGET
    return pages, units


def test_financebench_10q_chunks():
    path = require_corpus("us", "financebench", "pdfs", "AMCOR_2023Q2_10Q.pdf")
    pages, units = _check_corpus_doc(path, INFO.model_copy(update={"form": "10-Q"}))
    kinds = {u.page: u.kind for u in units}
    assert kinds[9] == "table"  # cash flow statement page
    assert kinds[4] == "narrative"  # forward-looking statements


def test_cn_annual_report_chunks():
    path = require_corpus("cn", "600080_jinhuagufen_2024_annual.pdf")
    info = DocumentInfo(document_id="x" * 64, market="A", stock_code="600080", form="annual", language="zh-Hans")
    pages, units = _check_corpus_doc(path, info)
    assert not any("2024年年度报告" == u.text.split("\n")[0] for u in units)  # running header skipped
    # p115: the note's bad-debt grid (类别 / 账面余额 / 坏账准备 columns and their figures), flattened into prose
    # lines by the text layer: a table unit (no dense vector); p6's company profile stays prose
    grid = next(u for u in units if u.page == 115 and "按坏账计提方法分类披露" in u.text)
    assert grid.kind == "table" and figure_share(grid.text) >= FIGURE_SHARE
    profile = next(u for u in units if u.page == 6 and "公司股票简况" in u.text)
    assert profile.kind == "narrative"


def test_transcript_turns_keep_short_repeated_lines():
    turns = [Page(page=i + 1, text="Thank you." if i % 2 else _sentences(5, seed=i)) for i in range(10)]
    units, windows = chunk(INFO.model_copy(update={"form": "transcript"}), turns, [], "call")
    check_invariants(units, windows, turns)
    assert [u.page for u in units] == list(range(1, 11))  # one unit per turn, none dropped
    assert {u.kind for u in units} == {"transcript"}


def test_a_section_starting_inside_a_page_starts_a_unit():
    info = DocumentInfo(document_id="d", market="US", form="10-K", fiscal_year=2024, language="en")
    before = _wrap(_sentences(12, seed=1))
    heading = "Item 3. Legal Proceedings\n"
    text = before + "\n" + heading + _wrap(_sentences(12, seed=2))
    start = text.index(heading)
    sections = [SectionSpan(section="properties", page_start=1, page_end=1, char_end=start),
                SectionSpan(section="legal", page_start=1, char_start=start, page_end=1)]
    units, _ = chunk(info, [Page(page=1, text=text)], sections, "d")
    assert [u.section for u in units] == sorted(u.section for u in units)[::-1]  # properties first, then legal
    legal = [u for u in units if u.section == "legal"]
    assert legal and legal[0].char_start == start and legal[0].text.startswith("Item 3. Legal Proceedings")
    assert all(u.char_end <= start for u in units if u.section == "properties")
