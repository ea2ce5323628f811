"""Hostile and broken files at the parser boundary: each gives a clear result (a document with a warning naming
the limit, or one ParseError naming the file and the reason), never an exception of another kind, and nothing
hostile survives into the parsed text."""

from __future__ import annotations

import resource

import pytest

import parsers
from parsers.pdf_pages import read_pages
from hostile_files import (ESC_TEXT, LAUGHS_DOCTYPE, XXE_DOCTYPE, exchanges_transcript, image_page_pdf, ixbrl,
                           json_transcript, text_pdf, text_transcript, truncated_pdf)
from schema.errors import LimitExceeded, ParseError
from schema.text_safety import has_bad
from warehouse.manifest import manifest_hints


def _all_text(doc) -> str:
    return "\n".join([p.text for p in doc.pages] + [f.label or "" for f in doc.facts] + doc.warnings)


def _pages(path):
    warnings: list[str] = []
    return read_pages(path, warnings=warnings), warnings


def test_memory_bomb_page_is_not_rendered(tmp_path):
    pdf = image_page_pdf(tmp_path / "bomb.pdf", size_pt=14_400, image_px=(400, 400))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    pages, warnings = _pages(pdf)
    grown_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert [p.text for p in pages] == [""]
    assert any("not OCR'd" in w and "14,400 x 14,400 pt" in w and "FILINGS_MAX_OCR_PIXELS" in w for w in warnings)
    assert grown_mib < 500  # a render of the whole page at 170 dpi would take > 10 GB
    with pytest.raises(ParseError, match=r"bomb\.pdf: no text on any page"):  # the document: one clear reason
        parsers.parse(pdf)


def test_page_with_huge_image_is_not_rendered(tmp_path):
    pdf = image_page_pdf(tmp_path / "bigimage.pdf", image_px=(60_000, 60_000), gray_bits=1)
    _, warnings = _pages(pdf)
    assert any("3,600,000,000 pixels" in w and "FILINGS_MAX_IMAGE_PIXELS" in w for w in warnings)


def test_large_user_unit_page_is_bounded(tmp_path):
    pdf = image_page_pdf(tmp_path / "userunit.pdf", size_pt=14_400, image_px=(400, 400), user_unit=75_000)
    _, warnings = _pages(pdf)
    assert any("not OCR'd" in w for w in warnings)


def test_tiny_image_pages_cost_no_ocr(tmp_path):
    pages, _ = _pages(image_page_pdf(tmp_path / "dots.pdf", image_px=(1, 1), pages=3))
    assert [p.ocr for p in pages] == [False] * 3


def test_too_many_pages_is_refused_with_the_limit(tmp_path, monkeypatch):
    monkeypatch.setenv("FILINGS_MAX_PDF_PAGES", "5")
    pdf = text_pdf(tmp_path / "long.pdf", ["Annual report 2024"], pages=6)
    with pytest.raises(LimitExceeded, match=r"long\.pdf: 6 pages, over the limit of 5 pages per PDF "
                                            r"\(FILINGS_MAX_PDF_PAGES\)"):
        parsers.parse(pdf)


def test_file_over_its_kind_limit_is_refused_before_parsing(tmp_path, monkeypatch):
    monkeypatch.setenv("FILINGS_MAX_TRANSCRIPT_BYTES", "64K")
    path = exchanges_transcript(tmp_path / "EX_2024_Q4.txt", 0.1)
    with pytest.raises(LimitExceeded, match=r"over the limit of 64 KiB per transcript file "
                                            r"\(FILINGS_MAX_TRANSCRIPT_BYTES\)"):
        parsers.parse(path)


def test_text_layer_flood_is_read_up_to_the_limits(tmp_path):
    pdf = text_pdf(tmp_path / "flood.pdf", ["x" * 2000] * 150)  # 300,000 characters on one page
    pages, warnings = _pages(pdf)
    assert 15_000 < len(pages[0].text) <= 20_000
    assert any("FILINGS_MAX_PDF_TEXT_LAYER_CHARS" in w for w in warnings)


def test_encrypted_truncated_garbage_and_empty_pdfs_fail_with_one_reason(tmp_path):
    good = text_pdf(tmp_path / "good.pdf", ["Annual report 2024"])
    cases = {
        text_pdf(tmp_path / "locked.pdf", ["secret"], password="pw"): "password",
        truncated_pdf(tmp_path / "half.pdf", good): "truncated",
        tmp_path / "garbage.pdf": "not a filing",
        tmp_path / "empty.pdf": "empty",
    }
    (tmp_path / "garbage.pdf").write_bytes(b"this is plain text named .pdf\n" * 10)
    (tmp_path / "empty.pdf").write_bytes(b"")
    for path, reason in cases.items():
        with pytest.raises(ParseError) as info:
            parsers.parse(path)
        assert str(info.value).startswith(str(path)) and reason in str(info.value).lower()


def test_javascript_pdf_is_read_as_text_only(tmp_path):
    pages, _ = _pages(text_pdf(tmp_path / "js.pdf", ["Annual report 2024 of Example"], javascript=True))
    assert "Annual report 2024" in pages[0].text


