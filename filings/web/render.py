"""Pictures and marks of a cited page: a PDF page as a PNG (pypdfium2, cached under the warehouse home),
the boxes of a character span on it, an inline-XBRL page as its own (sanitized) HTML with the span or fact
marked, and any other page's text with the span marked.

Files are opened only from a :class:`warehouse.citations.StoredDocument` (its path comes from the
warehouse row); cache file names are built from the validated document id and an integer page.
pdfium is not thread-safe: every call into it holds ``PDFIUM_LOCK``.
"""

from __future__ import annotations

import ctypes
import html
import json
import os
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from warehouse.citations import DOCUMENT_ID, StoredDocument, source_file

# Pixels per PDF point of the page image: 1.5 (108 dpi) keeps 9 pt statement figures legible at a
# screen's width while a page PNG stays ~100-300 KB (measured on corpus 10-K and A-share pages).
RENDER_SCALE = 1.5
# Parsed inline-XBRL documents kept in memory (each ~1-2 MB of page HTML): the pages of a few filings an
# analyst flips between.
HTML_DOCS_IN_MEMORY = 4
# PDF pages whose character boxes are kept in memory (~3k boxes a page): the pages of a session's citations.
GEOMETRY_PAGES_IN_MEMORY = 64
# zlib level of the cached PNGs: 1 encodes ~25% faster than the default 6 with files no larger (measured on
# ten pages of a FinanceBench 10-Q at scale 1.5: 169 vs 232 ms per page, ~146 vs ~156 KB).
PNG_COMPRESS_LEVEL = 1
PDFIUM_LOCK = threading.RLock()
CACHE_VERSION = "1"  # bump when the rendering or the fragment format changes

_INK_WS = re.compile(r"[\s\u00a0\u2002\u2003\u2009\u200b\u3000]")  # parsers.html_pages._WS, per character
_TOKEN = re.compile(r"(<[^>]*>)")
_UNIT = re.compile(r"&(?:#\d+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);|.", re.S)


@dataclass(frozen=True)
class Rect:
    """A highlight rectangle as fractions of the page image (0..1 from the top-left corner)."""

    left: float
    top: float
    width: float
    height: float


def cache_dir(home: Path, doc: StoredDocument) -> Path:
    if not DOCUMENT_ID.fullmatch(doc.document_id):  # ids come from the warehouse; never trust a path part
        raise ValueError("not a document id")
    return home / "viewer-cache" / CACHE_VERSION / doc.document_id


# ------------------------------------------------------------------------------------------------ PDF
def page_png(home: Path, doc: StoredDocument, page_no: int) -> Path | None:
    """The cached PNG of a PDF page (rendered on first request); None when the source file is gone."""
    target = cache_dir(home, doc) / f"p{int(page_no)}.png"
    if target.is_file():
        return target
    path = source_file(doc)
    if path is None:
        return None
    with PDFIUM_LOCK:
        pdf = pdfium.PdfDocument(str(path))
        try:
            page = pdf[int(page_no) - 1]
            try:
                image = page.render(scale=RENDER_SCALE).to_pil()
            finally:
                page.close()
        finally:
            pdf.close()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f"{target.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    image.save(tmp, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    os.replace(tmp, target)
    return target


def pdf_span_rects(doc: StoredDocument, page_no: int, stored_text: str,
                   spans: list[tuple[int, int]]) -> list[list[Rect]] | None:
    """Per span, one rectangle per line it covers (union of its characters' loose boxes), as fractions of
    the page image. None when the file is gone or its text layer no longer gives the stored text (an OCR'd
    page, a changed file): the caller then marks the text instead."""
    geometry = _page_geometry(doc, int(page_no))
    if geometry is None or geometry[0] != stored_text:
        return None
    text, boxes = geometry
    out = []
    for start, end in spans:
        lines: dict[int, list[float]] = {}
        line = text.count("\n", 0, start)
        for i in range(max(0, start), min(end, len(boxes))):
            if text[i] == "\n":
                line += 1
                continue
            box = boxes[i]
            if box is None:
                continue
            r = lines.setdefault(line, list(box))
            r[0], r[1], r[2], r[3] = min(r[0], box[0]), min(r[1], box[1]), max(r[2], box[2]), max(r[3], box[3])
        out.append([Rect(a, b, c - a, d - b) for a, b, c, d in lines.values()])
    return out


_geometry: OrderedDict[tuple, tuple[str, list] | None] = OrderedDict()
_geometry_lock = threading.Lock()


