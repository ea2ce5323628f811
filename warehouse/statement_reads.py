"""The record of which primary statements a PDF report's readers found, read or could not read.

Parsers put it on ``ParsedDocument.statement_reads``; the warehouse stores it per document, and ``filings
coverage`` reads it to tell a parser gap (statement not found or unreadable: ``missing`` with the reason)
from a row the report does not print. Documents stored without the record (XBRL filings, warehouses built
before it) fall back to the facts: a statement counts as read for a period when it has facts for it.
"""

from __future__ import annotations

from dataclasses import dataclass

import duckdb


@dataclass(frozen=True)
class Read:
    statement: str
    consolidated: bool
    status: str  # read | unreadable | not_found
    page: int | None
    pages: tuple[int, ...]
    rows: int
    reason: str | None


def store(con: duckdb.DuckDBPyConnection, document_id: str, reads) -> None:
    """Insert a document's statement records (models with statement, consolidated, status, page, pages, rows,
    reason), inside the caller's transaction."""
    rows = [[document_id, r.statement, bool(r.consolidated), r.status, r.page, list(r.pages or []), r.rows or 0,
             r.reason] for r in reads or []]
    if rows:
        con.executemany("INSERT INTO statement_reads VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)


def reads_of(con: duckdb.DuckDBPyConnection, document_id: str) -> dict[str, Read]:
    """The consolidated statements' records of a document, by statement (empty when none were recorded)."""
    out: dict[str, Read] = {}
    if not con.execute("SELECT 1 FROM information_schema.tables WHERE table_name = 'statement_reads'").fetchone():
        return out  # a warehouse opened read-only before its first write under this version
    for statement, consolidated, status, page, pages, rows, reason in con.execute(
            """SELECT statement, consolidated, status, page, pages, rows, reason FROM statement_reads
               WHERE document_id = ? AND consolidated""", [document_id]).fetchall():
        out[statement] = Read(statement, consolidated, status, page, tuple(pages or ()), rows or 0, reason)
    return out
