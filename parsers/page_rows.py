"""Rows of a PDF page rebuilt from the text layer's character boxes (pdfium loose char boxes).

``page_rows(page)`` reads every visible character with its box (``_chars``), groups characters on one
baseline into a :class:`Row` and the characters of a row into :class:`Cell` s left to right (a gap under
about one line height joins, a wider one starts a new cell), with the word-space, CJK and date rules that
:mod:`parsers.pdf_pages` documents for page text; each cell keeps one box per character.
``split_bilingual_columns(rows, width)`` tells two-column bilingual prose (Latin left, CJK right) and
gives its two columns; ``page_rows`` itself never splits.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from schema import limits

SPACES = re.compile(r"[ \t\u3000\xa0]+")  # the whitespace page text folds to one space
_CHECKED = {0xF052: "☑", 0xF0FE: "☑"}
_NUMERIC = re.compile(r"^[(\-–]?[\d,.]+%?\)?$")


Box = tuple[float, float, float, float]  # (left, bottom, right, top) in PDF user space


@dataclass
class Cell:
    text: str
    x0: float
    x1: float
    # one loose character box per character of ``text`` (None for a space put between two characters)
    boxes: list[Box | None] = field(default_factory=list)


@dataclass
class Row:
    y: float  # middle of the row (PDF user space, larger is higher on the page)
    height: float
    cells: list[Cell] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(c.text for c in self.cells)


def _is_cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" or "\uf900" <= ch <= "\ufaff"


def _cjk_join(a: str, b: str) -> bool:
    a, b = a.rstrip(), b.lstrip()
    return bool(a and b) and _is_cjk(a[-1]) and _is_cjk(b[0])


def _date_join(a: str, b: str) -> bool:
    """'2024 年 12 月 31 日' -> '2024年12月31日': no space between a digit and 年/月/日 (either side)."""
    a = a.rstrip()
    return bool(a) and ((a[-1].isdigit() and b in "年月日") or (a[-1] in "年月" and b.isdigit()))


_BLANK = frozenset((0, 0x09, 0x0A, 0x0D, 0x20, 0xA0, 0x3000))


def _all_codes(raw, n: int) -> list[int]:
    """UTF-16 code units of all n characters in one call (falls back to one call per character)."""
    if n <= 0:
        return []
    buf = ctypes.create_string_buffer((n + 1) * 2)
    got = pdfium_c.FPDFText_GetText(raw, 0, n, ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort)))
    if got - 1 == n:
        return list(memoryview(buf.raw[: n * 2]).cast("H"))
    return [pdfium_c.FPDFText_GetUnicode(raw, i) for i in range(n)]


def _chars(page: pdfium.PdfPage, stats: dict | None = None) -> list[tuple[float, float, float, float, str, bool]]:
    """(left, bottom, right, top, char, space_before) for every visible character, reading at most
    ``limits.PDF_TEXT_LAYER_CHARS`` characters of the text layer (``stats["text_layer_chars"]`` gets the
    page's count)."""
    tp = page.get_textpage()
    out = []
    try:
        raw = tp.raw
        total = pdfium_c.FPDFText_CountChars(raw)
        if stats is not None:
            stats["text_layer_chars"] = total
        n = min(total, limits.PDF_TEXT_LAYER_CHARS.value())
        codes = _all_codes(raw, n)
        get_box = pdfium_c.FPDFText_GetLooseCharBox
        rect = pdfium_c.FS_RECTF()
        rect_ref = ctypes.byref(rect)
        space = True
        for i in range(n):
            code = codes[i]
            if code in _BLANK:
                space = True
                continue
            if code in (0xFFFE, 0xFEFF) or code < 0x20:
                continue
            if 0xD800 <= code <= 0xDFFF:  # surrogate halves: keep the pair as one character
                if code >= 0xDC00:
                    continue
                low = codes[i + 1] if i + 1 < n else 0
                ch = chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)) if 0xDC00 <= low <= 0xDFFF else ""
                if not ch:
                    continue
            elif 0xE000 <= code <= 0xF8FF or code == 0xFFFD:
                ch = _CHECKED.get(code) or ("•" if space else "")
                if not ch:
                    continue
            else:
                ch = chr(code)
                if ch.isspace():
                    space = True
                    continue
            if not get_box(raw, i, rect_ref) or rect.top - rect.bottom <= 0:
                continue
            out.append((rect.left, rect.bottom, rect.right, rect.top, ch, space))
            space = False
    finally:
        tp.close()
    return out


