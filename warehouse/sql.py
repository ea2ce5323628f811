"""Read-only SQL over the warehouse: one guard for every surface that runs a user's SQL (CLI, facade,
viewer, MCP).

How a statement is checked (:meth:`SqlGuard.check`), each step an allow-list:

1. Size and text: at most ``limits.SQL_CHARS`` characters of valid Unicode.
2. DuckDB's own parser reads it (``json_serialize_sql`` on a private in-memory connection), so the guard
   sees exactly what DuckDB would run, with no second parser to disagree with it: exactly one statement,
   and a SELECT (set operations, CTEs and subqueries included).
3. Every node of the parse tree is of a kind the guard knows (expressions, table references, query nodes);
   every relation is a table of the warehouse (``schema.ddl``), a CTE of the statement, or a listed
   ``information_schema`` view, never qualified by another catalog or schema (``temp.main.meta`` is refused);
   a CTE may not take the name of a DuckDB system view (out of its scope the name would reach that view);
   every function, operator and table function is in ``mappings/sql_allowlist.yaml``.

How it runs (:meth:`SqlGuard.run`): on a cursor of its own (so an interrupt touches nothing else), with a
timer that interrupts it after ``limits.SQL_SECONDS``; rows are streamed and at most ``max_rows`` are
fetched (one more tells that the result was cut). The read connection itself (``read_config``) is
read-only, has external access, extension loading and Python replacement scans off, a memory limit of
``limits.SQL_MEMORY_BYTES`` and no temporary directory, so nothing spills to disk; these settings are fixed
before ``lock_configuration`` so a statement cannot change them.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import duckdb

from mappings.sql_allowlist import allowlist
from schema import ddl, limits
from schema.errors import QueryRefused

EXPRESSION_CLASSES = frozenset({
    "BETWEEN", "CASE", "CAST", "COLLATE", "COLUMN_REF", "COMPARISON", "CONJUNCTION", "CONSTANT", "FUNCTION",
    "LAMBDA", "LAMBDA_REF", "OPERATOR", "PARAMETER", "POSITIONAL_REFERENCE", "STAR", "SUBQUERY", "TYPE", "WINDOW",
})
TABLE_REFS = frozenset({"BASE_TABLE", "JOIN", "SUBQUERY", "TABLE_FUNCTION", "EXPRESSION_LIST", "EMPTY", "PIVOT"})
QUERY_NODES = frozenset({"SELECT_NODE", "SET_OPERATION_NODE", "RECURSIVE_CTE_NODE", "CTE_NODE"})
_FUNCTION_CLASSES = frozenset({"FUNCTION", "WINDOW", "AGGREGATE"})
_SHOW_HINT = ("DESCRIBE, SHOW and SUMMARIZE are not allowed here; list a table's columns with SELECT column_name, "
              "data_type FROM information_schema.columns WHERE table_name = 'documents'")


class SqlResult(tuple):
    """(columns, rows), so ``columns, rows = run(...)`` reads it; ``truncated``: there were more rows than
    ``max_rows`` and only the first ``max_rows`` were fetched."""

    truncated: bool

    def __new__(cls, columns: list[str], rows: list[tuple], truncated: bool = False) -> SqlResult:
        self = super().__new__(cls, (columns, rows))
        self.truncated = truncated
        return self

    @property
    def columns(self) -> list[str]:
        return self[0]

    @property
    def rows(self) -> list[tuple]:
        return self[1]


def read_config() -> dict[str, Any]:
    """DuckDB settings of every read connection: limits fixed before ``lock_configuration``."""
    return {
        "enable_external_access": False,
        "autoinstall_known_extensions": False,
        "autoload_known_extensions": False,
        "python_enable_replacements": False,
        "memory_limit": f"{limits.SQL_MEMORY_BYTES.value() // (1 << 20)}MiB",
        "temp_directory": "",
        "max_temp_directory_size": "0B",
        "lock_configuration": True,
    }


def warehouse_relations() -> frozenset[str]:
    """Tables (and views, when the DDL declares any) of the warehouse's own schema."""
    return frozenset(name.lower() for name in [*ddl.TABLES, *getattr(ddl, "VIEWS", {})])


@dataclass
class _Walk:
    ctes: set[str]
    relations: set[str]


