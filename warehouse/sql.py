"""Read-only SQL over the warehouse: an AST guard (sqlglot) in front of a locked, read-only connection.

Only a single SELECT (WITH / UNION / set operations included) over the warehouse's own tables passes
the guard. The connection itself is read-only with external access disabled, so a statement that slips
past the guard still cannot write or read files.
"""

from __future__ import annotations

import duckdb
import sqlglot
from sqlglot import exp

from schema.ddl import TABLES
from schema.errors import QueryRefused

_FILE_FUNCTIONS = {
    "read_csv", "read_csv_auto", "read_text", "read_blob", "read_json", "read_json_auto", "read_json_objects",
    "read_parquet", "parquet_scan", "parquet_metadata", "parquet_schema", "glob", "read_ndjson", "sniff_csv",
    "read_xlsx", "st_read", "delta_scan", "iceberg_scan", "query_table", "query", "getenv",
}
_ALLOWED_ROOTS = (exp.Select, exp.Union, exp.Intersect, exp.Except)


def guard(sql: str) -> str:
    """The statement if it is a read-only SELECT over warehouse tables; else QueryRefused with the reason."""
    try:
        statements = [s for s in sqlglot.parse(sql, read="duckdb") if s is not None]
    except sqlglot.errors.ParseError as exc:
        raise QueryRefused(f"could not parse the SQL: {str(exc).splitlines()[0]}") from None
    if len(statements) != 1:
        raise QueryRefused("exactly one SELECT statement is allowed")
    tree = statements[0]
    if not isinstance(tree, _ALLOWED_ROOTS):
        raise QueryRefused(f"only SELECT queries are allowed (got {tree.key.upper()}); the warehouse is read-only here")
    ctes = {c.alias_or_name.lower() for c in tree.find_all(exp.CTE)}
    for node in tree.walk():
        if isinstance(node, (exp.Insert, exp.Update, exp.Delete, exp.Create, exp.Drop, exp.Alter, exp.Command,
                             exp.Copy, exp.Attach, exp.Detach, exp.Set, exp.Pragma)):
            raise QueryRefused(f"{node.key.upper()} is not allowed: the warehouse is read-only here")
        if isinstance(node, exp.Table):
            name = node.name.lower()
            if node.args.get("this") is not None and isinstance(node.this, exp.Anonymous | exp.Func):
                continue  # table function; checked below
            if not name or ("/" in name or "." in name or "\\" in name):
                raise QueryRefused(f"reading files is not allowed ({node.sql()}); query the warehouse tables")
            if name not in TABLES and name not in ctes and not node.args.get("db"):
                raise QueryRefused(f"unknown table {node.name!r}; tables: {', '.join(sorted(TABLES))}")
            if node.args.get("db") and node.args["db"].name.lower() not in {"main", "information_schema"}:
                raise QueryRefused(f"only the warehouse's own tables can be queried ({node.sql()})")
        if isinstance(node, exp.Func):
            fname = (node.sql_name() if not isinstance(node, exp.Anonymous) else node.name).lower()
            if fname in _FILE_FUNCTIONS or fname.startswith(("read_", "pragma_")):
                raise QueryRefused(f"{fname}() is not allowed: SQL here cannot read files")
    return sql


def run(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None) -> tuple[list[str], list[tuple]]:
    guard(sql)
    try:
        cur = con.execute(sql, params or [])
    except duckdb.Error as exc:
        raise QueryRefused(f"query failed: {str(exc).splitlines()[0]}") from None
    return [d[0] for d in cur.description], cur.fetchall()
