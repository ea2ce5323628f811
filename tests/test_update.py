"""`filings update` (fetch + ingest + index) against the loopback replay of SEC EDGAR, cninfo and HKEXnews
(tests/replay_world.py): a 3-market watchlist is fetched and ingested, a second run changes nothing, and a
corrected report replaces the report it corrects. Expected documents are read from the recorded
submissions JSON, the replay world's listings and the sha256 of the corpus files, not from the code."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

import pikepdf

from conftest import require_corpus
from filings.api import Filings
from replay_world import CnRow
from test_fetch import server, world  # noqa: F401  (fixtures: the loopback server and the replay world)

TABLES = ("documents", "pages", "sections", "facts", "document_metrics", "financial_metrics")


def sha(data: Path | bytes) -> str:
    return hashlib.sha256(data.read_bytes() if isinstance(data, Path) else data).hexdigest()


def counts(f: Filings) -> dict[str, int]:
    return {t: f.con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}


def test_three_market_update_then_a_second_run_changes_nothing(world, tmp_path):
    since = "2025-04-01"
    recent = json.loads((world.rec / "sec/submissions_CIK0000320193.json").read_text())["filings"]["recent"]
    us = [(acc, form) for acc, form, filed in zip(recent["accessionNumber"], recent["form"], recent["filingDate"])
          if form in ("10-K", "10-Q", "10-K/A", "10-Q/A") and filed >= since]
    expected = {sha(world.sec_documents(320193, acc)[0]["body"]): ("AAPL", form) for acc, form in us}
    kinds = {"annual", "interim", "q1", "q3"}  # A-share defaults; summaries are not fetched by default
    for row in world.cn_rows["600080"]:
        kind = next((k for k in kinds if row.body.name.endswith(f"_{k}.pdf")), None)  # corpus names say the kind
        if row.date >= dt.date.fromisoformat(since) and kind in kinds:
            expected[sha(row.body)] = ("600080", kind)
    expected[sha(require_corpus("hk", "0328_alco_2025_annual-results.pdf"))] = ("0328.HK", "results_announcement")
    assert len(expected) == 9

    watchlist = tmp_path / "watchlist.csv"
    watchlist.write_text("code,market,forms\nAAPL,US,10-K;10-Q\n600080\n0328.HK\n", encoding="utf-8")
    home = tmp_path / "home"
    with Filings(home) as f:
        first = f.update(watchlist, since=since, languages="en,zh")
        assert first.exit_status == 0 and not first.failed, [i.reason for i in first.failed]
        assert first.count("added") == 9 and first.fetch.count("fetched") == 9
        stored = dict(f.con.execute("SELECT document_id, stock_code || ' ' || form FROM documents").fetchall())
        assert stored == {k: f"{code} {form}" for k, (code, form) in expected.items()}
        assert f.index.engine.count("filings_a", {"stock_code": "600080"}) > 0  # indexed for search
        before = counts(f)
        assert before["financial_metrics"] > 0
        log_start = len(world.log)
        second = f.update(watchlist, since=since, languages="en,zh")
        assert second.exit_status == 0 and second.count("added") == 0 and second.count("unchanged") == 9
        assert second.fetch.count("fetched") == 0 and counts(f) == before
    downloads = [p for _t, _m, p, _s in world.log[log_start:] if p.startswith(("/finalpage", "/listedco"))
                 or (p.startswith("/Archives") and not p.endswith("-index.html"))]
    indexes = [p for _t, _m, p, _s in world.log[log_start:] if p.endswith("-index.html")]
    assert downloads == [] and indexes == []


def _resaved(src: Path, dest: Path) -> Path:
    """The same report saved again with another title: other bytes (another sha256), the same pages."""
    with pikepdf.open(src) as pdf:
        pdf.docinfo["/Title"] = "corrected"
        pdf.save(dest)
    return dest


def test_a_correction_replaces_the_report_it_corrects(world, tmp_path):
    q1 = require_corpus("cn", "600080_jinhuagufen_2025_q1.pdf")
    corrected = _resaved(q1, tmp_path / "corrected.pdf")
    original_row = CnRow("1223212003", "金花股份2025年第一季度报告", dt.date(2025, 4, 25), q1, "category_yjdbg_szsh")
    world.cninfo_company("600080", [original_row])
    with Filings(tmp_path / "home") as f:
        first = f.update("600080", since="2025-04-01", forms="q1")
        assert first.count("added") == 1 and not first.failed
        rows_before = f.con.execute("SELECT count(*) FROM financial_metrics WHERE stock_code = '600080' "
                                    "AND fiscal_year = 2025 AND fiscal_period = 'Q1'").fetchone()[0]
        assert rows_before > 0
        world.cninfo_company("600080", [original_row, CnRow(
            "1223300001", "金花股份2025年第一季度报告（更正后）", dt.date(2025, 5, 10), corrected, "category_yjdbg_szsh")])
        second = f.update("600080", since="2025-04-01", forms="q1")
        assert not second.failed, [i.reason for i in second.failed]
        [added] = [i for i in second.items if i.status == "added"]
        [gone] = [i for i in second.items if i.status == "superseded"]
        assert added.document_id == sha(corrected) and gone.document_id == sha(q1)
        assert "cninfo:1223300001" in gone.reason
        docs = [r[0] for r in f.con.execute("SELECT document_id FROM documents WHERE stock_code = '600080'").fetchall()]
        assert docs == [sha(corrected)]
        for table in ("pages", "facts", "document_metrics", "financial_metrics"):
            assert f.con.execute(f"SELECT count(*) FROM {table} WHERE document_id = ?", [sha(q1)]).fetchone()[0] == 0
        sources = f.con.execute("SELECT DISTINCT document_id, count(*) FROM financial_metrics WHERE stock_code = "
                                "'600080' AND fiscal_year = 2025 AND fiscal_period = 'Q1' GROUP BY 1").fetchall()
        assert sources == [(sha(corrected), rows_before)]
        assert f.con.execute("SELECT superseded_by FROM superseded WHERE document_id = ?",
                             [sha(q1)]).fetchone() == (sha(corrected),)
        assert f.index.engine.count("filings_a", {"document_id": sha(q1)}) == 0
        third = f.update("600080", since="2025-04-01", forms="q1")
        assert third.count("added") == third.count("superseded") == 0 and not third.failed
        again = f.ingest(q1, index=False)  # the old file by hand: remembered as replaced
        assert again.results[0].status == "skipped" and "superseded" in again.results[0].reason


def test_a_correction_listed_with_its_original_is_fetched_alone(world, tmp_path):
    q1 = require_corpus("cn", "600080_jinhuagufen_2025_q1.pdf")
    corrected = _resaved(q1, tmp_path / "corrected.pdf")
    world.cninfo_company("600080", [
        CnRow("1223212003", "金花股份2025年第一季度报告", dt.date(2025, 4, 25), q1, "category_yjdbg_szsh"),
        CnRow("1223300001", "金花股份2025年第一季度报告（修订版）", dt.date(2025, 5, 10), corrected, "category_yjdbg_szsh"),
        CnRow("1223300002", "关于金花股份2025年第一季度报告的更正公告", dt.date(2025, 5, 10), q1, "category_yjdbg_szsh"),
    ])
    report = Filings(tmp_path / "home").fetch("600080", since="2025-04-01", forms="q1")
    assert [i.source_id for i in report.items if i.status == "fetched"] == ["cninfo:1223300001"]
    skipped = {i.source_id: i.reason for i in report.items if i.status == "skipped"}
    assert "superseded by cninfo:1223300001" in skipped["cninfo:1223212003"]
    assert "notice" in skipped["cninfo:1223300002"]


def test_press_release_exhibits_are_kept_but_skipped_with_a_reason(world, tmp_path):
    with Filings(tmp_path / "home") as f:
        report = f.update("NVDA", since="2025-11-01", forms="results", index=False)
        skipped = [i for i in report.items if i.status == "skipped"]
        assert skipped and all("no parser reads this EX-99.1 exhibit" in i.reason for i in skipped)
        assert report.exit_status == 0
        again = f.update("NVDA", since="2025-11-01", forms="results", index=False)
        assert [i.status for i in again.items if i.status != "unchanged"] == []


def test_update_indexes_what_an_interrupted_run_stored_but_did_not_index(world, tmp_path):
    with Filings(tmp_path / "home") as f:
        first = f.update("600080", since="2025-10-01", forms="q3", index=False)  # as a run killed before indexing
        [doc] = [i.document_id for i in first.items if i.status == "added"]
        second = f.update("600080", since="2025-10-01", forms="q3")
        assert second.count("added") == 0 and not second.failed
        assert f.index.engine.count("filings_a", {"document_id": doc}) > 0


def test_a_file_no_parser_can_read_fails_alone_with_its_reason(world, tmp_path):
    q3 = require_corpus("cn", "600080_jinhuagufen_2025_q3.pdf")
    world.cninfo_company("600080", [
        CnRow("1224888001", "金花股份2025年第三季度报告", dt.date(2025, 10, 30), q3, "category_sjdbg_szsh"),
        CnRow("1224888002", "金花股份2025年第三季度报告（英文版）", dt.date(2025, 10, 30),
              b"%PDF-1.4\n%" + b"x" * 3000 + b"\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n", "category_sjdbg_szsh"),
    ])
    with Filings(tmp_path / "home") as f:
        report = f.update("600080", since="2025-10-01", forms="q3", languages="zh,en", index=False)
        assert report.exit_status == 1 and report.count("added") == 1
        [failed] = report.failed
        assert failed.source_id == "cninfo:1224888002" and "600080_2025_q3_en_1224888002.pdf" in failed.reason
        assert f.con.execute("SELECT count(*) FROM documents").fetchone()[0] == 1
