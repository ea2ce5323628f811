"""The DuckDB file: where it lives, how it is opened, the company master inside it."""

from __future__ import annotations

import os
from pathlib import Path

import duckdb

from mappings.companies import alias_key, master
from schema.ddl import SCHEMA_VERSION, create_statements
from warehouse import migrate
from warehouse.sql import read_config

LOCKED = {"enable_external_access": False, "lock_configuration": True}


def home_dir(home: str | Path | None = None) -> Path:
    return Path(home or os.environ.get("FILINGS_HOME") or ".filings").expanduser().resolve()


def db_path(home: str | Path | None = None) -> Path:
    return home_dir(home) / "warehouse.duckdb"


def connect(home: str | Path | None = None, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open the warehouse. Read-write connections create the schema; read-only ones refuse every write and
    carry the read limits of ``warehouse.sql.read_config`` (memory limit, no spill to disk).
    Both refuse file access from SQL (read_csv, COPY, ATTACH, INSTALL/LOAD, SET)."""
    path = db_path(home)
    if read_only:
        config = {**LOCKED, **read_config()}
        if not path.exists():
            con = duckdb.connect(":memory:", config=config)
            _create(con)
            return con
        return duckdb.connect(str(path), read_only=True, config=config)
    path.parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(path), config=LOCKED)
    _create(con)
    return con


def _create(con: duckdb.DuckDBPyConnection) -> None:
    for stmt in create_statements():
        con.execute(stmt)
    migrate.upgrade(con)  # metric tables of an older schema are rebuilt from the stored facts
    con.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
    seed_master(con)


def seed_master(con: duckdb.DuckDBPyConnection) -> None:
    """Load mappings/companies.yaml (companies, listings, aliases); companies met in filings stay."""
    companies, securities = master()
    con.execute("DELETE FROM aliases WHERE company_id IN (SELECT company_id FROM companies WHERE source = 'master')")
    for c in companies:
        con.execute(
            "INSERT OR REPLACE INTO companies VALUES (?, ?, ?, ?, 'master')", [c.company_id, c.name_en, c.name_zh, c.cik]
        )
        names = [(c.name_en, "name_en"), (c.name_zh, "name_zh")] + [(a, "alias") for a in c.aliases]
        con.executemany(
            "INSERT INTO aliases VALUES (?, ?, ?, ?)", [(n, alias_key(n), c.company_id, k) for n, k in names if n]
        )
    for s in securities:
        con.execute(
            "INSERT OR REPLACE INTO securities VALUES (?, ?, ?, ?, ?)",
            [s.stock_code, s.company_id, s.market, s.listing, s.exchange],
        )
