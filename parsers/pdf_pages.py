"""Page-level PDF text: every physical page, blank ones included, is a citable source.

Text is rebuilt from the text layer's positioned characters (pdfium loose char boxes; the rows and
cells are made in :mod:`parsers.page_rows`): characters on one baseline become one row, so a statement
row ("营业收入 七、61 123,456.78 100,000.00") stays ONE line with the label first and the numbers after it,
and its cells stay apart. ``parsers.page_rows.page_rows`` gives the same rows as cells with x positions
for table parsers.

Page text rules (``Page.text``):

* rows top to bottom joined with ``"\\n"``; cells of a row left to right joined with one space;
  whitespace folded (no empty lines, no double spaces). A page without text gives ``""``.
* Word spaces: a real space character of the text layer (or a space pdfium generates between two
  runs) becomes a space, as does a visible gap wider than ~0.2 of the line height. A gap wider than
  ~0.9 line height starts a new cell.
* CJK: no space is ever put between two CJK characters, so letter-spaced CJK ("香 港 交 易",
  whether typed with spaces or placed with wide gaps) is joined ("香港交易"); nor between a digit and
  年/月/日 ("2024 年 12 月 31 日" -> "2024年12月31日"), so dates read the same in every file.
* Glyphs without a Unicode mapping (private use area U+E000-U+F8FF, U+FFFD): the Wingdings check
  mark SZSE files use for a ticked box (U+F052, also U+F0FE) becomes "☑"; any other such glyph
  becomes the bullet "•" at the start of a word and is dropped inside a word. No PUA code point
  is left in page text.
* Two-column bilingual prose (HK reports: English left, Traditional Chinese right, sharing rows):
  when a page clearly is such prose (a vertical gutter no row crosses, Latin text on the left, CJK
  text on the right, and few numeric cells, i.e. not a table) the page text is the whole left
  column followed by the whole right column, so sentences of one language stay together for search.
  Tables (bilingual statements included) are never split: they keep one line per table row.
  ``page_rows`` itself never splits.
* Size cap: a page's text is cut at the last line break at or before ``MAX_PAGE_CHARS`` (20,000)
  characters (at the cap itself if there is no line break); a note goes to ``warnings``. Real report
  pages are 1-6k characters; the cap only catches pathological text layers (e.g. hidden text dumps).
* Running headers/footers stay in the page text (the page must stay faithful);
  :func:`repeated_lines` finds them so that downstream consumers can skip them.
* Pages without a text layer (or with almost no characters while showing images) are OCR'd
  (``parsers.ocr``) and get ``Page.ocr=True``.

Errors: an empty file, a non-PDF, a truncated or corrupt PDF and a password-protected PDF raise
``schema.errors.ParseError`` with one reason, and no pages are returned. A PDF encrypted with an
empty user password (permission flags only) opens and parses normally.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from parsers.page_rows import SPACES, Box, Row, page_rows, split_bilingual_columns
from schema.errors import ParseError
from schema.models import Page
from schema import limits
from schema.page_text import cap_text as page_cap
from schema.page_text import repeated_lines  # noqa: F401  (part of this module's page-text API)

MAX_PAGE_CHARS = limits.PDF_PAGE_CHARS.default  # the default; the limit in force is limits.PDF_PAGE_CHARS.value()
# A page with fewer text-layer characters than this that shows an image is treated as scanned.
OCR_MIN_CHARS = 20
# An image smaller than this (100 x 100 px) cannot hold a line of readable text: a page whose images are all
# smaller is not OCR'd (a 1 x 1 image would otherwise cost a full-page OCR run of 2-20 s).
OCR_MIN_IMAGE_PIXELS = 10_000
# Form XObjects nest; images are looked for this deep (pdfium renders deeper ones too, so look far).
IMAGE_DEPTH = 16
# Images whose sizes are read per page before an OCR decision (a page of thousands of tiles is a scan).
MAX_IMAGES_LOOKED_AT = 2_000


def fold(text: str) -> str:
    lines = (SPACES.sub(" ", line).strip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    return "\n".join(line for line in lines if line)


def page_text(rows: list[Row], width: float = 0.0) -> str:
    """Rows as page text (see the module docstring), bilingual prose columns split."""
    columns = split_bilingual_columns(rows, width) or [rows]
    return "\n".join(r.text for col in columns for r in col)


def page_text_boxes(page: pdfium.PdfPage, max_chars: int | None = None) -> tuple[str, list[Box | None]]:
    """The page's text-layer text exactly as :func:`read_pages` stores it (without OCR), and for every
    character of it the loose box of the glyph it came from (None for a space or line break put between
    glyphs). A character span of ``Page.text`` maps to boxes through this, e.g. to highlight a quote."""
    rows = page_rows(page)
    columns = split_bilingual_columns(rows, page.get_width()) or [rows]
    parts: list[str] = []
    boxes: list[Box | None] = []
    for row in (r for col in columns for r in col):
        if parts:
            parts.append("\n")
            boxes.append(None)
        for k, cell in enumerate(row.cells):
            if k:
                parts.append(" ")
                boxes.append(None)
            parts.append(cell.text)
            boxes.extend(cell.boxes)
    text = "".join(parts)
    folded = fold(text)
    if folded != text:  # cells are folded already; keep text and boxes aligned if that ever changes
        boxes = [None] * len(folded)
    text, _ = cap_text(folded, max_chars)
    return text, boxes[: len(text)]


def cap_text(text: str, limit: int | None = None) -> tuple[str, bool]:
    """Cut at the last line break at or before ``limit`` (default: the PDF page limit); (text, was_cut)."""
    return page_cap(text, limits.PDF_PAGE_CHARS.value() if limit is None else limit)


def check_pdf_file(path: str | Path) -> None:
    """Cheap checks before pdfium sees the file: exists, not empty, %PDF- header, %%EOF tail."""
    p = Path(path)
    if not p.is_file():
        raise ParseError(str(p), "file not found")
    size = p.stat().st_size
    if size == 0:
        raise ParseError(str(p), "empty file (0 bytes)")
    with open(p, "rb") as fh:
        head = fh.read(1024)
        fh.seek(max(0, size - 2048))
        tail = fh.read()
    if b"%PDF-" not in head:
        raise ParseError(str(p), "not a PDF (no %PDF- header)")
    if b"%%EOF" not in tail:
        raise ParseError(str(p), "truncated PDF (no %%EOF marker at the end of the file)")


def open_pdf(path: str | Path) -> pdfium.PdfDocument:
    path = Path(path)
    check_pdf_file(path)
    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code == pdfium_c.FPDF_ERR_PASSWORD or "password" in str(exc).lower():
            raise ParseError(str(path), "password-protected PDF (a user password is required to open it)") from None
        if code == pdfium_c.FPDF_ERR_SECURITY:
            raise ParseError(str(path), "unsupported PDF security handler") from None
        raise ParseError(str(path), f"corrupt PDF ({exc})") from None
    if len(pdf) == 0:
        pdf.close()
        raise ParseError(str(path), "corrupt PDF (no pages)")
    return pdf


def _image_sizes(page: pdfium.PdfPage) -> list[int]:
    """Pixel counts of the images a page shows (form XObjects included, up to ``IMAGE_DEPTH`` deep), read
    from the image dictionaries without decoding them; at most ``MAX_IMAGES_LOOKED_AT`` images."""
    sizes = []
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=IMAGE_DEPTH):
        try:
            w, h = obj.get_px_size()
        except (pdfium.PdfiumError, AttributeError, OSError):
            w = h = 0
        sizes.append(max(0, int(w)) * max(0, int(h)))
        if len(sizes) >= MAX_IMAGES_LOOKED_AT:
            break
    return sizes


def _ocr_refusal(images: list[int]) -> str | None:
    """Why this page must not be rendered for OCR, or None. A page showing an image over
    ``limits.IMAGE_PIXELS`` is refused (pdfium decodes an image whole before scaling it)."""
    biggest = max(images, default=0)
    if biggest > limits.IMAGE_PIXELS.value():
        return f"it shows an image of {biggest:,} pixels, over {limits.IMAGE_PIXELS.describe()}"
    return None


def read_pages(
    path: str | Path,
    *,
    ocr: bool | str = "auto",
    engine=None,
    max_chars: int | None = None,
    warnings: list[str] | None = None,
) -> list[Page]:
    """Every physical page (1-based, blank pages included) with its text.

    ``ocr="auto"`` OCRs pages with fewer than ``OCR_MIN_CHARS`` text-layer characters that show an
    image of at least ``OCR_MIN_IMAGE_PIXELS``; ``ocr=False`` never OCRs; ``ocr=True`` OCRs every page.
    ``engine`` is an ``parsers.ocr.OcrEngine`` (default: rapidocr, created on first need). Notes about
    capped pages, pages too large to OCR or failed OCR are appended to ``warnings`` when given.
    A PDF with more than ``limits.PDF_PAGES`` pages is refused (``LimitExceeded``)."""
    max_chars = limits.PDF_PAGE_CHARS.value() if max_chars is None else max_chars
    notes = warnings if warnings is not None else []
    pdf = open_pdf(path)
    pages: list[Page] = []
    try:
        if len(pdf) > limits.PDF_PAGES.value():
            raise limits.PDF_PAGES.exceeded(str(path), f"{len(pdf):,} pages")
        for i in range(len(pdf)):
            try:
                page = pdf[i]
            except pdfium.PdfiumError as exc:
                raise ParseError(str(path), f"corrupt PDF (page {i + 1} cannot be read: {exc})") from None
            try:
                stats: dict = {}
                rows = page_rows(page, stats)
                if stats.get("text_layer_chars", 0) > limits.PDF_TEXT_LAYER_CHARS.value():
                    notes.append(f"page {i + 1}: only the first {limits.PDF_TEXT_LAYER_CHARS.describe()} of its "
                                 f"{stats['text_layer_chars']:,} were read")
                text = page_text(rows, page.get_width())
                is_ocr = False
                nchars = sum(len(r.text) for r in rows)
                wants = ocr is True or (ocr == "auto" and nchars < OCR_MIN_CHARS)
                images = _image_sizes(page) if wants else []
                if ocr == "auto" and max(images, default=0) < OCR_MIN_IMAGE_PIXELS:
                    wants = False
                refusal = _ocr_refusal(images) if wants else None
                if refusal:
                    notes.append(f"page {i + 1}: not OCR'd: {refusal}")
                elif wants:
                    from parsers import ocr as ocr_mod

                    try:
                        ocr_text = ocr_mod.ocr_page(page, engine=engine)
                    except ocr_mod.PageTooLarge as exc:
                        notes.append(f"page {i + 1}: not OCR'd: {exc}")
                        ocr_text = None
                    except ocr_mod.OcrUnavailable as exc:
                        notes.append(f"page {i + 1}: no text layer and OCR unavailable ({exc})")
                        ocr_text = None
                    if ocr_text is not None and (ocr is True or len(ocr_text) > len(text)):
                        text, is_ocr = ocr_text, True
                text, cut = cap_text(fold(text), max_chars)
                if cut:
                    notes.append(f"page {i + 1}: text cut to {len(text)} of more than {max_chars} characters")
                pages.append(Page(page=i + 1, text=text, ocr=is_ocr))
            finally:
                page.close()
    finally:
        pdf.close()
    return pages


def strip_repeated(text: str, repeated: set[str], edge: int = 3) -> str:
    """``text`` without the repeated header/footer lines found among its first/last ``edge`` lines."""
    lines = text.split("\n")
    n = len(lines)
    keep = [x for i, x in enumerate(lines) if not (x in repeated and (i < edge or i >= n - edge))]
    return "\n".join(keep)