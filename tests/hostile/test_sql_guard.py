"""The SQL surface: an allow-list over DuckDB's own parse tree, and per-statement time, row and memory limits.

Statements run on a real warehouse file (schema and the company master, seeded by the store), opened read-only
as every reader opens it. Expected behaviour comes from what a read-only surface must do (refuse writes, file
reads, settings and catalog functions; stop runaway statements), never from the guard's own output."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from mappings.sql_allowlist import allowlist
from schema.errors import QueryRefused
from warehouse import sql, store

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    h = tmp_path_factory.mktemp("sqlhome")
    con = store.connect(h)
    con.execute("INSERT INTO meta VALUES ('canary', 'sql-guard')")
    con.close()
    return h


@pytest.fixture(scope="module")
def con(home):
    c = store.connect(home, read_only=True)
    yield c
    c.close()


def digest(home: Path) -> str:
    return hashlib.sha256(store.db_path(home).read_bytes()).hexdigest()


def test_every_allowed_name_is_a_duckdb_builtin_without_side_effects():
    rows = duckdb.connect().execute(
        "SELECT lower(function_name), function_type, bool_or(coalesce(has_side_effects, false)) "
        "FROM duckdb_functions() GROUP BY ALL").fetchall()
    kinds: dict[str, set[str]] = {}
    side_effects = set()
    for name, kind, effects in rows:
        kinds.setdefault(name, set()).add(kind)
        if effects:
            side_effects.add(name)
    allow = allowlist()
    for name in allow.functions - set(allow.groups["special_forms"]):
        assert name in kinds, f"{name} is not a DuckDB function"
        assert kinds[name] & {"scalar", "aggregate", "window", "macro"}, name
        assert name not in side_effects, f"{name} has side effects"
    for name in allow.table_functions:
        assert "table" in kinds.get(name, set()), name
    for bad in ("current_setting", "getvariable", "read_csv", "glob", "checkpoint", "duckdb_settings", "repeat",
                "random", "setseed", "query", "sqlite_scan", "json_execute_serialized_sql", "parquet_metadata"):
        assert bad not in allow.functions | allow.table_functions


REFUSED = [
    # writes and statements that are not SELECT
    ("INSERT INTO meta VALUES ('x', 'y')", "only SELECT"),
    ("DELETE FROM meta", "only SELECT"),
    ("UPDATE meta SET value = 'x'", "only SELECT"),
    ("DROP TABLE meta", "only SELECT"),
    ("CREATE TABLE x AS SELECT 1", "only SELECT"),
    ("CREATE TEMP TABLE x AS SELECT 1", "only SELECT"),
    ("ATTACH 'other.duckdb' AS x", "only SELECT"),
    ("COPY meta TO 'meta.csv'", "only SELECT"),
    ("EXPORT DATABASE 'dump'", "only SELECT"),
    ("INSTALL httpfs", "only SELECT"),
    ("LOAD httpfs", "only SELECT"),
    ("SET memory_limit = '100GB'", "only SELECT"),
    ("PRAGMA database_list", "only SELECT"),
    ("CALL pragma_version()", "only SELECT"),
    ("EXPLAIN SELECT 1", "only SELECT"),
    ("CHECKPOINT", "only SELECT"),
    ("SELECT 1; DELETE FROM meta", "one SELECT"),
    ("SELECT 1; SELECT 2", "one SELECT"),
    # files
    ("SELECT * FROM '/etc/passwd'", "reading files"),
    ("SELECT * FROM read_csv('/etc/passwd')", "read_csv"),
    ("SELECT * FROM read_text('/etc/passwd')", "read_text"),
    ("SELECT * FROM glob('/*')", "glob"),
    ("SELECT * FROM parquet_metadata('x.parquet')", "parquet_metadata"),
    ("SELECT * FROM parquet_file_metadata('x.parquet')", "parquet_file_metadata"),
    ("SELECT * FROM sqlite_scan('x.db', 't')", "sqlite_scan"),
    ("SELECT * FROM query_table('meta')", "query_table"),
    ("SELECT * FROM query('SELECT 1')", "query"),
    ("SELECT * FROM json_execute_serialized_sql('{}')", "json_execute_serialized_sql"),
    # settings and catalog functions that reveal paths, and side effects
    ("SELECT current_setting('temp_directory')", "current_setting"),
    ("SELECT * FROM duckdb_databases()", "duckdb_databases"),
    ("SELECT * FROM duckdb_secrets()", "duckdb_secrets"),
    ("SELECT * FROM duckdb_settings()", "duckdb_settings"),
    ("SELECT * FROM enable_logging()", "enable_logging"),
    ("SELECT * FROM checkpoint()", "checkpoint"),
    ("SELECT * FROM pragma_database_list", "unknown table"),
    ("SELECT * FROM duckdb_databases", "unknown table"),
    ("SELECT * FROM pg_settings", "unknown table"),
    ("SELECT getenv('HOME')", "getenv"),
    ("SELECT getvariable('x')", "getvariable"),
    ("SELECT random()", "random"),
    ("SELECT setseed(0.5)", "setseed"),
    ("SELECT version()", "version"),
    ("SELECT current_database()", "current_database"),
    ("SELECT system.main.current_setting('temp_directory')", "qualified"),
    ("SELECT main.sum(1)", "qualified"),
    # catalog-qualified names and schema escapes
    ("SELECT * FROM temp.main.meta", "catalog"),
    ("SELECT * FROM system.main.duckdb_settings()", "qualified"),
    ("SELECT * FROM memory.main.meta", "catalog"),
    ("SELECT * FROM information_schema.schemata", "own tables"),
    ("SELECT * FROM pg_catalog.pg_settings", "own tables"),
    ("WITH pg_settings AS (SELECT 1) SELECT * FROM pg_settings", "system view"),
    ("WITH x AS (SELECT 1) SELECT * FROM (WITH duckdb_tables AS (SELECT 1) SELECT 1), duckdb_tables",
     "system view"),
    ("DESCRIBE documents", "DESCRIBE"),
    ("SUMMARIZE documents", "DESCRIBE"),
    ("SHOW TABLES", "DESCRIBE"),
    # string builders DuckDB's memory limit does not count
    ("SELECT repeat('x', 1000000000)", "repeat"),
    ("SELECT lpad('x', 1000000000, 'y')", "lpad"),
    ("SELECT printf('%1000000000d', 1)", "printf"),
    # text the parsers cannot take
    ("SELECT '", "could not parse"),
    ("SELECT /* unclosed", "could not parse"),
    ("SELECT \"", "could not parse"),
    ("", "empty"),
    ("   ", "empty"),
    ("SELECT '\ud800'", "Unicode"),
    ("SELECT 1\x00", "NUL"),
    ("SELECT " + "(" * 5000 + "1" + ")" * 5000, "could not parse"),
    ("SELECT 1 " + "-" * 200_000, "characters"),
]


@pytest.mark.parametrize("statement,reason", REFUSED, ids=[f"r{i}" for i in range(len(REFUSED))])
def test_refused_with_the_reason(con, statement, reason):
    with pytest.raises(QueryRefused) as info:
        sql.run(con, statement, timeout=5)
    assert reason.lower() in str(info.value).lower()
    assert "\n" not in str(info.value)


ADMITTED = [
    "SELECT count(*) FROM companies",
    "SELECT c.company_id, count(s.stock_code) AS listings FROM companies c LEFT JOIN securities s USING (company_id) "
    "GROUP BY ALL ORDER BY listings DESC, c.company_id LIMIT 5",
    "FROM companies SELECT company_id WHERE name_en ILIKE '%apple%'",
    "WITH x AS (SELECT company_id, row_number() OVER (ORDER BY company_id) AS n FROM companies) SELECT * FROM x "
    "WHERE n <= 3",
    "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT sum(n) FROM r",
    "SELECT company_id FROM companies UNION SELECT company_id FROM securities EXCEPT SELECT 'x'",
    "SELECT list_transform([1, 2, 3], lambda x: x * 2), [x * 2 FOR x IN [1, 2]], {'a': 1}.a",
    "SELECT date_part('year', DATE '2024-12-31'), EXTRACT(month FROM DATE '2024-12-31'), "
    "date_diff('day', DATE '2024-01-01', DATE '2024-12-31'), strftime(DATE '2024-01-01', '%Y')",
    "SELECT coalesce(NULL, 1), nullif(1, 1), CASE WHEN 1 < 2 THEN 'a' ELSE 'b' END, 1 BETWEEN 0 AND 2, "
    "'ab' LIKE 'a%', 'x' SIMILAR TO 'x', regexp_replace('a1', '[0-9]', '')",
    "SELECT CAST('1.5' AS DECIMAL(38, 6)) * 2, round(2.345, 2), greatest(1, 2), abs(-1)",
    "SELECT * FROM range(3)",
    "SELECT unnest([1, 2])",
    "SELECT median(x), quantile_cont(x, 0.9), stddev_samp(x), string_agg(x::VARCHAR, ',') FROM range(10) t(x)",
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY 1",
    "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'documents'",
    "SELECT * FROM main.companies LIMIT 1",
    "SELECT value FROM meta WHERE key = 'canary'",
]


@pytest.mark.parametrize("statement", ADMITTED, ids=[f"a{i}" for i in range(len(ADMITTED))])
def test_admitted_and_run(con, statement):
    result = sql.run(con, statement)
    assert result.columns and not result.truncated


def test_admitted_statements_return_the_warehouse_rows(con):
    assert sql.run(con, "SELECT value FROM meta WHERE key = 'canary'").rows == [("sql-guard",)]
    tables = {r[0] for r in sql.run(con, "SELECT table_name FROM information_schema.tables "
                                         "WHERE table_schema = 'main'").rows}
    assert {"documents", "pages", "facts", "financial_metrics"} <= tables


def test_runaway_recursive_cte_is_stopped_by_the_time_limit(con):
    with pytest.raises(QueryRefused, match=r"stopped after 1 s.*FILINGS_SQL_TIMEOUT"):
        sql.run(con, "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
                timeout=1)
    # the connection is usable afterwards, and a finished statement is never interrupted later
    assert sql.run(con, "SELECT 42", timeout=1).rows == [(42,)]


def test_cross_join_of_large_ranges_is_stopped(con):
    with pytest.raises(QueryRefused, match="stopped after"):
        sql.run(con, "SELECT count(*) FROM range(100000) a, range(100000) b, range(1000) c", timeout=1)


def test_rows_are_streamed_never_fetched_whole(con):
    result = sql.run(con, "SELECT * FROM range(1000000000)", max_rows=1000, timeout=10)
    assert len(result.rows) == 1000 and result.truncated
    assert result.rows[-1] == (999,)
    assert not sql.run(con, "SELECT * FROM range(5)", max_rows=5).truncated


def test_memory_limit_and_no_spill(monkeypatch):
    monkeypatch.setenv("FILINGS_SQL_MEMORY", "64MiB")
    c = duckdb.connect(":memory:", config={**store.LOCKED, **sql.read_config()})
    try:
        settings = dict(c.execute("SELECT name, value FROM duckdb_settings() WHERE name IN "
                                  "('memory_limit', 'temp_directory', 'max_temp_directory_size', "
                                  "'enable_external_access', 'lock_configuration')").fetchall())
        assert settings["temp_directory"] == "" and settings["enable_external_access"] == "false"
        assert settings["lock_configuration"] == "true" and settings["max_temp_directory_size"].startswith("0")
        assert settings["memory_limit"].startswith(("64.0 MiB", "64 MiB", "67.1 MB"))
        with pytest.raises(QueryRefused, match="more memory than.*FILINGS_SQL_MEMORY"):
            sql.run(c, "SELECT x % 30000000 AS k, count(*) FROM range(30000000) t(x) GROUP BY k", timeout=20,
                    max_rows=1)
        with pytest.raises(QueryRefused, match="more memory than"):
            sql.run(c, "SELECT x FROM range(30000000) t(x) ORDER BY x DESC", timeout=20, max_rows=1)
    finally:
        c.close()


def test_nothing_written(home, con):
    before = digest(home)
    for statement, _ in REFUSED:
        with pytest.raises(QueryRefused):
            sql.run(con, statement, timeout=2)
    for statement in ADMITTED:
        sql.run(con, statement)
    assert digest(home) == before


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "80"}
    return subprocess.run([sys.executable, "-m", "filings.cli", *args, "--home", str(home)], capture_output=True,
                          text=True, env=env, timeout=120)


def test_cli_refusals_are_one_line_without_traceback(home):
    for statement in ("SELECT '", "SELECT /* x", "SELECT * FROM temp.main.meta",
                      "SELECT current_setting('temp_directory')", "SELECT repeat('x', 1e9)"):
        res = _cli(home, "sql", statement)
        assert res.returncode == 2, res.stderr
        assert "refused:" in res.stderr and "Traceback" not in res.stderr
        assert len([x for x in res.stderr.splitlines() if x.strip()]) <= 3  # one message, wrapped at 80 columns


def test_cli_runaway_statement_ends_in_a_clear_error(home):
    env_home = str(home)
    res = subprocess.run([sys.executable, "-m", "filings.cli", "sql",
                          "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
                          "--home", env_home], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(REPO), "FILINGS_SQL_TIMEOUT": "2"})
    assert res.returncode == 2 and "stopped after 2 s" in res.stderr and "Traceback" not in res.stderr


def test_facade_refuses_with_the_documented_error(home):
    from filings import Filings

    with Filings(home, read_only=True) as f:
        with pytest.raises(QueryRefused):
            f.sql("SELECT '")
        with pytest.raises(QueryRefused):
            f.sql("SELECT /* unclosed")
        with pytest.warns(UserWarning, match="first 10 rows"):
            frame = f.sql("SELECT * FROM range(50)", max_rows=10)
        assert len(frame) == 10 and frame.attrs["truncated"]
