"""A seeded fuzz of the SQL guard: thousands of mutations of valid and hostile statements run through
``warehouse.sql.run`` on a real read-only warehouse. Each one either runs or is refused with QueryRefused (never
another exception); afterwards the warehouse file is byte-identical, no file appeared in its folder, and no
result ever held the content of a secret file beside it."""

from __future__ import annotations

import hashlib
import random

import pytest

from schema.errors import QueryRefused
from warehouse import sql, store

SEED = 17
STATEMENTS = 3000

VALID = [
    "SELECT count(*) FROM companies",
    "SELECT company_id, name_en FROM companies WHERE name_en LIKE 'A%' ORDER BY 1 LIMIT 5",
    "SELECT c.company_id, count(*) FROM companies c JOIN securities s USING (company_id) GROUP BY 1",
    "WITH x AS (SELECT company_id FROM companies) SELECT * FROM x LIMIT 3",
    "SELECT key, value FROM meta",
    "SELECT * FROM range(10) t(x) WHERE x % 2 = 0",
    "SELECT list_transform([1, 2], lambda x: x + 1)",
    "SELECT upper(alias), length(alias_key) FROM aliases LIMIT 10",
    "SELECT stock_code, market FROM securities UNION ALL SELECT 'x', 'y'",
    "SELECT date_part('year', DATE '2024-01-01') AS y",
]
HOSTILE = [
    "SELECT * FROM read_text('{secret}')",
    "SELECT * FROM '{secret}'",
    "SELECT * FROM read_csv('{secret}')",
    "SELECT * FROM glob('{folder}/*')",
    "SELECT current_setting('temp_directory')",
    "SELECT * FROM duckdb_databases()",
    "SELECT * FROM temp.main.meta",
    "INSERT INTO meta VALUES ('fuzz', 'x')",
    "DELETE FROM meta",
    "DROP TABLE companies",
    "COPY meta TO '{folder}/out.csv'",
    "ATTACH '{folder}/x.duckdb' AS x",
    "CREATE TABLE fuzz AS SELECT 1",
    "SET memory_limit = '64GB'",
    "SELECT * FROM query('SELECT 1')",
    "SELECT getenv('HOME')",
    "WITH duckdb_tables AS (SELECT 1) SELECT * FROM duckdb_tables",
    "PRAGMA database_list",
    "SELECT * FROM checkpoint()",
    "SELECT * FROM json_execute_serialized_sql('{{}}')",
]
TOKENS = [
    ";", "; DROP TABLE meta", "; INSERT INTO meta VALUES ('a', 'b')", "--", "/*", "*/", "'", '"', "(", ")", ",",
    " UNION SELECT * FROM read_text('{secret}')", " UNION ALL SELECT value FROM meta", "temp.", "main.", "system.main.",
    "memory.", "information_schema.", " FROM '{secret}'", "read_blob('{secret}')", "current_setting('threads')",
    "getvariable('x')", " CROSS JOIN range(50)", " WHERE 1=1", " LIMIT 1", " ORDER BY 1", "$$", "$$x$$", "\\", "\u202e",
    "\ud800", "\x00", "\x1b[2J", "ATTACH ", "COPY ", "EXPORT DATABASE '{folder}' ", "PRAGMA ", "CALL ", "SET ",
    "lambda x: x", "->", "::VARCHAR", "[1, 2]", "{{'a': 1}}", "? ", "$1", "*", "EXCLUDE (x)", "COLUMNS(*)",
    " AT (VERSION => 1)", "PIVOT ", "DESCRIBE ", "SUMMARIZE ", "FROM ", "SELECT ", "WITH RECURSIVE r(n) AS (SELECT 1 "
    "UNION ALL SELECT n + 1 FROM r) ", "repeat('x', 10)", "duckdb_settings()", "pragma_version()",
]


def mutate(rng: random.Random, statement: str, fill: dict) -> str:
    s = statement
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        pos = rng.randint(0, len(s))
        if op < 0.45:
            s = s[:pos] + rng.choice(TOKENS).format(**fill) + s[pos:]
        elif op < 0.6 and s:
            end = min(len(s), pos + rng.randint(1, 8))
            s = s[:pos] + s[end:]
        elif op < 0.7 and s:
            end = min(len(s), pos + rng.randint(1, 20))
            s = s[:end] + s[pos:end] + s[end:]
        elif op < 0.8:
            s = s.swapcase() if rng.random() < 0.3 else s.upper()
        elif op < 0.9:
            s = s[:pos] + chr(rng.choice([rng.randint(32, 126), rng.randint(0x80, 0x2FFF)])) + s[pos:]
        else:
            s = f"{rng.choice(VALID)} UNION ALL {s}" if rng.random() < 0.5 else f"SELECT * FROM ({s}) q"
    return s


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    home = tmp_path_factory.mktemp("fuzzhome")
    con = store.connect(home)
    con.close()
    secret = home / "secret.txt"
    secret.write_text("FUZZ-SECRET-7f3a9c\n")
    return home, secret


def test_fuzzed_statements_never_write_read_files_or_escape(world):
    home, secret = world
    fill = {"secret": str(secret), "folder": str(home)}
    rng = random.Random(SEED)
    db = store.db_path(home)
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    listing = sorted(p.name for p in home.iterdir())
    con = store.connect(home, read_only=True)
    outcomes = {"ran": 0, "refused": 0}
    try:
        bases = VALID + [h.format(**fill) for h in HOSTILE]
        for i in range(STATEMENTS):
            statement = mutate(rng, rng.choice(bases), fill) if i >= len(bases) else bases[i]
            try:
                result = sql.run(con, statement, timeout=1, max_rows=20)
            except QueryRefused as exc:
                assert str(exc) and "\n" not in str(exc), statement
                outcomes["refused"] += 1
                continue
            outcomes["ran"] += 1
            flat = repr(result.rows)
            assert "FUZZ-SECRET" not in flat, statement
            if str(home) not in statement:  # a literal may echo a path; nothing else may reveal one
                assert str(home) not in flat, statement
    finally:
        con.close()
    print(f"sql fuzz: {STATEMENTS} statements, {outcomes['ran']} ran, {outcomes['refused']} refused")
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in home.iterdir()) == listing
    assert outcomes["ran"] > 50 and outcomes["refused"] > 1000  # the fuzz exercised both sides
