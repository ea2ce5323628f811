"""Is a downloaded file what the listing promised? Size and signature checks run before a file is renamed
into the cache, so an HTML error page saved as ``.pdf``, a truncated PDF or a short body never reaches
ingest."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

HEAD = 65536  # bytes read from the start: signatures and the inline XBRL namespace sit on the first lines
TAIL = 2048  # a PDF's last %%EOF sits at its very end (a few bytes of padding after it are common)
# A file under this share of the size a listing announces (cninfo KB, HKEX "5MB": rounded) is an error page
# or a cut transfer, never a report.
MIN_SIZE_RATIO = 0.5
IXBRL_NS = b"http://www.xbrl.org/2013/inlineXBRL"
_TITLE = re.compile(rb"<title[^>]*>(.{0,120}?)</title>", re.I | re.S)


@dataclass(frozen=True)
class Expect:
    kind: str  # "pdf" | "html" | "ixbrl" | "xml"
    size: int | None = None  # exact bytes the listing gives (SEC filing index)
    approx_size: int | None = None  # about this many bytes (rounded by the listing)


def _looks_html(head: bytes) -> bool:
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return start.startswith((b"<!doctype html", b"<html", b"<head", b"<body")) or b"<html" in start[:512]


def _title(head: bytes) -> str:
    m = _TITLE.search(head)
    return m.group(1).decode("utf-8", "replace").strip() if m else ""


def check_file(path: Path, expect: Expect, content_type: str = "") -> str | None:
    """None when the file passes; else the reason in a few words."""
    size = path.stat().st_size
    if size == 0:
        return "empty body"
    with path.open("rb") as fh:
        head = fh.read(HEAD)
        fh.seek(max(0, size - TAIL))
        tail = fh.read(TAIL)
    problem = _signature(path, expect, head, tail, content_type)
    if problem:
        return problem
    if expect.size is not None and size != expect.size:
        return f"{size:,} bytes where the listing says {expect.size:,}"
    if expect.approx_size and size < MIN_SIZE_RATIO * expect.approx_size:
        return f"only {size:,} bytes where the listing announces about {expect.approx_size:,}"
    return None


def _signature(path: Path, expect: Expect, head: bytes, tail: bytes, content_type: str) -> str | None:
    if expect.kind == "pdf":
        if b"%PDF-" not in head[:1024]:
            if _looks_html(head):
                title = _title(head)
                return (f"an HTML page ({content_type or 'text/html'}{': ' + repr(title) if title else ''}) "
                        "was served instead of a PDF")
            return f"not a PDF (starts with {head[:16]!r})"
        if b"%%EOF" not in tail:
            return "truncated PDF (no %%EOF end marker)"
        return None
    if expect.kind in ("html", "ixbrl"):
        if not _looks_html(head) and not head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<?xml"):
            return f"not an HTML document (starts with {head[:16]!r})"
        if b"</html>" not in tail.lower():
            return "truncated HTML (no closing </html>)"
        if expect.kind == "ixbrl" and IXBRL_NS not in head:
            title = _title(head)
            return f"not an inline XBRL document{' (' + repr(title) + ')' if title else ''}"
        return None
    if expect.kind == "xml":
        try:
            etree.parse(str(path), etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True))
        except etree.XMLSyntaxError as exc:
            return f"not well-formed XML ({exc})"
        return None
    return f"unknown expected kind {expect.kind!r}"
