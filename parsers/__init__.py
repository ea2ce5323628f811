"""Parsers: file bytes in, ParsedDocument out. No parser touches a store.

``detect`` says which parser claims a file (None: not a filing we read); ``parse`` runs it.
"""

from __future__ import annotations

from pathlib import Path

from schema.errors import ParseError
from schema.models import DocumentInfo, ParsedDocument

_HEAD = 65536


def detect(path: str | Path) -> str | None:
    """'xbrl', 'pdf', 'transcript' or None, from the file's content (never from its name alone)."""
    path = Path(path)
    try:
        with path.open("rb") as fh:
            head = fh.read(_HEAD)
    except OSError:
        return None
    if head.startswith(b"%PDF-"):
        return "pdf"
    if path.suffix.lower() in {".htm", ".html", ".xhtml", ".xml"}:
        from parsers import us_xbrl

        if us_xbrl.is_xbrl(path):
            return "xbrl"
    if path.suffix.lower() in {".json", ".txt", ""}:
        from parsers import transcripts

        if transcripts.is_transcript(path):
            return "transcript"
    return None


def parse(path: str | Path, hints: DocumentInfo | None = None) -> ParsedDocument:
    """Parse one file. ``hints`` (from a manifest beside the files) fill what a PDF's content leaves open."""
    path = Path(path)
    if not path.exists():
        raise ParseError(str(path), "file does not exist")
    if path.is_dir():
        raise ParseError(str(path), "is a folder, not a file")
    if path.stat().st_size == 0:
        raise ParseError(str(path), "file is empty")
    kind = detect(path)
    if kind == "xbrl":
        from parsers import us_xbrl

        parsed = us_xbrl.parse(path)
        if path.suffix.lower() in {".htm", ".html", ".xhtml"}:
            from parsers.html_pages import html_pages

            parsed.pages = html_pages(path)  # the filing's physical pages, citable like a PDF's
            parsed.info.pages = len(parsed.pages)
        return _with_sections(parsed)
    if kind == "transcript":
        from parsers import transcripts

        return transcripts.parse(path)
    if kind == "pdf":
        from parsers import pdf_report

        return _with_sections(pdf_report.parse(path, hints=hints))
    raise ParseError(str(path), "not a filing this tool reads (expected an iXBRL/XBRL filing or a PDF report)")


def _with_sections(parsed: ParsedDocument) -> ParsedDocument:
    """Named narrative sections over the pages (risk factors, MD&A, 管理层讨论与分析, chairman's statement)."""
    if parsed.pages and not parsed.sections:
        from parsers.sections import find_sections

        try:
            parsed.sections = find_sections(parsed.pages, parsed.info)
        except Exception as exc:  # noqa: BLE001 - pages stay citable without section names
            parsed.warnings.append(f"section detection failed ({type(exc).__name__}: {exc})")
    return parsed
