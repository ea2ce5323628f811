"""Readers are never blocked by the writer and never see a partial document (warehouse.writer, .versions).

Real processes (the `filings` CLI and small reader scripts), a real DuckDB file, real corpus PDFs. "Whole"
is an identity of the warehouse itself: a document's ``pages`` / ``facts`` columns count the rows its
transaction stored in ``pages`` / ``facts``, so a reader that saw part of one would see them differ."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import require_corpus

SMALL = ["600080_jinhuagufen_2025_q1.pdf", "600080_jinhuagufen_2025_q3.pdf", "600080_jinhuagufen_2025_interim-summary.pdf"]
WHOLE = ("SELECT d.document_id, d.pages, d.facts, (SELECT count(*) FROM pages p WHERE p.document_id = d.document_id),"
         " (SELECT count(*) FROM facts f WHERE f.document_id = d.document_id) FROM documents d")


def _env(home: Path, **extra: str) -> dict:
    env = dict(os.environ, FILINGS_HOME=str(home), FILINGS_WORKERS="1", FILINGS_EMBED_MODEL_A="hashing@64")
    env.update(extra)
    return env


def _filings(home: Path, *args: str, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "filings.cli", *args], capture_output=True, text=True,
                          env=_env(home, **extra), timeout=600)


def _start(home: Path, *args: str, **extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "filings.cli", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=_env(home, **extra))


READER = r"""
import json, sys, time
from warehouse import store
seen, rows_seen, errors = 0, set(), []
deadline = time.time() + float(sys.argv[2])
while time.time() < deadline:
    try:
        con = store.connect(sys.argv[1], read_only=True)
        rows = con.execute(sys.argv[3]).fetchall()
        con.close()
    except Exception as exc:
        errors.append(f"{type(exc).__name__}: {exc}")
        continue
    seen += 1
    partial = [r for r in rows if r[1] != r[3] or r[2] != r[4]]
    if partial:
        errors.append(f"partial: {partial}")
    rows_seen.add(len(rows))
    time.sleep(0.05)