def test_json_transcript_with_lone_surrogate_nul_and_escapes_is_cleaned(tmp_path):
    path = json_transcript(tmp_path / "EX_2024_Q4.json",
                           [("Operator", CALL := "Welcome to the Example earnings call. " + ESC_TEXT + " \ud800 x\x00y"),
                            ("Jane Doe", "Thank you for joining our earnings conference call. Revenue grew.")],
                           [("John Smith", "How is demand?"), ("Jane Doe", "Strong.")])
    assert "\\ud800" in path.read_text()  # the file holds the raw escape
    doc = parsers.parse(path)
    text = _all_text(doc)
    assert not has_bad(text) and "\x1b" not in text and "\x00" not in text
    assert "[/b]" in text  # markup-like text is data, kept as written
    assert any("replaced by U+FFFD" in w for w in doc.warnings)
    assert CALL  # the call text is in the file


def test_plain_text_transcript_escape_sequences_are_cleaned(tmp_path):
    doc = parsers.parse(text_transcript(tmp_path / "EX_2024_Q4.txt", ESC_TEXT * 20))
    assert "\x1b" not in _all_text(doc) and "\x07" not in _all_text(doc)


def test_long_transcript_turn_is_cut_with_a_warning(tmp_path, monkeypatch):
    monkeypatch.setenv("FILINGS_MAX_TRANSCRIPT_TURN_CHARS", "5000")
    long_turn = "We grew. " * 2000  # 18,000 characters
    path = json_transcript(tmp_path / "EX_2024_Q4.json",
                           [("Operator", "Welcome to the Example earnings conference call. Thank you for joining."),
                            ("Jane Doe", long_turn)], [("John Smith", "Question?"), ("Jane Doe", "Answer.")])
    doc = parsers.parse(path)
    assert max(len(p.text) for p in doc.pages) <= 5000
    assert any("FILINGS_MAX_TRANSCRIPT_TURN_CHARS" in w for w in doc.warnings)


def test_many_exchange_transcript_parses_every_exchange(tmp_path):
    doc = parsers.parse(exchanges_transcript(tmp_path / "EX_2024_Q4.txt", 0.5))
    qa = [s for s in doc.sections if s.section == "qa"]
    # one exchange per "Our next question comes from" (the text repeats a 170-character exchange)
    assert len(qa) > 2500 and all(s.attrs["analyst"] == "John Smith" for s in qa[:50])


def test_ixbrl_with_too_many_facts_is_refused_before_arelle(tmp_path, monkeypatch):
    monkeypatch.setenv("FILINGS_MAX_FACTS", "100")
    # 150 numeric facts and the document type
    with pytest.raises(LimitExceeded, match=r"151 XBRL facts, over the limit of 100 facts per document"):
        parsers.parse(ixbrl(tmp_path / "many-20241231.htm", facts=150))


def test_ixbrl_without_page_breaks_is_capped(tmp_path, monkeypatch):
    monkeypatch.setenv("FILINGS_MAX_HTML_PAGE_CHARS", "10000")
    body = "".join(f"<p>Paragraph {i} of a filing with no page breaks at all.</p>" for i in range(2000))
    doc = parsers.parse(ixbrl(tmp_path / "flat-20241231.htm", body=body))
    assert max(len(p.text) for p in doc.pages) <= 10_000
    assert any("FILINGS_MAX_HTML_PAGE_CHARS" in w for w in doc.warnings)


@pytest.mark.parametrize("doctype,name", [(XXE_DOCTYPE, "xxe"), (LAUGHS_DOCTYPE, "laughs")])
def test_entities_are_never_expanded(tmp_path, doctype, name):
    body = "<p>&xxe;</p>" if name == "xxe" else "<p>&j;</p>"
    path = ixbrl(tmp_path / f"{name}-20241231.htm", body=body, doctype=doctype)
    try:
        doc = parsers.parse(path)
    except ParseError as exc:
        assert str(exc).startswith(str(path))
        return
    text = _all_text(doc)
    assert "root:" not in text and "lollollol" * 10 not in text


def test_deeply_nested_html_is_parsed_or_refused(tmp_path):
    body = "<div>" * 50_000 + "deep" + "</div>" * 50_000
    path = ixbrl(tmp_path / "deep-20241231.htm", body=body)
    try:
        parsers.parse(path)
    except ParseError as exc:
        assert str(exc).startswith(str(path))


def test_bad_manifest_lines_are_hints_never_failures(tmp_path):
    lines = [
        b'{"doc_name": "GOOD_2023_10K", "company": "Example", "doc_type": "10k", "doc_period": 2023}',
        b'{"doc_name": "BAD_TYPES", "company": 42, "doc_period": "twenty", "market": "MARS"}',
        b'\xff\xfe not utf-8 \x80',
        b'{not json',
        b'["a list"]',
        b'{"doc_name": "LONG", "company": "' + b"A" * 100_000 + b'", "doc_type": "10k"}',
    ]
    (tmp_path / "documents.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    good, notes = manifest_hints(tmp_path / "GOOD_2023_10K.pdf")
    assert good.fiscal_year == 2023 and good.form == "10-K" and good.market == "US" and notes == []
    bad, notes = manifest_hints(tmp_path / "BAD_TYPES.pdf")
    assert bad.company_name is None and bad.fiscal_year is None and bad.market is None
    assert len(notes) == 3 and all("documents.jsonl line 2" in n for n in notes)
    long, notes = manifest_hints(tmp_path / "LONG.pdf")
    assert long.company_name is None and any("100,000 characters" in n for n in notes)
    missing, notes = manifest_hints(tmp_path / "OTHER.pdf")
    assert missing is None and "line 3: not UTF-8" in notes[0] and "line 4" in notes[0] and "line 5" in notes[0]