class SqlGuard:
    """Checks and runs read-only statements. Thread-safe: the parser connection is used under a lock."""

    def __init__(self) -> None:
        self._parser = duckdb.connect(":memory:", config={"enable_external_access": False,
                                                          "lock_configuration": True})
        self._lock = threading.Lock()
        self.allow = allowlist()
        self.tables = warehouse_relations()
        with self._lock:
            self.system_names = frozenset(r[0] for r in self._parser.execute(
                "SELECT lower(view_name) FROM duckdb_views() UNION SELECT lower(table_name) FROM duckdb_tables()"
            ).fetchall())

    # checking -----------------------------------------------------------------------------------
    def check(self, sql: str) -> str:
        """``sql`` if it is one read-only SELECT over the warehouse within the allow-list; else QueryRefused."""
        if not isinstance(sql, str) or not sql.strip():
            raise QueryRefused("empty statement: give one SELECT over the warehouse tables")
        if len(sql) > limits.SQL_CHARS.value():
            raise QueryRefused(f"statement of {len(sql):,} characters, over {limits.SQL_CHARS.describe()}")
        try:
            sql.encode("utf-8")
        except UnicodeEncodeError:
            raise QueryRefused("the statement is not valid Unicode (it holds a lone surrogate)") from None
        if "\x00" in sql:
            raise QueryRefused("the statement holds a NUL character")
        self._statement_type(sql)
        tree = self._parse(sql)
        statements = tree.get("statements") or []
        if len(statements) != 1:
            raise QueryRefused(f"exactly one SELECT statement is allowed (got {len(statements)})")
        self._walk(statements[0])
        return sql

    def _statement_type(self, sql: str) -> None:
        """Exactly one statement, and a SELECT, as DuckDB's parser splits and types them."""
        with self._lock:
            try:
                statements = self._parser.extract_statements(sql)
            except duckdb.Error as exc:
                raise QueryRefused(f"could not parse the SQL: {_first_line(exc)}") from None
        if len(statements) != 1:
            raise QueryRefused(f"exactly one SELECT statement is allowed (got {len(statements)})")
        kind = statements[0].type.name
        if kind == "MULTI":
            raise QueryRefused("this form of SELECT (PIVOT, for one) is not allowed here: write it with GROUP BY "
                               "and FILTER / CASE")
        if kind != "SELECT":
            raise QueryRefused(f"only SELECT queries are allowed (got {_statement_kind(sql) or kind}); "
                               "the warehouse is read-only here")

    def _parse(self, sql: str) -> dict:
        with self._lock:
            try:
                raw = self._parser.execute("SELECT json_serialize_sql(?)", [sql]).fetchone()[0]
            except duckdb.Error as exc:  # pragma: no cover - the serializer reports errors in its JSON
                raise QueryRefused(f"could not parse the SQL: {_first_line(exc)}") from None
        try:
            tree = json.loads(raw)
        except RecursionError:
            raise QueryRefused("the statement is nested too deeply") from None
        if tree.get("error"):
            message = str(tree.get("error_message") or "")
            if tree.get("error_type") == "not implemented" or "Only SELECT" in message:
                kind = _statement_kind(sql)
                if kind in {"SELECT", "WITH", "FROM", "VALUES", "TABLE"}:
                    raise QueryRefused("this form of SELECT (PIVOT, for one) is not allowed here: write it with "
                                       "GROUP BY and FILTER / CASE")
                if kind in {"DESCRIBE", "SHOW", "SUMMARIZE"}:
                    raise QueryRefused(_SHOW_HINT)
                raise QueryRefused(f"only SELECT queries are allowed{f' (got {kind})' if kind else ''}; "
                                   "the warehouse is read-only here")
            raise QueryRefused(f"could not parse the SQL: {message.splitlines()[0] if message else 'syntax error'}")
        return tree

    def _walk(self, statement: dict) -> None:
        ctes = {key.lower() for key in _cte_names(statement)}
        clash = sorted(ctes & self.system_names)
        if clash:
            raise QueryRefused(f"a CTE may not be named like a DuckDB system view ({', '.join(clash)}): rename it")
        stack: list[Any] = [statement.get("node")]
        while stack:
            node = stack.pop()
            if isinstance(node, list):
                stack.extend(node)
                continue
            if not isinstance(node, dict):
                continue
            if "class" in node:
                self._expression(node)
            elif {"alias", "sample", "query_location"} <= node.keys() and "type" in node:
                if self._table_ref(node, ctes):
                    stack.extend(v for k, v in node.items() if k != "function")
                    stack.extend((node.get("function") or {}).get("arguments") or [])
                    continue
            elif {"modifiers", "cte_map"} <= node.keys():
                if node.get("type") not in QUERY_NODES:
                    raise QueryRefused(f"{_words(node.get('type'))} is not allowed here: only SELECT queries")
            stack.extend(node.values())

    def _expression(self, node: dict) -> None:
        cls = node.get("class")
        if cls not in EXPRESSION_CLASSES:
            raise QueryRefused(f"{_words(cls)} expressions are not allowed here")
        if cls in _FUNCTION_CLASSES or "function_name" in node:
            self._function(node, self.allow.functions, "function")

    def _function(self, node: dict, allowed: frozenset[str], what: str) -> None:
        name = str(node.get("function_name") or "").lower()
        if node.get("schema") or node.get("catalog"):
            raise QueryRefused(f"qualified function names are not allowed ({_qualified(node)})")
        if name not in allowed:
            shown = f"{name}()" if name.replace("_", "").isalnum() else f"operator {name}"
            raise QueryRefused(f"{shown} is not allowed here: SQL over the warehouse may use the {what}s listed "
                               "in mappings/sql_allowlist.yaml (pure functions; nothing that reads files, "
                               "settings or the catalog)")

    def _table_ref(self, node: dict, ctes: set[str]) -> bool:
        """Check a table reference; True for a table function (whose call node is not a scalar function)."""
        kind = node.get("type")
        if kind == "SHOW_REF":
            raise QueryRefused(_SHOW_HINT)
        if kind not in TABLE_REFS:
            raise QueryRefused(f"{_words(kind)} is not allowed here; query the warehouse tables with SELECT")
        if kind == "TABLE_FUNCTION":
            fn = node.get("function") or {}
            self._function(fn, self.allow.table_functions, "table function")
            return True
        if kind == "BASE_TABLE":
            catalog = str(node.get("catalog_name") or "").lower()
            schema = str(node.get("schema_name") or "").lower()
            name = str(node.get("table_name") or "")
            low = name.lower()
            if node.get("at_clause") is not None:
                raise QueryRefused(f"time travel (AT ...) is not allowed ({name})")
            if catalog:
                raise QueryRefused(f"only the warehouse's own tables can be queried ({catalog}.{schema}.{name}): "
                                   "leave out the catalog")
            if schema and schema != "main":
                if (schema, low) in self.allow.relations:
                    return False
                raise QueryRefused(f"only the warehouse's own tables can be queried ({schema}.{name})")
            if low in self.tables or (not schema and low in ctes):
                return False
            if "/" in name or "\\" in name or "." in name:
                raise QueryRefused(f"reading files is not allowed ({name!r}); query the warehouse tables")
            raise QueryRefused(f"unknown table {name!r}; tables: {', '.join(sorted(self.tables))}")
        return False

    # running ------------------------------------------------------------------------------------
    def run(self, con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None,
            max_rows: int | None = None, timeout: float | None = None) -> SqlResult:
        """Check, then run under the time limit, fetching at most ``max_rows`` rows (default
        ``limits.SQL_MAX_ROWS``)."""
        self.check(sql)
        max_rows = limits.SQL_MAX_ROWS.value() if max_rows is None else max(0, int(max_rows))
        timeout = float(limits.SQL_SECONDS.value() if timeout is None else timeout)
        cur = con.cursor()
        done = threading.Event()
        fired = threading.Event()

        def stop() -> None:
            if not done.is_set():
                fired.set()
                cur.interrupt()

        timer = threading.Timer(timeout, stop)
        timer.daemon = True
        timer.start()
        try:
            cur.execute(sql, params or [])
            columns = [d[0] for d in cur.description or []]
            rows = cur.fetchmany(max_rows + 1) if max_rows else []
            truncated = len(rows) > max_rows or (not max_rows and bool(cur.fetchmany(1)))
            return SqlResult(columns, rows[:max_rows], truncated)
        except duckdb.InterruptException:
            if fired.is_set():
                raise QueryRefused(f"stopped after {timeout:g} s: {limits.SQL_SECONDS.describe(int(timeout))}; "
                                   "narrow the query (WHERE, LIMIT) or raise the limit") from None
            raise QueryRefused("the query was interrupted") from None
        except duckdb.OutOfMemoryException:
            raise QueryRefused(f"the query needs more memory than {limits.SQL_MEMORY_BYTES.describe()}; "
                               "narrow it (WHERE, LIMIT, fewer joins)") from None
        except MemoryError:
            raise QueryRefused("the result is too large to hold in memory; narrow the query (WHERE, LIMIT)") from None
        except duckdb.Error as exc:
            raise QueryRefused(f"query failed: {_first_line(exc)}") from None
        finally:
            done.set()
            timer.cancel()
            try:
                cur.close()
            except duckdb.Error:  # pragma: no cover - closing a failed cursor
                pass


