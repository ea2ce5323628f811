"""Read side of a citation: the stored document, page text, sections and where a cited figure sits on
its page. The web viewer and the MCP server open sources through these functions only: a document id is
looked up here, and the file path they read comes from the warehouse row, never from the request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

import duckdb

DOCUMENT_ID = re.compile(r"[0-9a-f]{64}")  # documents.document_id: sha256 hex of the file bytes
_PDF_LOCATOR = re.compile(r"^p(\d+) r(\d+)\b")  # printed-fact locator "p12 r5 c3": page, 1-based line


@dataclass(frozen=True)
class StoredDocument:
    document_id: str
    doc_name: str
    file_name: str
    path: Path | None
    bytes: int | None
    kind: str  # pdf | html (inline XBRL / SEC HTML) | xbrl (instance, no pages) | text (transcripts, markdown)
    market: str | None
    company_id: str | None
    stock_code: str | None
    form: str | None
    fiscal_year: int | None
    fiscal_period: str | None
    period_end: object
    currency: str | None
    accounting_standard: str | None
    pages: int


_KINDS = {".pdf": "pdf", ".htm": "html", ".html": "html", ".xhtml": "html", ".xml": "xbrl"}


def document(con: duckdb.DuckDBPyConnection, document_id: str) -> StoredDocument | None:
    """The stored document with this exact id (64 hex characters), or None."""
    if not isinstance(document_id, str) or not DOCUMENT_ID.fullmatch(document_id):
        return None
    row = con.execute(
        "SELECT d.document_id, d.doc_name, d.file_name, d.path, d.bytes, d.market, d.company_id, d.stock_code, "
        "d.form, d.fiscal_year, d.fiscal_period, d.period_end, d.currency, d.accounting_standard, "
        "(SELECT count(*) FROM pages p WHERE p.document_id = d.document_id) "
        "FROM documents d WHERE d.document_id = ?", [document_id]).fetchone()
    if row is None:
        return None
    (doc_id, doc_name, file_name, path, size, market, company_id, stock_code, form, fy, fp, pe, cur, std,
     pages) = row
    kind = _KINDS.get(Path(file_name).suffix.lower(), "text")
    return StoredDocument(doc_id, doc_name, file_name, Path(path) if path else None, size, kind, market,
                          company_id, stock_code, form, fy, fp, pe, cur, std, int(pages))


def source_file(doc: StoredDocument) -> Path | None:
    """The document's file as ingested, if it is still there unchanged in size; else None."""
    if doc.path is None or not doc.path.is_file():
        return None
    if doc.bytes is not None and doc.path.stat().st_size != doc.bytes:
        return None
    return doc.path


def page(con: duckdb.DuckDBPyConnection, document_id: str, page_no: int) -> tuple[str, bool] | None:
    """(text, ocr) of one stored page, or None."""
    row = con.execute("SELECT text, ocr FROM pages WHERE document_id = ? AND page = ?",
                      [document_id, int(page_no)]).fetchone()
    return (row[0], bool(row[1])) if row else None


def sections(con: duckdb.DuckDBPyConnection, document_id: str) -> list[dict]:
    """The document's named sections in page order (section id, printed title, first and last page)."""
    cur = con.execute("SELECT section, title, page_start, page_end, pointer FROM sections WHERE document_id = ? "
                      "ORDER BY page_start, char_start", [document_id])
    return [{"section": s, "title": t, "page_start": a, "page_end": b, "pointer": bool(p)}
            for s, t, a, b, p in cur.fetchall()]


def xbrl_fact(con: duckdb.DuckDBPyConnection, document_id: str, locator: str) -> dict | None:
    """One XBRL fact by its locator (the fact id), with its context, for documents without pages."""
    cur = con.execute("SELECT concept, label, value, value_text, unit, decimals, period_start, period_end, "
                      "dimensions, locator FROM facts WHERE document_id = ? AND locator = ? LIMIT 1",
                      [document_id, locator])
    row = cur.fetchone()
    return dict(zip([d[0] for d in cur.description], row)) if row else None


def figure_spans(con: duckdb.DuckDBPyConnection, document_id: str, page_no: int, label: str | None,
                 value) -> list[tuple[int, int]]:
    """Character spans of a printed figure on its page: the value as printed and its row label, found from
    the stored fact (same page, label and value). [] when the fact or its text cannot be found."""
    try:
        value = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return []
    stored = page(con, document_id, page_no)
    if stored is None:
        return []
    text = stored[0]
    query = ("SELECT value_text, locator, label FROM facts WHERE document_id = ? AND page = ? AND value = ? "
             "AND (? IS NULL OR label = ?) ORDER BY fact_no")
    facts = con.execute(query, [document_id, int(page_no), value, label, label]).fetchall()
    if not facts and label is not None:  # the metric's label may be normalised: the value alone then
        facts = con.execute(query, [document_id, int(page_no), value, None, None]).fetchall()
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    for value_text, locator, fact_label in facts:
        if not value_text:
            continue
        hinted = _PDF_LOCATOR.match(locator or "")
        order = list(range(len(lines)))
        if hinted and 1 <= int(hinted.group(2)) <= len(lines):
            hint = int(hinted.group(2)) - 1
            order.sort(key=lambda i: abs(i - hint))
        for i in order:
            at = lines[i].find(value_text)
            if at < 0:
                continue
            spans = [(starts[i] + at, starts[i] + at + len(value_text))]
            name = (fact_label or "").strip()
            where = lines[i].find(name) if name else -1
            if where >= 0 and where + len(name) <= at:
                spans.insert(0, (starts[i] + where, starts[i] + where + len(name)))
            return spans
    return []


def text_span(con: duckdb.DuckDBPyConnection, document_id: str, page_no: int, quote: str) -> tuple[int, int] | None:
    """Where a quoted text (a search hit, a passage) sits on its stored page, or None."""
    stored = page(con, document_id, page_no)
    if stored is None or not quote:
        return None
    at = stored[0].find(quote)
    return (at, at + len(quote)) if at >= 0 else None


def company_documents(con: duckdb.DuckDBPyConnection, company_id: str) -> list[dict]:
    """The company's stored documents, latest period first."""
    cur = con.execute("SELECT document_id, doc_name, form, fiscal_year, fiscal_period, period_end, pages, "
                      "currency, accounting_standard FROM documents WHERE company_id = ? "
                      "ORDER BY period_end DESC NULLS LAST, doc_name", [company_id])
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]
