"""Page-level PDF text: every physical page, blank ones included, is a citable source.

Text is rebuilt from the text layer's positioned runs: runs on one baseline become one line, so a
statement row ("营业收入 七、61 123,456.78 100,000.00") stays one line and its cells stay apart.
``page_rows`` gives the same lines as cells with x positions for table parsers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium

from schema.errors import ParseError
from schema.models import Page

_SPACES = re.compile(r"[ \t\u3000\xa0]+")


@dataclass
class Cell:
    text: str
    x0: float
    x1: float


@dataclass
class Row:
    y: float  # baseline-ish (PDF user space, larger is higher on the page)
    height: float
    cells: list[Cell] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(c.text for c in self.cells)


def fold(text: str) -> str:
    lines = (_SPACES.sub(" ", line).strip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"))
    return "\n".join(line for line in lines if line)


def page_rows(page: pdfium.PdfPage) -> list[Row]:
    """Characters grouped into rows (top to bottom) and cells (left to right).

    Uses each character's loose box (font ascent to descent), so commas and digits of one number
    share a row. A gap under about one character height joins characters into one cell (with a
    space when the gap is visible and the text is not CJK); a wider gap starts a new cell."""
    tp = page.get_textpage()
    try:
        chars = []
        for i in range(tp.count_chars()):
            ch = tp.get_text_range(i, 1)
            if not ch or ch.isspace() or ch in "\ufffe\x00":
                continue
            left, bottom, right, top = tp.get_charbox(i, loose=True)
            if top - bottom <= 0:
                continue
            chars.append((left, bottom, right, top, ch))
    finally:
        tp.close()
    chars.sort(key=lambda c: -(c[1] + c[3]) / 2)
    rows: list[Row] = []
    for left, bottom, right, top, ch in chars:
        mid, height = (bottom + top) / 2, top - bottom
        row = rows[-1] if rows else None
        if row is None or abs(row.y - mid) > min(row.height, height) * 0.4:
            row = Row(y=mid, height=height)
            rows.append(row)
        row.cells.append(Cell(ch, left, right))
    for row in rows:
        row.cells.sort(key=lambda c: c.x0)
        merged: list[Cell] = []
        for cell in row.cells:
            gap = cell.x0 - merged[-1].x1 if merged else None
            if gap is not None and gap < row.height * 0.9:
                prev = merged[-1]
                sep = " " if gap > row.height * 0.2 and not _cjk_join(prev.text, cell.text) else ""
                prev.text, prev.x1 = prev.text + sep + cell.text, max(prev.x1, cell.x1)
            else:
                merged.append(Cell(cell.text, cell.x0, cell.x1))
        row.cells = merged
    return rows


def _cjk_join(a: str, b: str) -> bool:
    a, b = a.rstrip(), b.lstrip()
    return bool(a and b) and _is_cjk(a[-1]) and _is_cjk(b[0])


def _is_cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef"


def open_pdf(path: str | Path) -> pdfium.PdfDocument:
    path = Path(path)
    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        raise ParseError(str(path), f"not a readable PDF ({exc})") from None


def read_pages(path: str | Path) -> list[Page]:
    pdf = open_pdf(path)
    try:
        return [Page(page=i + 1, text="\n".join(r.text for r in page_rows(pdf[i]))) for i in range(len(pdf))]
    finally:
        pdf.close()