print(json.dumps({"reads": seen, "counts": sorted(rows_seen), "errors": errors[:5], "n_errors": len(errors)}))
"""


def _published(home: Path, writer: subprocess.Popen) -> None:
    """Wait until the writer has published its first version (a new home's empty schema and master)."""
    deadline = time.monotonic() + 120
    while not (home / "warehouse.duckdb").exists() and writer.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert (home / "warehouse.duckdb").exists()


def _whole(home: Path) -> list[tuple]:
    from warehouse import store

    con = store.connect(home, read_only=True)
    try:
        return con.execute(WHOLE).fetchall()
    finally:
        con.close()


def _files(*names: str) -> list[str]:
    return [str(require_corpus("cn", n)) for n in names]


def _digest_tree(root: Path) -> dict[str, str]:
    out = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and ".readers" not in p.parts:
            out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def test_readers_in_other_processes_work_during_an_ingest_and_see_only_whole_documents(tmp_path):
    home = tmp_path / "home"
    # a 189-page report after the small ones: the run cannot publish everything between two looks (with three
    # small reports it sometimes did, and there was nothing left to kill it in the middle of)
    files = _files(*SMALL, "600080_jinhuagufen_2024_annual.pdf")
    writer = _start(home, "ingest", "--no-index", *files, FILINGS_PUBLISH_SECONDS="0")
    _published(home, writer)
    reader = subprocess.run([sys.executable, "-c", READER, str(home), "20", WHOLE], capture_output=True, text=True,
                            env=_env(home), timeout=120)
    cli = [_filings(home, "companies", "--json"), _filings(home, "sql", "SELECT count(*) AS n FROM documents")]
    out, err = writer.communicate(timeout=600)
    assert writer.returncode == 0, err
    seen = json.loads(reader.stdout)
    assert seen["n_errors"] == 0, seen["errors"]
    assert seen["reads"] > 10
    assert all(r.returncode == 0 for r in cli), [r.stderr for r in cli]
    rows = _whole(home)
    assert len(rows) == len(files) and all(r[1] == r[3] and r[2] == r[4] for r in rows)


def test_a_second_writer_waits_a_bounded_time_then_refuses_with_one_line(tmp_path):
    home = tmp_path / "home"
    hold = subprocess.Popen([sys.executable, "-c", "import sys, time; from pathlib import Path; "
                             "from warehouse.writer import WriterLock; WriterLock(Path(sys.argv[1])).acquire(); "
                             "print('held', flush=True); time.sleep(float(sys.argv[2]))", str(home), "15"],
                            stdout=subprocess.PIPE, text=True, env=_env(home))
    assert hold.stdout.readline().strip() == "held"
    t0 = time.monotonic()  # the holder lets go 15 s from now
    refused = _filings(home, "ingest", "--no-index", *_files(SMALL[0]), FILINGS_WRITER_WAIT="1")
    assert refused.returncode == 2
    lines = [l for l in refused.stderr.splitlines() if l.strip()]
    assert len(lines) == 1 and "another writer is running" in lines[0] and "FILINGS_WRITER_WAIT" in lines[0], lines
    assert "Traceback" not in refused.stderr
    assert not (home / "warehouse.duckdb").exists()
    waited = _filings(home, "ingest", "--no-index", *_files(SMALL[0]), FILINGS_WRITER_WAIT="60")
    hold.wait(timeout=30)
    assert waited.returncode == 0, waited.stderr
    assert time.monotonic() - t0 >= 14  # it waited for the holder to finish
    assert len(_whole(home)) == 1


def test_kill_9_mid_ingest_leaves_no_partial_document_and_the_next_ingest_completes(tmp_path):
    home = tmp_path / "home"
    # a 189-page report after the small ones: the run cannot publish everything between two looks (with three
    # small reports it sometimes did, and there was nothing left to kill it in the middle of)
    files = _files(*SMALL, "600080_jinhuagufen_2024_annual.pdf")
    writer = _start(home, "ingest", "--no-index", *files, FILINGS_PUBLISH_SECONDS="0")
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and writer.poll() is None:  # kill it once one document is published
        if (home / "warehouse.duckdb").exists() and _whole(home):
            break
        time.sleep(0.2)
    assert writer.poll() is None, "the ingest ended before it could be killed"
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    rows = _whole(home)
    assert 1 <= len(rows) < len(files)
    assert all(r[1] == r[3] and r[2] == r[4] for r in rows)
    again = _filings(home, "ingest", "--no-index", *files)
    assert again.returncode == 0, again.stderr
    rows = _whole(home)
    assert len(rows) == len(files) and all(r[1] == r[3] and r[2] == r[4] for r in rows)
    assert not (home / ".writer").exists()  # the killed run's private copy was discarded


@pytest.fixture(scope="module")
def indexed_home(tmp_path_factory):
    home = tmp_path_factory.mktemp("indexed")
    done = _filings(home, "ingest", *_files(SMALL[0]))
    assert done.returncode == 0, done.stderr
    return home


def test_a_read_only_open_leaves_every_byte_unchanged(indexed_home):
    from filings import Filings

    before = _digest_tree(indexed_home)
    os.environ["FILINGS_EMBED_MODEL_A"] = "hashing@64"
    try:
        with Filings(indexed_home) as f:
            assert len(f.companies()) > 0
            assert f.sql("SELECT count(*) AS n FROM documents")["n"][0] == 1
            f.metrics("600080", years=2025)
            assert f.search("营业收入", k=3)["hits"]
            f.ask("金花股份 2025 Q1 revenue")
        with Filings(indexed_home, read_only=True) as f:
            with pytest.raises(Exception, match="read-only"):
                f.ingest(*_files(SMALL[1]))
    finally:
        os.environ.pop("FILINGS_EMBED_MODEL_A", None)
    assert _digest_tree(indexed_home) == before
    assert not any((indexed_home / ".readers").iterdir())  # the reader's view of the shards is gone


def test_concurrent_searches_all_succeed_and_leave_the_published_shards_unchanged(indexed_home):
    before = _digest_tree(indexed_home / "versions")
    procs = [_start(indexed_home, "search", "营业收入", "--json", "--k", "3") for _ in range(4)]
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [e for _o, e in results]
    assert all(json.loads(o)["hits"] for o, _e in results)
    assert _digest_tree(indexed_home / "versions") == before


def test_a_facade_left_open_sees_a_newer_version_on_its_next_call(tmp_path):
    from filings import Filings

    home = tmp_path / "home"
    assert _filings(home, "ingest", "--no-index", *_files(SMALL[0])).returncode == 0
    with Filings(home) as f:
        assert f.sql("SELECT count(*) AS n FROM documents")["n"][0] == 1
        assert _filings(home, "ingest", "--no-index", *_files(SMALL[1])).returncode == 0
        assert f.sql("SELECT count(*) AS n FROM documents")["n"][0] == 2


def test_index_state_per_document_lets_index_complete_what_failed_or_is_missing(tmp_path):
    home = tmp_path / "home"
    q1, q3 = _files(SMALL[0], SMALL[1])
    failed = _filings(home, "ingest", q1, FILINGS_EMBED_MODEL_A="local:/nonexistent/model")
    assert failed.returncode == 1 and "indexing failed" in failed.stdout + failed.stderr
    assert _filings(home, "ingest", "--no-index", q3).returncode == 0
    from warehouse import store

    con = store.connect(home, read_only=True)
    states = dict(con.execute("SELECT d.doc_name, s.status FROM documents d LEFT JOIN index_state s "
                              "USING (document_id)").fetchall())
    con.close()
    assert states == {Path(q1).stem: "failed", Path(q3).stem: None}
    done = _filings(home, "index")
    assert done.returncode == 0 and "indexed 2 document(s)" in done.stdout, done.stdout + done.stderr
    con = store.connect(home, read_only=True)
    rows = con.execute("SELECT status, model, units FROM index_state").fetchall()
    con.close()
    assert len(rows) == 2 and all(s == "indexed" and m and u > 0 for s, m, u in rows)
    again = _filings(home, "index")
    assert "indexed 0 document(s)" in again.stdout


def test_a_home_built_before_versions_is_read_as_it_is_and_versioned_at_its_first_write(tmp_path):
    from filings import Filings
    from warehouse import ingest, store

    home = tmp_path / "home"
    con = store.connect(home, read_only=False)  # the file in place, as every home was built before versions
    assert ingest.ingest(con, _files(SMALL[0]), workers=1, isolate=False).results[0].status == "added"
    con.close()
    assert not (home / "warehouse.duckdb").is_symlink()
    assert len(_whole(home)) == 1
    with Filings(home) as f:
        report = f.ingest(*_files(SMALL[1]), index=False)
        assert [r.status for r in report.results] == ["added"]
        assert f.sql("SELECT count(*) AS n FROM documents")["n"][0] == 2
    assert (home / "warehouse.duckdb").is_symlink()
    rows = _whole(home)
    assert len(rows) == 2 and all(r[1] == r[3] and r[2] == r[4] for r in rows)
