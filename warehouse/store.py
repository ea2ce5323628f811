"""The DuckDB file: where it lives, how it is opened, the company master inside it."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import duckdb

from mappings.companies import alias_key, master
from schema.ddl import SCHEMA_VERSION, create_statements
from warehouse import migrate, versions
from warehouse.sql import read_config

LOCKED = {"enable_external_access": False, "lock_configuration": True}


def home_dir(home: str | Path | None = None) -> Path:
    return Path(home or os.environ.get("FILINGS_HOME") or ".filings").expanduser().resolve()


def db_path(home: str | Path | None = None) -> Path:
    return home_dir(home) / "warehouse.duckdb"


def connect(home: str | Path | None = None, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open the warehouse. ``read_only`` opens the current published version (``warehouse.versions``) and
    never writes a byte: no schema, no seeding; it carries the read limits of ``warehouse.sql.read_config``
    (memory limit, no spill to disk). A home with no database yet reads as an in-memory one holding the
    company master.

    ``read_only=False`` opens the file in place, for a process that owns the home alone (tests, benchmarks,
    maintenance); while it is open no other process can read it. Ingest, update and index write through
    ``warehouse.writer.Writer`` instead (a private copy, published whole), which readers never wait for.
    Both refuse file access from SQL (read_csv, COPY, ATTACH, INSTALL/LOAD, SET)."""
    if read_only:
        config = {**LOCKED, **read_config()}
        for attempt in range(5):
            path = versions.current_db(home_dir(home))
            if not path.exists():
                break
            try:  # the resolved path names one version: DuckDB's per-process cache never hands back an older one
                return duckdb.connect(str(path), read_only=True, config=config)
            except duckdb.IOException:
                if path.exists() or attempt == 4:
                    raise
                # the version was removed between resolving and opening: resolve again
        con = duckdb.connect(":memory:", config=config)
        prepare(con)
        return con
    path = db_path(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(path), config=LOCKED)
    prepare(con)
    return con


def prepare(con: duckdb.DuckDBPyConnection) -> bool:
    """Create the schema, upgrade older tables, seed the company master when it changed (writable connections
    only). Returns whether anything was written."""
    changed = False
    before = _meta(con, "schema_version")
    for stmt in create_statements():
        con.execute(stmt)
    changed |= migrate.upgrade(con)  # metric tables of an older schema are rebuilt from the stored facts
    if before != str(SCHEMA_VERSION):
        con.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
        changed = True
    digest = master_digest()
    if _meta(con, "master_digest") != digest:
        seed_master(con)
        con.execute("INSERT OR REPLACE INTO meta VALUES ('master_digest', ?)", [digest])
        changed = True
    return changed


def master_digest() -> str:
    """sha256 of the company master as loaded (mappings/companies.yaml): seeding runs when it changes."""
    companies, securities = master()
    return hashlib.sha256(repr((companies, securities)).encode()).hexdigest()


def _meta(con: duckdb.DuckDBPyConnection, key: str) -> str | None:
    try:
        row = con.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
    except duckdb.CatalogException:
        return None
    return row[0] if row else None


def seed_master(con: duckdb.DuckDBPyConnection) -> None:
    """Load mappings/companies.yaml (companies, listings, aliases); companies met in filings stay."""
    companies, securities = master()
    con.execute("DELETE FROM aliases WHERE document_id IS NULL AND company_id IN "
                "(SELECT company_id FROM companies WHERE source = 'master')")
    for c in companies:
        con.execute(
            "INSERT OR REPLACE INTO companies VALUES (?, ?, ?, ?, 'master')", [c.company_id, c.name_en, c.name_zh, c.cik]
        )
        names = [(c.name_en, "name_en"), (c.name_zh, "name_zh")] + [(a, "alias") for a in c.aliases]
        con.executemany(
            "INSERT INTO aliases (alias, alias_key, company_id, kind) VALUES (?, ?, ?, ?)",
            [(n, alias_key(n), c.company_id, k) for n, k in names if n]
        )
    for s in securities:
        con.execute(
            "INSERT OR REPLACE INTO securities VALUES (?, ?, ?, ?, ?)",
            [s.stock_code, s.company_id, s.market, s.listing, s.exchange],
        )


CONTRACT_TABLES = ("documents", "pages", "facts", "financial_metrics")


def snapshot(con: duckdb.DuckDBPyConnection, tables: tuple[str, ...] = CONTRACT_TABLES) -> dict[str, list[tuple]]:
    """Every row of ``tables`` as sorted tuples, without the columns that record when a row was stored: two
    warehouses made from the same files by different executors compare equal."""
    out = {}
    for table in tables:
        cols = [name for name, kind in con.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = ? "
            "ORDER BY ordinal_position", [table]).fetchall() if not kind.startswith("TIMESTAMP")]
        out[table] = sorted(con.execute(f"SELECT {', '.join(cols)} FROM {table}").fetchall(), key=repr)
    return out
