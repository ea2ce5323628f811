"""Bring an older warehouse's metric tables up to the current schema, from what it already stores.

``document_metrics`` and both ``financial_metrics`` tables are derived data: facts and documents are the
record. When their columns differ from the DDL (a warehouse built by an older version), they are recreated and
refilled from the stored facts, with no file re-read or re-parsed.
"""

from __future__ import annotations

from contextlib import contextmanager

import duckdb

from schema.ddl import TABLES, columns
from warehouse import metrics
from warehouse.lookup import stored_facts, stored_info

DERIVED_TABLES = ("document_metrics", "financial_metrics", "financial_metrics_as_reported")


def _existing_columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    return [r[0] for r in con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ? AND table_schema = 'main' "
        "ORDER BY ordinal_position", [table]).fetchall()]


def outdated(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Derived tables whose columns differ from the DDL."""
    return [t for t in DERIVED_TABLES if _existing_columns(con, t) not in ([], columns(t))]


@contextmanager
def _transaction(con: duckdb.DuckDBPyConnection):
    con.execute("BEGIN TRANSACTION")
    try:
        yield
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def upgrade(con: duckdb.DuckDBPyConnection) -> bool:
    """Recreate and refill outdated metric tables (read-write connection). Returns whether anything changed."""
    if not outdated(con):
        return False
    with _transaction(con):
        for table in DERIVED_TABLES:
            con.execute(f"DROP TABLE IF EXISTS {table}")
            con.execute(f"CREATE TABLE {table} ({TABLES[table]})")
        _refill(con)
    return True


def _refill(con: duckdb.DuckDBPyConnection) -> int:
    docs = [r[0] for r in con.execute(
        "SELECT document_id FROM documents WHERE stock_code IS NOT NULL AND company_metrics ORDER BY document_id"
    ).fetchall()]
    for document_id in docs:
        metrics.store_document_metrics(con, stored_info(con, document_id)[0], stored_facts(con, document_id))
    metrics.rebuild_all(con)
    return len(docs)
