"""Page text from the PDF text layer: format, known defects, and errors on bad files."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from parsers.page_rows import Cell, _join_spaced_cjk
from parsers.pdf_pages import (
    MAX_PAGE_CHARS,
    cap_text,
    read_pages,
    repeated_lines,
    strip_repeated,
)
from schema.errors import ParseError
from conftest import require_corpus  # noqa: E402

PUA = re.compile("[\ue000-\uf8ff\ufffd]")


def corpus() -> Path:
    return require_corpus()  # skips without the corpus; fails in CI


@pytest.fixture(scope="module")
def jinhua_2024():
    return read_pages(corpus() / "cn" / "600080_jinhuagufen_2024_annual.pdf", ocr=False)


@pytest.fixture(scope="module")
def emperor():
    return read_pages(corpus() / "hk" / "0717_emperorcapital_2021_annual.pdf", ocr=False)


def test_every_physical_page_numbered_from_one(jinhua_2024):
    assert [p.page for p in jinhua_2024] == list(range(1, 190))  # README: 189 pages


def test_statement_row_is_one_line_label_then_numbers(jinhua_2024):
    # p78 of the FY2024 annual report: consolidated balance sheet (read from the page)
    lines = jinhua_2024[77].text.split("\n")
    assert "货币资金 七、1 347,680,977.31 620,449,552.12" in lines
    assert "合并资产负债表" in lines
    assert "项目 附注 2024年12月31日 2023年12月31日" in lines


def test_real_spaces_kept_in_english(emperor):
    text = emperor[63].text  # p64, independent auditor's report
    assert "year then ended, and notes to the consolidated financial statements," in text
    assert "In our opinion, the consolidated financial statements give a true and" in text
    assert "yearthenended" not in text


def test_bilingual_prose_columns_split(emperor):
    text = emperor[63].text
    en = text.index("We have audited the consolidated financial statements of Emperor")
    en2 = text.index("provide a basis for our opinion.")
    zh = text.index("我們認為，綜合財務報表已根據香港會計師")
    assert en < en2 < zh  # the whole English column comes before the Chinese one
    # ... but a bilingual statement page keeps one line per table row (English label, Chinese, numbers)
    stmt = next(p for p in emperor if "CONSOLIDATED STATEMENT OF FINANCIAL POSITION" in p.text.upper() and "HK$’000" in p.text)
    assert any(re.search(r"[A-Za-z].*[\u4e00-\u9fff].*\d{1,3}(,\d{3})+", line) for line in stmt.text.split("\n"))


@pytest.mark.parametrize(
    "name",
    ["002821_kailaiying_2024_summary.pdf", "000999_huarunsanjiu_2024_summary.pdf", "000999_huarunsanjiu_2024_q1.pdf",
     "000001_pinganyinhang_2024_annual.pdf", "300347_taigeyiyao_2025_interim.pdf"],
)
def test_no_private_use_glyphs_left(name):
    pages = read_pages(corpus() / "cn" / name, ocr=False)
    assert not [p.page for p in pages if PUA.search(p.text)]


def test_wingdings_check_mark_becomes_checked_box():
    pages = read_pages(corpus() / "cn" / "002821_kailaiying_2024_summary.pdf", ocr=False)
    lines = pages[0].text.split("\n")
    # p1: 非标准审计意见提示 -> not applicable is ticked; the dividend plan is applicable
    assert lines[lines.index("非标准审计意见提示") + 1] == "□适用 ☑不适用"
    assert "☑适用 □不适用" in lines


def test_letter_spaced_cjk_cells_joined():
    cells = [Cell("香", 0, 10), Cell("港", 20, 30), Cell("交", 40, 50), Cell("易", 60, 70), Cell("1,234", 200, 240)]
    assert [c.text for c in _join_spaced_cjk(cells, 10)] == ["香港交易", "1,234"]
    # two single-character cells (是 / 否 columns) are left alone
    assert [c.text for c in _join_spaced_cjk([Cell("是", 0, 10), Cell("否", 100, 110)], 10)] == ["是", "否"]


def test_repeated_headers_and_footers_found(jinhua_2024):
    rep = repeated_lines(jinhua_2024)
    assert "金花企业（集团）股份有限公司2024年年度报告" in rep  # running header
    assert "78 / 189" in rep  # page footer
    assert "货币资金 七、1 347,680,977.31 620,449,552.12" not in rep
    body = strip_repeated(jinhua_2024[77].text, rep)
    assert "78 / 189" not in body and "合并资产负债表" in body
    assert jinhua_2024[77].text.endswith("78 / 189")  # the page itself stays faithful


def test_page_text_is_capped(tmp_path):
    text = "\n".join(f"line {i} " + "x" * 90 for i in range(400))
    cut, was_cut = cap_text(text)
    assert was_cut and len(cut) <= MAX_PAGE_CHARS and cut.endswith("x") and text.startswith(cut)
    warnings: list[str] = []
    pages = read_pages(corpus() / "cn" / "600080_jinhuagufen_2024_q1.pdf", ocr=False, max_chars=300, warnings=warnings)
    assert max(len(p.text) for p in pages) <= 300 and warnings


def test_blank_page_kept_with_empty_text():
    pages = read_pages(corpus() / "cn" / "600080_jinhuagufen_2023_interim-summary.pdf", ocr=False)
    assert len(pages) == 6  # README: 6 pages
    assert any(p.text == "" for p in pages)


# ------------------------------------------------------------------------------------ bad files
def _reason(path) -> str:
    with pytest.raises(ParseError) as exc:
        read_pages(path)
    return exc.value.reason


def test_empty_file(tmp_path):
    p = tmp_path / "empty.pdf"
    p.write_bytes(b"")
    assert "empty" in _reason(p)


def test_not_a_pdf(tmp_path):
    p = tmp_path / "report.pdf"
    p.write_text("<html><body>not a pdf</body></html>")
    assert "not a PDF" in _reason(p)


def test_truncated_pdf(tmp_path):
    src = corpus() / "cn" / "600080_jinhuagufen_2024_q1.pdf"
    data = src.read_bytes()
    p = tmp_path / "truncated.pdf"
    p.write_bytes(data[: len(data) // 2])
    assert "truncated" in _reason(p)


def test_corrupt_pdf(tmp_path):
    p = tmp_path / "corrupt.pdf"
    p.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 40 + b"\n%%EOF\n")
    assert "corrupt" in _reason(p)


def test_missing_file(tmp_path):
    assert "not found" in _reason(tmp_path / "nope.pdf")


def _encrypt(src: Path, dst: Path, user: str, owner: str) -> None:
    pikepdf = pytest.importorskip("pikepdf")
    with pikepdf.open(src) as pdf:
        pdf.save(dst, encryption=pikepdf.Encryption(user=user, owner=owner, R=6))


def test_password_protected_pdf(tmp_path):
    p = tmp_path / "locked.pdf"
    _encrypt(corpus() / "cn" / "600080_jinhuagufen_2025_q3.pdf", p, user="secret", owner="owner-secret")
    assert "password" in _reason(p)


def test_empty_user_password_parses_normally(tmp_path):
    src = corpus() / "cn" / "600080_jinhuagufen_2025_q3.pdf"
    p = tmp_path / "permissions_only.pdf"
    _encrypt(src, p, user="", owner="owner-secret")
    assert [x.text for x in read_pages(p, ocr=False)] == [x.text for x in read_pages(src, ocr=False)]


def test_copy_of_a_good_file_parses(tmp_path):
    src = corpus() / "hk" / "8169_ecotek_2021_annual-mda-extract.pdf"
    p = tmp_path / "copy.pdf"
    shutil.copy(src, p)
    assert len(read_pages(p, ocr=False)) == 3  # README: 3 pages
