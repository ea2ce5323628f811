"""A-share / Hong Kong / US PDF report -> ParsedDocument.

``parse(path)``: page text for every physical page (OCR where a page has no text layer), recognition
(market, company, kind, period; ``parsers.recognise``), then statement extraction by market:
``parsers.cn_statements`` for "A", ``parsers.hk_statements`` for "HK", ``parsers.us_statements`` for "US"
(10-K / 10-Q / annual-report / earnings-release PDFs). Each module's ``read(pages, info)`` gives the facts
and the record of which statements were found on which pages and which could not be read
(``ParsedDocument.statement_reads``; a statement found but not read also becomes a warning). Extraction is
skipped for documents that carry no company metrics (ETF fund statements, MD&A extracts). The extractor
modules are imported lazily: when one does not exist (or has neither ``read`` nor ``extract``), or raises,
the document gets no facts and a warning (its pages remain citable).
Errors: ``ParseError`` for unreadable files, ``UnrecognisedDocument`` when the kind/period is unknown.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from pathlib import Path

from parsers.pdf_pages import read_pages
from parsers.recognise import recognise_pdf
from parsers.report_period import complete_period
from parsers.statement_reads import StatementResult, warnings_of
from schema.errors import ParseError, UnrecognisedDocument
from schema.models import DocumentInfo, Fact, Page, ParsedDocument, StatementRead

PARSER = "pdf_report/1"

Extractor = Callable[[list[Page], DocumentInfo], "list[Fact] | StatementResult"]
DEFAULT_EXTRACTORS: dict[str, str] = {
    "A": "parsers.cn_statements", "HK": "parsers.hk_statements", "US": "parsers.us_statements",
}


def is_pdf(path: str | Path) -> bool:
    """True when the file starts with the ``%PDF-`` signature (within its first 1 KiB)."""
    try:
        with open(path, "rb") as fh:
            return b"%PDF-" in fh.read(1024)
    except OSError:
        return False


def _load_extractor(module_name: str) -> Extractor | None:
    """The module's ``read`` (facts and the statement read record) or else its ``extract`` (facts only)."""
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            return None
        raise
    fn = getattr(module, "read", None) or getattr(module, "extract", None)
    return fn if callable(fn) else None


def parse(
    path: str | Path,
    statement_extractors: Mapping[str, Extractor | str | None] | None = None,
    *,
    ocr: bool | str = "auto",
    ocr_engine=None,
    hints: DocumentInfo | None = None,
) -> ParsedDocument:
    """Parse one PDF report. ``statement_extractors`` maps a market ("A", "HK", "US") to a callable
    ``(pages, info) -> list[Fact]`` or a module name with ``extract``; default ``DEFAULT_EXTRACTORS``."""
    path = Path(path)
    if not is_pdf(path):
        if not path.is_file():
            raise ParseError(str(path), "file not found")
        raise ParseError(str(path), "not a PDF (no %PDF- header)")
    warnings: list[str] = []
    pages = read_pages(path, ocr=ocr, engine=ocr_engine, warnings=warnings)
    try:
        info = recognise_pdf(path, pages, hints)
    except UnrecognisedDocument as exc:
        refused = [w for w in warnings if "not OCR'd" in w]
        if refused and not any(p.text for p in pages):  # say which limit left the pages without text
            more = f" (and {len(refused) - 1} more page(s))" if len(refused) > 1 else ""
            raise UnrecognisedDocument(str(path), f"{exc.reason}: {refused[0]}{more}") from None
        raise
    facts: list[Fact] = []
    reads: list[StatementRead] = []
    extractors = dict(DEFAULT_EXTRACTORS if statement_extractors is None else statement_extractors)
    if info.company_metrics and info.market in DEFAULT_EXTRACTORS:
        target = extractors.get(info.market)
        fn = _load_extractor(target) if isinstance(target, str) else target
        if fn is None:
            warnings.append(f"no statement extractor for market {info.market}: pages only")
        else:
            try:
                out = fn(pages, info)
                if isinstance(out, StatementResult):
                    facts, reads = out.facts, out.reads
                    warnings += warnings_of(reads)
                else:
                    facts = list(out)
            except Exception as exc:  # noqa: BLE001 - pages stay citable when a statement table defeats the extractor
                warnings.append(f"statement extraction failed ({type(exc).__name__}: {exc}): pages only")
    info = complete_period(info, facts, pages)  # a 10-Q's quarter, a release's period: statements' columns, headline
    return ParsedDocument(info=info, pages=pages, facts=facts, parser=PARSER, warnings=warnings,
                          statement_reads=reads)
