"""Rows of a PDF page rebuilt from the text layer's character boxes (pdfium loose char boxes).

``page_rows(page)`` reads every visible character with its box (``_chars``), groups characters on one
baseline into a :class:`Row` and the characters of a row into :class:`Cell` s left to right (a gap under
about one line height joins, a wider one starts a new cell), with the word-space, CJK and date rules that
:mod:`parsers.pdf_pages` documents for page text; each cell keeps one box per character.
``split_bilingual_columns(rows, width)`` tells two-column bilingual prose (Latin left, CJK right) and
gives its two columns; ``page_rows`` itself never splits. The per-character work runs on numpy arrays
(``_rows_fast``); ``_rows_plain`` is the same rule one character at a time, for pages it cannot take.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass, field
from itertools import repeat

import numpy as np
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


def _cjk_codes(cp: np.ndarray) -> np.ndarray:
    """:func:`_is_cjk` for an array of code points."""
    return ((cp >= 0x3000) & (cp <= 0x9FFF)) | ((cp >= 0xFF00) & (cp <= 0xFFEF)) | ((cp >= 0xF900) & (cp <= 0xFAFF))


def _date_join(last: str, ch: str) -> bool:
    """'2024 年 12 月 31 日' -> '2024年12月31日': no space between a digit and 年/月/日 (either side)."""
    return (last.isdigit() and ch in "年月日") or (last in "年月" and ch.isdigit())


# What each UTF-16 code unit of the text layer is (a code above U+FFFF is looked up as U+FFFF: a character).
_SKIP, _SPACE, _CHAR, _HIGH, _BULLET, _CHECKED_BOX = range(6)
_KIND = np.full(0x10000, _CHAR, np.uint8)
_KIND[[c for c in range(0x10000) if chr(c).isspace()]] = _SPACE
_KIND[:0x20] = _KIND[0xFFFE] = _KIND[0xFEFF] = _KIND[0xDC00:0xE000] = _SKIP  # controls, BOMs, low surrogates
_KIND[[0, 0x09, 0x0A, 0x0D]] = _SPACE
_KIND[0xD800:0xDC00] = _HIGH  # a character with the low surrogate after it, else skipped
_KIND[0xE000:0xF900] = _KIND[0xFFFD] = _BULLET  # private use / replacement: "•" right after a space, else skipped
_KIND[list(_CHECKED)] = _CHECKED_BOX
# Called without argtypes, the C function takes its ctypes arguments as they are: pypdfium2's binding
# converts each one through its pointer argtypes, which costs more than pdfium's own work per character.
_LOOSE_BOX = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.cast(pdfium_c.FPDFText_GetLooseCharBox, ctypes.c_void_p).value)
_RECT_COLS = [[f[0] for f in pdfium_c.FS_RECTF._fields_].index(s) for s in ("left", "bottom", "right", "top")]


def _all_codes(raw, n: int) -> np.ndarray:
    """UTF-16 code units of all n characters in one call (falls back to one call per character)."""
    if n <= 0:
        return np.zeros(0, np.int64)
    buf = ctypes.create_string_buffer((n + 1) * 2)
    got = pdfium_c.FPDFText_GetText(raw, 0, n, ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort)))
    if got - 1 == n:
        return np.frombuffer(buf, np.uint16, n).astype(np.int64)
    return np.array([pdfium_c.FPDFText_GetUnicode(raw, i) for i in range(n)], np.int64)


def _loose_boxes(raw, idx: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """(found, boxes): pdfium's loose box of each character in idx as float64 (left, bottom, right, top)."""
    k, size = len(idx), ctypes.sizeof(pdfium_c.FS_RECTF)
    rects = (pdfium_c.FS_RECTF * k)()
    ptrs = map(ctypes.byref, repeat(rects, k), range(0, size * k, size))
    found = np.fromiter(map(_LOOSE_BOX, repeat(raw, k), idx, ptrs), bool, k)
    return found, np.frombuffer(rects, np.float32).reshape(k, 4)[:, _RECT_COLS].astype(np.float64)