def page_rows(page: pdfium.PdfPage, stats: dict | None = None) -> list[Row]:
    """Characters grouped into rows (top to bottom) and cells (left to right).

    Uses each character's loose box (font ascent to descent), so commas and digits of one number
    share a row. A gap under about one character height joins characters into one cell (with a
    space when the text layer has a space there or the gap is visible, never between two CJK
    characters); a wider gap starts a new cell. Runs of three or more one-character CJK cells
    (letter-spaced headings) are joined into one cell."""
    chars = _chars(page, stats)
    chars.sort(key=lambda c: -(c[1] + c[3]) / 2)
    rows: list[Row] = []
    members: list[list] = []
    for left, bottom, right, top, ch, sp in chars:
        mid, height = (bottom + top) / 2, top - bottom
        row = rows[-1] if rows else None
        if row is None or abs(row.y - mid) > min(row.height, height) * 0.4:
            row = Row(y=mid, height=height)
            rows.append(row)
            members.append([])
        members[-1].append((left, right, ch, sp, bottom, top))
    for row, chs in zip(rows, members):
        chs.sort(key=lambda c: c[0])
        merged: list[Cell] = []
        for left, right, ch, sp, bottom, top in chs:
            prev = merged[-1] if merged else None
            gap = left - prev.x1 if prev is not None else None
            if prev is not None and gap < row.height * 0.9:
                sep = " " if (sp or gap > row.height * 0.2) and not _cjk_join(prev.text, ch) else ""
                if sep and gap < row.height * 0.6 and _date_join(prev.text, ch):
                    sep = ""
                prev.text, prev.x1 = prev.text + sep + ch, max(prev.x1, right)
                if sep:
                    prev.boxes.append(None)
                prev.boxes.append((left, bottom, right, top))
            else:
                merged.append(Cell(ch, left, right, [(left, bottom, right, top)]))
        row.cells = _join_spaced_cjk(merged, row.height)
        for cell in row.cells:
            folded = SPACES.sub(" ", cell.text).strip()
            if folded != cell.text:  # characters never carry whitespace, so this does not happen in practice
                cell.text, cell.boxes = folded, [None] * len(folded)
        row.cells = [c for c in row.cells if c.text]
    return [r for r in rows if r.cells]


def _join_spaced_cjk(cells: list[Cell], height: float) -> list[Cell]:
    """Runs of three or more one-character CJK cells less than three line heights apart made one cell."""
    out: list[Cell] = []
    i = 0
    while i < len(cells):
        j = i
        while (
            j + 1 < len(cells)
            and len(cells[j].text) == 1
            and len(cells[j + 1].text) == 1
            and _is_cjk(cells[j].text)
            and _is_cjk(cells[j + 1].text)
            and cells[j + 1].x0 - cells[j].x1 < height * 3
        ):
            j += 1
        if j - i >= 2:
            out.append(Cell("".join(c.text for c in cells[i : j + 1]), cells[i].x0, cells[j].x1,
                            [b for c in cells[i : j + 1] for b in c.boxes]))
        else:
            out.extend(cells[i : j + 1])
        i = j + 1
    return out


def _latin_cjk(text: str) -> tuple[int, int]:
    latin = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    cjk = sum(1 for ch in text if _is_cjk(ch))
    return latin, cjk


def split_bilingual_columns(rows: list[Row], width: float) -> list[list[Row]] | None:
    """[left rows, right rows] when the page is two-column bilingual prose (Latin left, CJK right),
    else None. Conservative: a gutter in the middle third that (almost) no row crosses, at least
    8 rows with text on both sides, Latin-dominant left, CJK-dominant right, few numeric cells."""
    if len(rows) < 8 or width <= 0:
        return None
    cells = [c for r in rows for c in r.cells]
    if sum(1 for c in cells if _NUMERIC.match(c.text)) > 0.1 * len(cells):
        return None
    step = 2.0
    nbins = int(width / step) + 1
    cover = [0] * nbins
    for r in rows:
        for c in r.cells:
            for b in range(max(0, int(c.x0 / step)), min(nbins, int(c.x1 / step) + 1)):
                cover[b] += 1
    lo, hi = int(width * 0.3 / step), int(width * 0.7 / step)
    best = min(range(lo, hi), key=lambda b: (cover[b], abs(b - nbins // 2)))
    if cover[best] > max(1, len(rows) * 0.03):
        return None
    x = best * step
    left, right, both = [], [], 0
    for r in rows:
        lc = [c for c in r.cells if c.x1 <= x + step]
        rc = [c for c in r.cells if c.x1 > x + step]
        if lc and rc:
            both += 1
        if lc:
            left.append(Row(r.y, r.height, lc))
        if rc:
            right.append(Row(r.y, r.height, rc))
    if both < 8 or both < 0.4 * len(rows):
        return None
    l_lat, l_cjk = _latin_cjk(" ".join(r.text for r in left))
    r_lat, r_cjk = _latin_cjk(" ".join(r.text for r in right))
    if l_lat < 3 * l_cjk or r_cjk < 2 * r_lat or l_lat < 200 or r_cjk < 100:
        return None
    return [left, right]