def _page_geometry(doc: StoredDocument, page_no: int) -> tuple[str, list] | None:
    """(text, per character (left, top, right, bottom) as fractions of the page image or None) of a PDF
    page's text layer; kept for the last GEOMETRY_PAGES_IN_MEMORY pages viewed."""
    from parsers.pdf_pages import page_text_boxes

    path = source_file(doc)
    if path is None:
        return None
    key = (doc.document_id, page_no, str(path), path.stat().st_mtime_ns)
    with _geometry_lock:
        if key in _geometry:
            _geometry.move_to_end(key)
            return _geometry[key]
    with PDFIUM_LOCK:
        pdf = pdfium.PdfDocument(str(path))
        try:
            page = pdf[page_no - 1]
            try:
                text, boxes = page_text_boxes(page)
                width, height = page.get_width(), page.get_height()
                fractions = []
                for box in boxes:
                    if box is None:
                        fractions.append(None)
                        continue
                    x0, y0 = _to_device(page, width, height, box[0], box[3])
                    x1, y1 = _to_device(page, width, height, box[2], box[1])
                    x0, x1 = sorted((x0, x1))
                    y0, y1 = sorted((y0, y1))
                    fractions.append((x0 / width, y0 / height, x1 / width, y1 / height))
            finally:
                page.close()
        finally:
            pdf.close()
    with _geometry_lock:
        _geometry[key] = (text, fractions)
        while len(_geometry) > GEOMETRY_PAGES_IN_MEMORY:
            _geometry.popitem(last=False)
    return text, fractions


def _to_device(page: pdfium.PdfPage, width: float, height: float, x: float, y: float) -> tuple[float, float]:
    """Page space -> image space of a rendering of size (width, height) in points, the page's own
    rotation included (what ``PdfPage.render`` draws)."""
    # FPDF_PageToDevice works in integer pixels: map onto a 100x finer virtual device for sub-point precision
    fine = 100
    dx, dy = ctypes.c_int(), ctypes.c_int()
    pdfium_c.FPDF_PageToDevice(page.raw, 0, 0, int(width * fine), int(height * fine), 0, x, y,
                               ctypes.byref(dx), ctypes.byref(dy))
    return dx.value / fine, dy.value / fine


# ----------------------------------------------------------------------------------------- inline XBRL
_html_docs: OrderedDict[str, tuple[list[str], dict[str, int]]] = OrderedDict()
_html_lock = threading.Lock()


def html_document(home: Path, doc: StoredDocument) -> tuple[list[str], dict[str, int]] | None:
    """(safe HTML per page, fact id -> page) of an HTML filing: memory, then the disk cache, then parsed."""
    from parsers.html_fragments import page_fragments

    with _html_lock:
        if doc.document_id in _html_docs:
            _html_docs.move_to_end(doc.document_id)
            return _html_docs[doc.document_id]
    folder = cache_dir(home, doc)
    cached = folder / "pages.json"
    data = None
    if cached.is_file():
        try:
            stored = json.loads(cached.read_text(encoding="utf-8"))
            data = (stored["pages"], stored["facts"])
        except (ValueError, KeyError):
            data = None
    if data is None:
        path = source_file(doc)
        if path is None:
            return None
        data = page_fragments(path)
        folder.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_name(f"pages.json.{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_text(json.dumps({"pages": data[0], "facts": data[1]}, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, cached)
    with _html_lock:
        _html_docs[doc.document_id] = data
        while len(_html_docs) > HTML_DOCS_IN_MEMORY:
            _html_docs.popitem(last=False)
    return data


def mark_fragment(fragment: str, ink_ranges: list[tuple[int, int]]) -> str:
    """The fragment with the non-whitespace characters in ``ink_ranges`` (half-open, counted over the
    fragment's text) wrapped in ``<mark class="hl">``; the first mark gets ``id="hl"``."""
    if not ink_ranges:
        return fragment
    out, ink, first = [], 0, True
    for token in _TOKEN.split(fragment):
        if not token or token.startswith("<"):
            out.append(token)
            continue
        piece, open_ = [], False
        for unit in _UNIT.findall(token):
            char = html.unescape(unit)
            if _INK_WS.fullmatch(char) or char == "":
                piece.append(unit)
                continue
            inside = any(a <= ink < b for a, b in ink_ranges)
            if inside and not open_:
                piece.append('<mark class="hl" id="hl">' if first else '<mark class="hl">')
                first, open_ = False, True
            elif not inside and open_:
                piece.append("</mark>")
                open_ = False
            piece.append(unit)
            ink += 1
        if open_:
            piece.append("</mark>")
        out.append("".join(piece))
    return "".join(out)


# ------------------------------------------------------------------------------------------- any text
def mark_text(text: str, spans: list[tuple[int, int]], anchor: bool = True) -> str:
    """Escaped page text with the character spans wrapped in ``<mark class="hl">`` (the first gets
    ``id="hl"`` unless ``anchor`` is off: the page image's highlight holds the anchor then)."""
    bounds = sorted((max(0, a), min(len(text), b)) for a, b in spans if b > a)
    out, pos, first = [], 0, anchor
    for a, b in bounds:
        if a < pos:
            a = pos
        if a >= b:
            continue
        out.append(html.escape(text[pos:a]))
        out.append(('<mark class="hl" id="hl">' if first else '<mark class="hl">') + html.escape(text[a:b]) + "</mark>")
        first, pos = False, b
    out.append(html.escape(text[pos:]))
    return "".join(out)


def mark_fact(fragment: str, element_id: str) -> str:
    """The fragment with the displayed XBRL fact ``element_id`` marked (class ``hl``)."""
    pattern = re.compile(r'<span([^>]*)\bid="' + re.escape(element_id) + r'"([^>]*)>')
    return pattern.sub(lambda m: '<span' + (m.group(1).rstrip() + f' id="{element_id}"' + m.group(2))
                       .replace('class="ixf"', 'class="ixf hl"') + '>', fragment, count=1)
