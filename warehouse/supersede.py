"""A corrected report replaces the report it corrects.

Decision: the replaced document is removed, not kept and marked. Its rows leave every table that holds a
``document_id`` (documents, pages, sections, facts, document_metrics, and any table added later),
``financial_metrics`` of its listing is rebuilt from the documents that remain (so the corrected report's
values take over, and no metric, page or search hit cites a version the company withdrew), and a row in
``superseded`` remembers it, so that ingesting the old file again is skipped. The file itself stays in the
fetch cache with its manifest line; ``ingest_runs`` records the removal. One transaction: a crash leaves
the document either whole or gone."""

from __future__ import annotations

import datetime as dt

import duckdb

from warehouse.ingest import rebuild_metrics

KEEP = {"ingest_runs", "superseded"}  # history tables that keep their rows about the removed document


def document_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    rows = con.execute(
        "SELECT table_name FROM information_schema.columns WHERE column_name = 'document_id' "
        "AND table_schema = current_schema() ORDER BY table_name").fetchall()
    # documents last: other tables' rows go first (foreign keys, if a later schema adds them)
    names = [r[0] for r in rows if r[0] not in KEEP]
    return sorted(names, key=lambda n: n == "documents")


def remove_document(con: duckdb.DuckDBPyConnection, document_id: str, superseded_by: str, source_id: str | None,
                    reason: str, run_id: str | None = None) -> bool:
    """Remove a superseded document; False when it is not in the warehouse."""
    row = con.execute("SELECT doc_name, stock_code, path FROM documents WHERE document_id = ?", [document_id]).fetchone()
    if row is None:
        return False
    doc_name, stock_code, path = row
    now = dt.datetime.now()
    con.execute("BEGIN TRANSACTION")
    try:
        for table in document_tables(con):
            con.execute(f'DELETE FROM "{table}" WHERE document_id = ?', [document_id])
        if stock_code:
            rebuild_metrics(con, [stock_code])
        con.execute("INSERT OR REPLACE INTO superseded VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [document_id, superseded_by, source_id, doc_name, stock_code, reason, now])
        if run_id:
            con.execute("INSERT INTO ingest_runs VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        [run_id, now, now, path or doc_name, document_id, "superseded", reason, 0.0])
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    return True
