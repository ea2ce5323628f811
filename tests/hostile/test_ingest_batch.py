"""A batch of hostile and broken files through the real CLI (`filings ingest --no-index`) in a subprocess with an
address-space limit: every bad path gets one clear line (failed / skipped, naming the file and the reason or the
limit), no traceback, the good files of the batch are stored, nothing hostile is stored raw, the exit status is
1. The harness measures the peak RSS of the run (printed; bounded by the process limit, never timed)."""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from conftest import require_corpus
from hostile_files import ESC_TEXT, exchanges_transcript, image_page_pdf, ixbrl, json_transcript, text_pdf, truncated_pdf

REPO = Path(__file__).resolve().parents[2]
CLI_MEMORY = 8 << 30  # address space of the CLI process (its workers limit themselves further)
ODD = "odd [red]x[bold] \x1b]0;t\x07 name"


def run_cli(home: Path, *args: str, timeout: int = 600, **env: str) -> tuple[subprocess.CompletedProcess, float]:
    """Run the CLI with an address-space limit; (result, peak RSS in MiB of the largest process it started)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (CLI_MEMORY, CLI_MEMORY))

    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    res = subprocess.run([sys.executable, "-m", "filings.cli", "ingest", *args, "--no-index", "--home", str(home)],
                         capture_output=True, text=True, timeout=timeout, preexec_fn=limit,
                         env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "80", "FILINGS_WORKERS": "2", **env})
    peak = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    return res, peak


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("batch")
    d = root / "in"
    d.mkdir()
    image_page_pdf(d / "bomb.pdf", size_pt=14_400, image_px=(400, 400))
    image_page_pdf(d / "bigimage.pdf", image_px=(60_000, 60_000), gray_bits=1)
    good = text_pdf(root / "good.pdf", ["Annual report 2024"])
    text_pdf(d / "locked.pdf", ["secret"], password="pw")
    truncated_pdf(d / "half.pdf", good)
    (d / "empty.pdf").write_bytes(b"")
    (d / "text.pdf").write_text("a text file named .pdf\n")
    (d / "plain.htm").write_text("<html><body>no XBRL here</body></html>")
    (d / f"{ODD}.pdf").write_bytes(b"")
    (d / "loop.pdf").symlink_to(d / "loop.pdf")
    (d / "sub").mkdir()
    (d / "sub" / "up").symlink_to(d)  # a folder loop: never followed
    (d / "report.pdf").mkdir()  # a folder named like a file
    json_transcript(d / "EX_2024_Q4.json",
                    [("Operator", "Welcome to the Example earnings conference call. Thank you for joining. "
                                  + ESC_TEXT + " \ud800 \x00 end"),
                     ("Jane Doe", "Revenue grew strongly.")],
                    [("John Smith", "How is demand?"), ("Jane Doe", "Strong.")])
    shutil.copy(require_corpus("transcripts", "AAPL_2024_Q4.txt"), d / "AAPL_2024_Q4.txt")
    exchanges_transcript(d / "BIG_2024_Q4.txt", 0.3)  # over the transcript size limit set below
    ixbrl(d / "many-20241231.htm", facts=150)  # over the facts limit set below
    (root / "empty_folder").mkdir()
    (root / "nothing").mkdir()
    (root / "nothing" / "notes.md").write_text("not a filing")
    (root / "copy1.pdf").write_bytes(b"")
    (root / "copy2.pdf").write_bytes(b"")
    return root


@pytest.fixture(scope="module")
def run(batch, tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    res, peak = run_cli(home, str(batch / "in"), str(batch / "in" / "report.pdf"), str(batch / "empty_folder"),
                        str(batch / "nothing"),
                        str(batch / "copy1.pdf"), str(batch / "copy2.pdf"), str(batch / "missing.pdf"), "--json",
                        FILINGS_MAX_TRANSCRIPT_BYTES="200K", FILINGS_MAX_FACTS="100")
    print(f"hostile batch: peak RSS {peak:.0f} MiB")
    return home, res, peak


def by_name(res) -> dict[str, dict]:
    return {Path(d["path"]).name: d for d in json.loads(res.stdout)["documents"]}


def test_batch_exit_status_and_no_traceback(run):
    _, res, peak = run
    assert res.returncode == 1, res.stderr
    assert "Traceback" not in res.stderr and "Error:" not in res.stderr.replace("error:", "")
    assert peak < CLI_MEMORY / (1 << 20)


def test_every_bad_path_has_its_reason(run, batch):
    docs = by_name(run[1])
    expect = {
        "bomb.pdf": ("failed", "FILINGS_MAX_OCR_PIXELS"),
        "bigimage.pdf": ("failed", "FILINGS_MAX_IMAGE_PIXELS"),
        "locked.pdf": ("failed", "password"),
        "half.pdf": ("failed", "truncated"),
        "empty.pdf": ("skipped", "empty file"),
        "text.pdf": ("skipped", "not a PDF"),
        "plain.htm": ("skipped", "HTML without inline XBRL"),
        f"{ODD}.pdf": ("skipped", "empty file"),
        "loop.pdf": ("skipped", "symbolic link"),
        "report.pdf": ("failed", "no filing found in this folder (it is empty)"),
        "empty_folder": ("failed", "no filing found in this folder (it is empty)"),
        "nothing": ("failed", "none a filing this tool reads"),
        "BIG_2024_Q4.txt": ("failed", "over the limit of 200 KiB per transcript file (FILINGS_MAX_TRANSCRIPT_BYTES)"),
        "many-20241231.htm": ("failed", "over the limit of 100 facts per document (FILINGS_MAX_FACTS)"),
        "copy1.pdf": ("failed", "file is empty"),
        "copy2.pdf": ("failed", "same content as copy1.pdf, which failed"),
        "missing.pdf": ("failed", "file does not exist"),
    }
    for name, (status, reason) in expect.items():
        assert name in docs, name
        assert docs[name]["status"] == status, (name, docs[name])
        assert reason in docs[name]["reason"], (name, docs[name]["reason"])
        assert docs[name]["reason"].startswith(str(batch)), docs[name]["reason"]


def test_good_files_of_the_batch_are_stored_clean(run):
    home, res, _ = run
    docs = by_name(res)
    assert docs["AAPL_2024_Q4.txt"]["status"] == "added" and docs["EX_2024_Q4.json"]["status"] == "added"
    con = duckdb.connect(str(home / "warehouse.duckdb"), read_only=True)
    try:
        texts = [r[0] for r in con.execute("SELECT text FROM pages").fetchall()]
        texts += [w for r in con.execute("SELECT warnings FROM documents").fetchall() for w in r[0] or []]
        assert texts and not any(ch in t for t in texts for ch in ("\x1b", "\x00", "\x07"))
        hostile = con.execute("SELECT text FROM pages WHERE text LIKE '%pwned%'").fetchone()[0]
        assert "\ufffd]0;pwned" in hostile and "[/b]" in hostile
        warnings = con.execute("SELECT warnings FROM documents WHERE file_name = 'EX_2024_Q4.json'").fetchone()[0]
        assert any("replaced by U+FFFD" in w for w in warnings)
        statuses = dict(con.execute("SELECT status, count(*) FROM ingest_runs GROUP BY 1").fetchall())
        assert statuses["added"] == 2 and statuses["skipped"] >= 5 and statuses["failed"] >= 10
    finally:
        con.close()


def test_plain_report_when_piped_names_every_file(batch, tmp_path):
    res, _ = run_cli(tmp_path / "home", str(batch / "in"), FILINGS_MAX_TRANSCRIPT_BYTES="200K",
                     FILINGS_MAX_FACTS="100")
    assert res.returncode == 1
    assert "\x1b" not in res.stdout + res.stderr and "…" not in res.stdout
    assert "added AAPL_2024_Q4.txt" in res.stdout
    for name in ("empty.pdf", "text.pdf", "plain.htm", "loop.pdf"):
        assert f"skipped: {batch / 'in' / name}: " in res.stderr
    assert "odd [red]x[bold] \u241b]0;t\u2407 name.pdf: empty file" in res.stderr  # markup and escapes shown as text
    assert "failed: " in res.stderr and "Traceback" not in res.stderr


def test_memory_breach_fails_that_file_only(batch, tmp_path):
    """With the OCR render bound lifted, the memory-bomb page needs >3 GB: the parsing process's own limit stops
    it, that file fails with the limit named, and the other file of the batch is stored."""
    d = tmp_path / "in"
    d.mkdir()
    shutil.copy(batch / "in" / "bomb.pdf", d / "bomb.pdf")
    shutil.copy(batch / "in" / "AAPL_2024_Q4.txt", d / "AAPL_2024_Q4.txt")
    res, peak = run_cli(tmp_path / "home", str(d), "--json", FILINGS_MAX_OCR_PIXELS="100000000000",
                        FILINGS_MIN_OCR_DPI="1", FILINGS_PARSE_MEMORY="2GiB", FILINGS_WORKERS="1")
    print(f"memory breach: peak RSS {peak:.0f} MiB")
    docs = by_name(res)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert docs["bomb.pdf"]["status"] == "failed"
    assert "FILINGS_PARSE_MEMORY" in docs["bomb.pdf"]["reason"]
    assert docs["AAPL_2024_Q4.txt"]["status"] == "added"
    assert peak < 3 * 1024
