"""OCR of image-only pages: an image-only PDF is built from two corpus pages (top halves), read back
through ``read_pages`` (which must OCR it) and compared with the text layer of the same region."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

pdfium = pytest.importorskip("pypdfium2")

from parsers import ocr  # noqa: E402
from parsers.page_rows import page_rows  # noqa: E402
from parsers.pdf_pages import read_pages  # noqa: E402
from conftest import require_corpus  # noqa: E402


def corpus() -> Path:
    return require_corpus()  # skips without the corpus; fails in CI


DPI = 170
# (file, 1-based page): a Chinese balance-sheet page and an English statement page
SOURCES = [
    ("cn/600080_jinhuagufen_2024_annual.pdf", 78),
    ("hk/1741_riying_2021_annual.pdf", 60),
]


def _squash(text: str) -> str:
    return "".join(text.split())


def _top_half(path: Path, pageno: int):
    pdf = pdfium.PdfDocument(str(path))
    try:
        page = pdf[pageno - 1]
        h = page.get_height()
        rows = [r for r in page_rows(page) if r.y > h / 2]
        expected = "\n".join(r.text for r in rows)
        img = page.render(scale=DPI / 72).to_pil().convert("RGB")
        img = img.crop((0, 0, img.width, img.height // 2))
        return expected, img
    finally:
        pdf.close()


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    root = corpus()
    expected, images = [], []
    for rel, pageno in SOURCES:
        text, img = _top_half(root / rel, pageno)
        expected.append(text)
        images.append(img)
    out = tmp_path_factory.mktemp("ocr") / "scanned.pdf"
    images[0].save(out, "PDF", resolution=DPI, save_all=True, append_images=images[1:])
    return out, expected


def test_image_only_pdf_is_ocred_and_agrees_with_text_layer(scanned):
    path, expected = scanned
    try:
        ocr.default_engine()
    except ocr.OcrUnavailable as exc:
        pytest.skip(str(exc))
    pages = read_pages(path)
    assert [p.page for p in pages] == [1, 2]
    assert all(p.ocr for p in pages)
    ratios = []
    for page, want in zip(pages, expected):
        assert len(_squash(want)) > 200  # the region really has text
        ratios.append(difflib.SequenceMatcher(None, _squash(want), _squash(page.text), autojunk=False).ratio())
    print("OCR character agreement (zh, en):", [round(r, 3) for r in ratios])
    assert min(ratios) >= 0.85, ratios
    # one line per table row survives OCR: a balance-sheet row with its label and both numbers
    assert any(line.startswith("货币资金") and "347,680,977.31" in line for line in pages[0].text.split("\n"))


def test_boxes_to_lines_groups_rows_and_joins_cjk():
    boxes = [
        ocr.Box(300, 12, 420, 30, "620,449,552.12"),
        ocr.Box(10, 10, 60, 30, "货币"),
        ocr.Box(62, 11, 100, 31, "资金"),
        ocr.Box(150, 10, 290, 29, "347,680,977.31"),
        ocr.Box(10, 50, 80, 70, "Total assets"),
    ]
    assert ocr.boxes_to_lines(boxes) == ["货币资金 347,680,977.31 620,449,552.12", "Total assets"]


def test_rapidocr_models_are_bundled():
    import rapidocr

    models = Path(rapidocr.__file__).parent / "models"
    assert list(models.glob("*det*.onnx")) and list(models.glob("*rec*.onnx"))