def _cte_names(tree: Any) -> set[str]:
    names: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            cte_map = node.get("cte_map")
            if isinstance(cte_map, dict):
                names.update(str(e.get("key")) for e in cte_map.get("map") or [] if isinstance(e, dict))
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return names


def _statement_kind(sql: str) -> str | None:
    """The first keyword of the statement (INSERT, COPY, PRAGMA ...), for the refusal message."""
    try:
        tokens = duckdb.tokenize(sql)
    except (duckdb.Error, RuntimeError, ValueError):
        return None
    for start, kind in tokens:
        if kind == duckdb.token_type.keyword:
            word = sql[start:].split(None, 1)[0] if sql[start:].strip() else ""
            return "".join(ch for ch in word if ch.isalpha()).upper()[:20] or None
        if kind != duckdb.token_type.comment:
            return None
    return None


def _words(kind: Any) -> str:
    return str(kind or "this construct").replace("_", " ").lower()


def _qualified(node: dict) -> str:
    return ".".join(str(p) for p in (node.get("catalog"), node.get("schema"), node.get("function_name")) if p)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


@lru_cache(maxsize=1)
def default_guard() -> SqlGuard:
    """The one guard object of the process."""
    return SqlGuard()


def guard(sql: str) -> str:
    """The statement if it passes the guard; else QueryRefused with the reason."""
    return default_guard().check(sql)


def run(con: duckdb.DuckDBPyConnection, sql: str, params: list | None = None, max_rows: int | None = None,
        timeout: float | None = None) -> SqlResult:
    """Check and run one read-only statement (see :class:`SqlGuard`)."""
    return default_guard().run(con, sql, params, max_rows=max_rows, timeout=timeout)