def _chars(page: pdfium.PdfPage, stats: dict | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(boxes, code points, space_before) of every visible character as arrays (boxes are rows of left,
    bottom, right, top), reading at most ``limits.PDF_TEXT_LAYER_CHARS`` characters of the text layer
    (``stats["text_layer_chars"]`` gets the page's count). Whitespace only marks a space before the next
    character (see ``_KIND``); characters without a box of positive height are dropped."""
    tp = page.get_textpage()
    try:
        raw = tp.raw
        total = pdfium_c.FPDFText_CountChars(raw)
        if stats is not None:
            stats["text_layer_chars"] = total
        codes = _all_codes(raw, min(total, limits.PDF_TEXT_LAYER_CHARS.value()))
        kind = _KIND[np.minimum(codes, 0xFFFF)]
        nxt = np.append(codes[1:], 0)
        pair = (kind == _HIGH) & (nxt >= 0xDC00) & (nxt <= 0xDFFF)
        char = (kind == _CHAR) | (kind == _CHECKED_BOX) | pair
        cand = np.flatnonzero(char | (kind == _BULLET))
        found, boxes = _loose_boxes(raw, cand.tolist())
    finally:
        tp.close()
    ok = found & ~(boxes[:, 3] - boxes[:, 1] <= 0)
    cand, boxes = cand[ok], boxes[ok]
    seg = np.cumsum(kind == _SPACE)[cand]  # spaces so far: a character is the first since a space when this grows
    first = np.ones(len(cand), bool)
    first[1:] = seg[1:] != seg[:-1]
    keep = first | char[cand]  # a bullet only right after a space
    cand = cand[keep]
    cp, hi = codes[cand], pair[cand]
    cp[hi] = 0x10000 + ((cp[hi] - 0xD800) << 10) + (nxt[cand][hi] - 0xDC00)
    for code, ch in _CHECKED.items():
        cp[codes[cand] == code] = ord(ch)
    cp[kind[cand] == _BULLET] = ord("•")
    return boxes[keep], cp, first[keep]


def _text(cp: np.ndarray) -> str:
    """The string of an array of code points."""
    return cp.astype("<u4").tobytes().decode("utf-32-le")


def page_rows(page: pdfium.PdfPage, stats: dict | None = None) -> list[Row]:
    """Characters grouped into rows (top to bottom) and cells (left to right).

    Uses each character's loose box (font ascent to descent), so commas and digits of one number
    share a row. A gap under about one character height joins characters into one cell (with a
    space when the text layer has a space there or the gap is visible, never between two CJK
    characters); a wider gap starts a new cell. Runs of three or more one-character CJK cells
    (letter-spaced headings) are joined into one cell. Cell text is never empty and already folded
    (characters carry no whitespace; only single spaces are put between them)."""
    boxes, cp, sp = _chars(page, stats)
    if not len(cp):
        return []
    if np.isfinite(boxes).all() and (boxes[:, 2] >= boxes[:, 0]).all():  # every corpus page so far
        return _rows_fast(boxes, cp, sp)
    return _rows_plain([(*b, ch, s) for b, ch, s in zip(boxes.tolist(), _text(cp), sp.tolist())])


def _row_starts(mid: np.ndarray, height: np.ndarray) -> list[int]:
    """Where rows start in characters sorted by middle, top first. A character with the same middle and
    height as the one before it never starts a row, so only the others are looked at one by one."""
    looked = np.flatnonzero((mid[1:] != mid[:-1]) | (height[1:] != height[:-1])) + 1
    starts, y, h = [0], float(mid[0]), float(height[0])
    for k, m, hk in zip(looked.tolist(), mid[looked].tolist(), height[looked].tolist()):
        if abs(y - m) > min(h, hk) * 0.4:
            starts.append(k)
            y, h = m, hk
    return starts


def _rows_fast(boxes: np.ndarray, cp: np.ndarray, sp: np.ndarray) -> list[Row]:
    """:func:`page_rows` on arrays (rules in :func:`_rows_plain`). With finite boxes whose right is never
    left of their left, a new cell's first box reaches past all boxes before it in the row, so the largest
    right so far in the row is the cell's."""
    n = len(cp)
    order = np.argsort(-(boxes[:, 1] + boxes[:, 3]) / 2, kind="stable")
    mid, height = ((boxes[:, 1] + boxes[:, 3]) / 2)[order], (boxes[:, 3] - boxes[:, 1])[order]
    starts = _row_starts(mid, height)
    row = np.repeat(np.arange(len(starts)), np.diff(starts + [n]))
    order = order[np.argsort(_row_keys(row, boxes[order, 0]), kind="stable")]  # left to right in each row
    left, right = boxes[order, 0], boxes[order, 2]
    cp, sp, row_h = cp[order], sp[order], height[starts][row]
    reach = _row_key_values(np.maximum.accumulate(_row_keys(row, right)))  # the largest right so far in the row
    gap = left - np.append(-np.inf, reach[:-1])
    join = gap < row_h * 0.9
    join[starts] = False
    sep = join & (sp | (gap > row_h * 0.2))
    cjk = _cjk_codes(cp)
    sep[1:] &= ~(cjk[1:] & cjk[:-1])
    ym = (cp == ord("年")) | (cp == ord("月"))
    near = np.flatnonzero(sep[1:] & (gap[1:] < row_h[1:] * 0.6) & (ym[1:] | (cp[1:] == ord("日")) | ym[:-1])) + 1
    for k in near.tolist():
        sep[k] = not _date_join(chr(cp[k - 1]), chr(cp[k]))
    first = np.flatnonzero(~join).tolist()
    cells = _cells(boxes[order], cp, first, sep)
    cuts = np.searchsorted(first, starts + [n]).tolist()
    return [Row(y, h, _join_spaced_cjk(cells[i:j], h) if j - i >= 3 else cells[i:j])
            for y, h, i, j in zip(mid[starts].tolist(), height[starts].tolist(), cuts, cuts[1:])]


def _cells(boxes: np.ndarray, cp: np.ndarray, first: list[int], sep: np.ndarray) -> list[Cell]:
    """The cells of characters in reading order: a cell starts at each index in ``first``, a space goes
    before each character where ``sep`` is set. Built as all cells' text and boxes end to end, then cut."""
    n = len(cp)
    at = np.arange(n) + np.cumsum(sep)  # where each character goes
    pick = np.full(n + int(sep.sum()), n)  # which character is at each place (n: a space)
    pick[at] = np.arange(n)
    text = _text(np.append(cp, 0x20)[pick])
    left, bottom, right, top = (col.tolist() for col in boxes.T)
    box_list = list(zip(left, bottom, right, top)) + [None]
    flat_boxes = list(map(box_list.__getitem__, pick.tolist()))
    flat_first = at[first].tolist()
    return [Cell(text[a:b], left[s], max(right[s:e]), flat_boxes[a:b])
            for s, e, a, b in zip(first, first[1:] + [n], flat_first, flat_first[1:] + [len(pick)])]


def _row_keys(row: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Integers in the order of (row, x), x being float32 values (-0.0 taken as 0.0): the row above
    32 bits holding x's float32 bits flipped to sort as unsigned integers."""
    bits = (x + 0.0).astype(np.float32).view(np.uint32).astype(np.uint64)
    bits ^= np.where(bits >> 31, np.uint64(0xFFFFFFFF), np.uint64(0x80000000))
    return (row.astype(np.uint64) << np.uint64(32)) | bits


def _row_key_values(keys: np.ndarray) -> np.ndarray:
    """The x values (float64) of :func:`_row_keys` keys."""
    bits = keys & np.uint64(0xFFFFFFFF)
    bits ^= np.where(bits >> 31, np.uint64(0x80000000), np.uint64(0xFFFFFFFF))
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


def _rows_plain(chars: list[tuple[float, float, float, float, str, bool]]) -> list[Row]:
    """:func:`page_rows` one character at a time on (left, bottom, right, top, char, space_before): top
    first, a character over 0.4 of the smaller height (its own, the row's first one's) from the row's
    middle starts a row; left to right, one under 0.9 row heights after the cell's largest right joins
    the cell, with a space if the text layer has one or the gap is over 0.2 row heights, unless both are
    CJK or (gap under 0.6) :func:`_date_join`."""
    chars.sort(key=lambda c: -(c[1] + c[3]) / 2)
    rows: list[Row] = []
    members: list[list] = []
    for left, bottom, right, top, ch, sp in chars:
        mid, height = (bottom + top) / 2, top - bottom
        if not rows or abs(rows[-1].y - mid) > min(rows[-1].height, height) * 0.4:
            rows.append(Row(y=mid, height=height))
            members.append([])
        members[-1].append((left, right, ch, sp, bottom, top))
    for row, chs in zip(rows, members):
        chs.sort(key=lambda c: c[0])
        merged: list[Cell] = []
        for left, right, ch, sp, bottom, top in chs:
            prev = merged[-1] if merged else None
            gap = left - prev.x1 if prev is not None else None
            if prev is not None and gap < row.height * 0.9:
                last = prev.text[-1]
                sep = " " if (sp or gap > row.height * 0.2) and not (_is_cjk(last) and _is_cjk(ch)) else ""
                if sep and gap < row.height * 0.6 and _date_join(last, ch):
                    sep = ""
                prev.text, prev.x1 = prev.text + sep + ch, max(prev.x1, right)
                prev.boxes.extend([None, (left, bottom, right, top)] if sep else [(left, bottom, right, top)])
            else:
                merged.append(Cell(ch, left, right, [(left, bottom, right, top)]))
        row.cells = _join_spaced_cjk(merged, row.height)
    return rows


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
