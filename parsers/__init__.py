"""Parsers: file bytes in, ParsedDocument out. No parser touches a store.

``detect`` says which parser claims a file (None: not a filing we read) and ``why_not`` why a file is not
claimed; ``parse`` runs the parser between the checks of ``parsers.boundary`` (file size per kind before;
clean text, page caps and the fact bound after).
"""

from __future__ import annotations

from pathlib import Path

from parsers import boundary
from schema.errors import ParseError
from schema.models import DocumentInfo, ParsedDocument

_HEAD = 65536
# File name endings of the filings this tool reads: a file with one of these inside a folder that is not
# read gets a "skipped" line naming the reason.
FILING_SUFFIXES = frozenset({".pdf", ".htm", ".html", ".xhtml", ".xml", ".json", ".txt"})


def detect(path: str | Path) -> str | None:
    """'xbrl', 'pdf', 'transcript', 'companyfacts' or None, from the file's content (never from its name alone)."""
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
        from parsers import transcripts, us_companyfacts

        if us_companyfacts.is_companyfacts(path):
            return "companyfacts"
        if transcripts.is_transcript(path):
            return "transcript"
    return None


def why_not(path: str | Path) -> str:
    """Why ``detect`` does not claim a file: '<path>: <reason>'."""
    return f"{path}: {_why(Path(path))}"


def _why(path: Path) -> str:
    suffix = path.suffix.lower()
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(_HEAD)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if size == 0 or not head.strip():
        return f"empty file ({size} bytes)"
    if suffix == ".pdf":
        return "not a PDF (no %PDF- header at the start)"
    if suffix in {".htm", ".html", ".xhtml"}:
        return "HTML without inline XBRL (only iXBRL filings are read from HTML)"
    if suffix == ".xml":
        from parsers import us_xbrl

        tag = (us_xbrl._root_tag(head) or "").rsplit(":", 1)[-1]
        if tag == "linkbase":
            return "an XBRL linkbase (read together with its instance, not alone)"
        return "XML that is not an XBRL instance"
    if suffix == ".json":
        return ("JSON that is neither an earnings-call transcript (no prepared_remarks / q_and_a speaker turns) nor "
                "SEC companyfacts (no cik / entityName / facts object)")
    if suffix == ".txt":
        return "text that does not read like an earnings call"
    return "unknown kind of file"


def parse(path: str | Path, hints: DocumentInfo | None = None) -> ParsedDocument:
    """Parse one file. ``hints`` (from a manifest beside the files) fill what a PDF's content leaves open."""
    path = Path(path)
    if not path.exists():
        raise ParseError(str(path), "file does not exist")
    if path.is_dir():
        raise ParseError(str(path), "is a folder, not a file")
    if not path.is_file():
        raise ParseError(str(path), "not a regular file")
    if path.stat().st_size == 0:
        raise ParseError(str(path), "file is empty")
    kind = detect(path)
    if kind is None:
        raise ParseError(str(path), f"not a filing this tool reads: {_why(path)} (expected an iXBRL/XBRL "
                                    "filing, a PDF report, SEC companyfacts JSON or an earnings-call transcript)")
    boundary.check_size(path, kind)
    if kind == "xbrl":
        from parsers import us_xbrl

        boundary.check_xbrl_facts(path)
        parsed = us_xbrl.parse(path)
        boundary.check_facts(parsed, path)
        if path.suffix.lower() in {".htm", ".html", ".xhtml"}:
            from parsers.html_pages import html_pages

            parsed.pages = html_pages(path)  # the filing's physical pages, citable like a PDF's
            parsed.info.pages = len(parsed.pages)
    elif kind == "transcript":
        from parsers import transcripts

        parsed = transcripts.parse(path)
    elif kind == "companyfacts":
        from parsers import us_companyfacts

        parsed = us_companyfacts.parse(path)  # facts only: a database of filed figures has no pages
    else:
        from parsers import pdf_report

        parsed = pdf_report.parse(path, hints=hints)
    boundary.check_facts(parsed, path)
    boundary.clean_document(parsed)
    boundary.cap_pages(parsed, kind)
    if kind != "transcript":
        _with_sections(parsed)
    return parsed


def _with_sections(parsed: ParsedDocument) -> ParsedDocument:
    """Named narrative sections over the pages (risk factors, MD&A, 管理层讨论与分析, chairman's statement)."""
    if parsed.pages and not parsed.sections:
        from parsers.sections import find_sections

        try:
            parsed.sections = find_sections(parsed.pages, parsed.info)
        except Exception as exc:  # noqa: BLE001 - pages stay citable without section names
            parsed.warnings.append(f"section detection failed ({type(exc).__name__}: {exc})")
    return parsed
