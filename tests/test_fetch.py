"""`filings fetch` against a replay of SEC EDGAR, cninfo and HKEXnews on loopback (tests/replay_world.py):
recorded responses from corpus/fetch served byte for byte, corpus files as the documents, generated faults.
No test contacts a real host: every base URL points at 127.0.0.1.

Expected values come from the recorded responses and the corpus (read here independently of the code):
the filings a recorded submissions JSON lists, the titles in a recorded cninfo / HKEX answer, the sha256 of
corpus files."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from pathlib import Path

import pytest
from pytest_httpserver import HTTPServer
from typer.testing import CliRunner

from conftest import require_corpus
from filings.api import Filings
from filings.cli import app
from replay_world import CnRow, HkCompany, HkRow, ReplayWorld, corpus_world
from warehouse.sources.sec import exhibit_matches
from warehouse.sources.verify import Expect, check_file
from warehouse.sources.watchlist import read_watchlist

UA = "Test Analyst test@example.com"


class _Holder:
    world: ReplayWorld | None = None

    def handle(self, request):
        return self.world.handle(request)


@pytest.fixture(scope="module")
def server():
    holder = _Holder()
    srv = HTTPServer(host="127.0.0.1", port=0)
    srv.expect_request(re.compile(".*")).respond_with_handler(holder.handle)
    srv.start()
    srv.holder = holder
    yield srv
    srv.clear()
    if srv.is_running():
        srv.stop()


@pytest.fixture()
def world(server, monkeypatch, tmp_path):
    corpus = require_corpus("fetch")
    w = corpus_world(corpus.parent)
    server.holder.world = w
    url = server.url_for("/").rstrip("/")
    for var in ("FILINGS_SEC_URL", "FILINGS_SEC_DATA_URL", "FILINGS_CNINFO_URL", "FILINGS_CNINFO_STATIC_URL",
                "FILINGS_HKEX_URL"):
        monkeypatch.setenv(var, url)
    monkeypatch.setenv("FILINGS_SEC_USER_AGENT", UA)
    monkeypatch.setenv("FILINGS_CNINFO_RATE", "50")
    monkeypatch.setenv("FILINGS_HKEX_RATE", "50")
    monkeypatch.setenv("FILINGS_FETCH_RETRIES", "3")
    monkeypatch.setenv("FILINGS_FETCH_BACKOFF", "0.1")
    monkeypatch.setenv("FILINGS_EMBED_MODELS", "US=hashing,A=hashing,HK=hashing")
    monkeypatch.setenv("FILINGS_WORKERS", "1")
    monkeypatch.setenv("FILINGS_HOME", str(tmp_path / "home"))
    return w


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def items(report, status: str) -> list:
    return [i for i in report.items if i.status == status]


# ------------------------------------------------------------------------------------------- listings
def test_sec_listing_follows_the_recorded_submissions(world, tmp_path):
    recent = json.loads((world.rec / "sec" / "submissions_CIK0000320193.json").read_text())["filings"]["recent"]
    expected = {f"sec:{a}" for a, form, filed in zip(recent["accessionNumber"], recent["form"], recent["filingDate"])
                if form in ("10-K", "10-Q") and filed >= "2024-01-01"}
    report = Filings(tmp_path / "h").fetch("AAPL", since="2024-01-01", forms="10-K,10-Q", dry_run=True)
    assert {i.source_id for i in items(report, "planned")} == expected and len(expected) == 9
    assert report.listings[0].key == "0000320193" and report.listings[0].name == "Apple Inc."


def test_sec_results_8k_with_its_press_release_and_support_files(world, tmp_path):
    recent = json.loads((world.rec / "sec" / "submissions_CIK0001045810.json").read_text())["filings"]["recent"]
    expected = {f"sec:{a}" for a, form, filed, it in zip(recent["accessionNumber"], recent["form"],
                                                          recent["filingDate"], recent["items"])
                if form == "8-K" and "2.02" in it.split(",") and filed >= "2025-06-01"}
    f = Filings(tmp_path / "h")
    report = f.fetch("NVDA", since="2025-06-01", forms="results")
    fetched = items(report, "fetched")
    assert {i.source_id.split("/")[0] for i in fetched} == expected
    exhibits = [i for i in fetched if "/" in i.source_id]
    assert len(exhibits) == len(expected) and all("ex991" in i.file for i in exhibits)
    assert not any("ex31" in (i.file or "") for i in report.items)  # certifications are not fetched
    manifest = [json.loads(l) for l in (tmp_path / "h/cache/sec/NVDA/documents.jsonl").read_text().splitlines()]
    assert {m["doc_type"] for m in manifest if m.get("exhibit") == "EX-99.1"} == {"earnings"}
    assert all(m["sha256"] == sha(tmp_path / "h/cache/sec/NVDA" / m["path"]) for m in manifest)


def test_real_10q_brings_its_schema_and_label_linkbase(world, tmp_path):
    f = Filings(tmp_path / "h")
    f.fetch("AAPL", since="2025-05-01", forms="10-Q")
    folder = tmp_path / "h/cache/sec/AAPL/0000320193-25-000057"
    src = world.ixbrl_corpus["aapl-20250329.htm"]
    assert sha(folder / "aapl-20250329.htm") == sha(src)
    assert sha(folder / "aapl-20250329_lab.xml") == sha(src.with_name("aapl-20250329_lab.xml"))
    assert (folder / "aapl-20250329.xsd").is_file() and not (folder / "aapl-20250329_pre.xml").exists()


def test_older_submissions_pages_are_read_when_since_reaches_back(world, tmp_path):
    page = json.loads((world.rec / "sec" / "submissions_CIK0001318605-submissions-001.json").read_text())
    expected = {f"sec:{a}" for a, form, filed in zip(page["accessionNumber"], page["form"], page["filingDate"])
                if form in ("10-K", "10-K/A") and filed >= "2012-01-01"}  # amendments come with their form
    main = {"cik": "0001318605", "name": "Tesla, Inc.", "tickers": ["TSLA"], "fiscalYearEnd": "1231",
            "filings": {"recent": {k: [] for k in page}, "files": [
                {"name": "CIK0001318605-submissions-001.json", "filingCount": len(page["form"]),
                 "filingFrom": min(page["filingDate"]), "filingTo": max(page["filingDate"])}]}}
    world.add_submissions(json.dumps(main).encode())
    report = Filings(tmp_path / "h").fetch("TSLA", since="2012-01-01", forms="10-K", dry_run=True)
    assert {i.source_id for i in items(report, "planned")} == expected and expected


def test_cninfo_titles_on_the_recorded_moutai_listing(world, tmp_path):
    recorded = json.loads((world.rec / "cninfo/hisAnnouncement_600519_category_ndbg_szsh.json").read_text())
    titles = [a["announcementTitle"] for a in recorded["announcements"]]
    f = Filings(tmp_path / "h")
    full = items(f.fetch("600519", since="2018-01-01", forms="annual", dry_run=True), "planned")
    assert len(full) == len([t for t in titles if "摘要" not in t and "英文" not in t]) == 7
    assert {i.fiscal_year for i in full} == set(range(2018, 2025))
    summaries = items(f.fetch("600519", since="2018-01-01", forms="summary", dry_run=True), "planned")
    assert len(summaries) == len([t for t in titles if "摘要" in t]) and {i.form for i in summaries} == {"summary"}
    english = items(f.fetch("600519", since="2018-01-01", forms="annual", languages="en", dry_run=True), "planned")
    assert len(english) == len([t for t in titles if "英文" in t]) == 4


def test_hkex_recorded_tencent_dual_counter_and_languages(world, tmp_path):
    f = Filings(tmp_path / "h")
    annual = items(f.fetch("0700.HK", since="2018-01-01", forms="annual", dry_run=True), "planned")
    recorded = json.loads(json.loads((world.rec / "hkex/edgarpack_servlet_annual_reports_tencent.json").read_text())["result"])
    assert {i.source_id for i in annual} == {f"hkex:{r['NEWS_ID']}:en" for r in recorded}
    assert {i.fiscal_year for i in annual} == set(range(2018, 2026))  # "00700<br/>80700" rows included
    recent = items(f.fetch("700", since="2026-08-01", forms="interim,results", dry_run=True), "planned")
    assert sorted(i.form for i in recent) == ["interim", "results"]  # buybacks, monthly returns left out
    zh = items(f.fetch("00700", since="2025-03-01", forms="results", languages="zh", dry_run=True), "planned")
    assert [i.title for i in zh] == ["截至二零二四年十二月三十一日止年度全年業績公佈"]  # the dividend notice is not
    fetched = f.fetch("00700", since="2025-03-01", forms="results", languages="zh")
    assert items(fetched, "fetched")[0].file.endswith("_c.pdf") is False  # our name, not the server's
    assert items(fetched, "fetched")[0].source_id == "hkex:11576383:zh"


# ------------------------------------------------------------------------------------------- faults
def test_429_with_retry_after_is_honoured(world, tmp_path):
    world.fault("/submissions/CIK0000320193.json", "429")
    report = Filings(tmp_path / "h").fetch("AAPL", since="2025-10-01", forms="10-K", dry_run=True)
    assert len(items(report, "planned")) == 1 and not report.failed
    times = [t for t, _m, p, s in world.log if p == "/submissions/CIK0000320193.json"]
    statuses = [s for _t, _m, p, s in world.log if p == "/submissions/CIK0000320193.json"]
    assert statuses == [429, 200] and times[1] - times[0] >= 1.0  # Retry-After: 1


def test_500_then_success_and_persistent_500_fails_alone(world, tmp_path):
    world.fault("/new/data/szse_stock.json", "500")
    for _ in range(5):
        world.fault("/search/prefix.do", "500")
    report = Filings(tmp_path / "h").fetch("600080", "0328.HK", since="2025-10-01", forms="q3")
    assert len(items(report, "fetched")) == 1  # 600080's Q3 report after one 500
    failed = report.failed
    assert len(failed) == 1 and failed[0].query == "0328.HK" and "HTTP 500 after 3 attempt(s)" in failed[0].reason


def test_connection_reset_mid_body_resumes_with_range(world, tmp_path):
    link = "/finalpage/2025-10-30/1224888001.PDF"
    world.fault(link, "reset")
    report = Filings(tmp_path / "h").fetch("600080", since="2025-10-01", forms="q3")
    [item] = items(report, "fetched")
    src = require_corpus("cn", "600080_jinhuagufen_2025_q3.pdf")
    assert sha(tmp_path / "h" / item.file) == sha(src)
    assert [s for _t, _m, p, s in world.log if p == link] == [200, 206]  # the second request resumed
    assert not list((tmp_path / "h/cache").rglob("*.part"))


def test_truncated_pdf_and_html_error_page_are_never_stored(world, tmp_path):
    world.fault("/finalpage/2025-10-30/1224888001.PDF", "truncate")
    world.fault("/finalpage/2025-04-25/1223212003.PDF", "html200")
    f = Filings(tmp_path / "h")
    report = f.fetch("600080", since="2025-04-01", forms="q1,q3")
    reasons = sorted(i.reason for i in report.failed)
    assert len(reasons) == 2
    assert "an HTML page" in reasons[0] and "系统维护" in reasons[0] and "instead of a PDF" in reasons[0]
    assert "truncated PDF" in reasons[1]
    assert not list((tmp_path / "h/cache").rglob("*.pdf")) and not list((tmp_path / "h/cache").rglob("*.part"))
    again = f.fetch("600080", since="2025-04-01", forms="q1,q3")  # the faults are gone: both arrive whole
    assert len(items(again, "fetched")) == 2 and not again.failed


def test_unknown_cik_gets_the_404_in_one_line(world, tmp_path):
    report = Filings(tmp_path / "h").fetch("CIK0000000001", since="2025-01-01")
    [failed] = report.failed
    assert "SEC EDGAR has no filings for CIK 0000000001 (404" in failed.reason


def test_empty_hkex_result_is_not_an_error(world, tmp_path):
    report = Filings(tmp_path / "h").fetch("0328.HK", since="2025-01-01")  # English only: nothing listed
    assert report.items == [] and report.listed == {"0328.HK": 0}
    assert any(p == "/search/titleSearchServlet.do" and s == 200 for _t, _m, p, s in world.log)


def test_duplicate_announcement_is_stored_once(world, tmp_path):
    q3 = require_corpus("cn", "600080_jinhuagufen_2025_q3.pdf")
    world.cninfo_company("600080", [
        CnRow("1224888001", "金花股份2025年第三季度报告", dt.date(2025, 10, 30), q3, "category_sjdbg_szsh"),
        CnRow("1224888099", "金花股份2025年第三季度报告", dt.date(2025, 10, 31), q3, "category_sjdbg_szsh"),
    ])
    report = Filings(tmp_path / "h").fetch("600080", since="2025-10-01", forms="q3")
    assert [i.source_id for i in items(report, "fetched")] == ["cninfo:1224888001"]
    [dup] = items(report, "skipped")
    assert dup.source_id == "cninfo:1224888099" and "same content as cninfo:1224888001" in dup.reason
    assert len(list((tmp_path / "h/cache/cninfo/600080").glob("*.pdf"))) == 1


def test_rate_to_sec_stays_under_the_limit(world, tmp_path, monkeypatch):
    monkeypatch.setenv("FILINGS_SEC_RATE", "10")
    report = Filings(tmp_path / "h").fetch("NVDA", since="2024-06-01", forms="10-Q,8-K")
    assert not report.failed
    times = world.sec_times()
    assert len(times) >= 30
    busiest = max(sum(1 for u in times if t <= u < t + 1.0) for t in times)
    assert busiest <= 10, f"{busiest} SEC requests within one second"


# ------------------------------------------------------------------------------------------- bad input
def test_unknown_ticker_and_code_get_close_matches(world, tmp_path):
    report = Filings(tmp_path / "h").fetch("APPL", "600081x", "06999.HK", since="2025-01-01")
    reasons = {i.query: i.reason for i in report.failed}
    assert "AAPL (Apple Inc.)" in reasons["APPL"]
    assert "unknown company '06999.HK'" in reasons["06999.HK"]
    assert len(report.failed) == 3


def test_watchlist_lines_that_cannot_be_read_name_their_line(tmp_path):
    wl = tmp_path / "watchlist.csv"
    wl.write_bytes("code,market,forms\nAAPL,US\n600080,XX\n0700.HK,HK,annual,extra\n\xff\xfe\n,HK\n".encode("utf-8")
                   .replace(b"\xc3\xbf\xc3\xbe", b"\xff\xfe"))
    entries = read_watchlist(wl)
    errors = {e.origin.rsplit(" ", 1)[-1]: e.error for e in entries if e.error}
    assert set(errors) == {"3", "4", "5", "6"}
    assert "unknown market 'XX'" in errors["3"] and "4 columns" in errors["4"] and "UTF-8" in errors["5"]
    assert [e.query for e in entries if not e.error] == ["AAPL"]


def test_cli_exit_status_and_refusals(world, tmp_path, monkeypatch):
    runner = CliRunner()
    home = str(tmp_path / "h")
    ok = runner.invoke(app, ["fetch", "600080", "--since", "2025-10-01", "--forms", "q3", "--home", home])
    assert ok.exit_code == 0 and "fetched" in ok.output
    bad = runner.invoke(app, ["fetch", "600080", "APPL", "--since", "2025-10-01", "--forms", "q3", "--home", home])
    assert bad.exit_code == 1 and "closest matches: AAPL (Apple Inc.)" in bad.output
    forms = runner.invoke(app, ["fetch", "600080", "--forms", "annuals", "--home", home])
    assert forms.exit_code == 2
    monkeypatch.delenv("FILINGS_SEC_USER_AGENT")
    no_ua = runner.invoke(app, ["fetch", "AAPL", "--home", home])
    assert no_ua.exit_code == 2 and "FILINGS_SEC_USER_AGENT" in no_ua.output
    assert not [p for _t, _m, p, _s in world.log if p.startswith("/submissions/CIK0000320193")]


# ------------------------------------------------------------------------------------------- units
def test_exhibit_types_match_their_numbering():
    assert exhibit_matches("EX-13", "EX-13.1") and exhibit_matches("EX-99.1", "EX-99.01")
    assert exhibit_matches("EX-99.1", "EX-99") and not exhibit_matches("EX-99.1", "EX-99.2")
    assert not exhibit_matches("EX-13", "EX-31.1")


def test_signature_checks(tmp_path):
    p = tmp_path / "x.pdf"
    p.write_bytes(b"%PDF-1.7\n" + b"0" * 5000 + b"\n%%EOF\n")
    assert check_file(p, Expect("pdf")) is None
    assert "listing announces" in check_file(p, Expect("pdf", approx_size=50_000))
    p.write_bytes(b"%PDF-1.7\n" + b"0" * 5000)
    assert "truncated PDF" in check_file(p, Expect("pdf"))
    h = tmp_path / "x.htm"
    h.write_bytes(b"<html><body>hi</body></html>")
    assert "not an inline XBRL" in check_file(h, Expect("ixbrl")) and check_file(h, Expect("html")) is None
    assert "bytes where the listing says" in check_file(h, Expect("html", size=10))


def test_cninfo_pages_until_the_listing_ends(world, tmp_path):
    q3 = require_corpus("cn", "600080_jinhuagufen_2025_q3.pdf")
    notices = [CnRow(f"12249{n:05d}", f"金花股份关于2025年第三季度报告的提示性公告{n}", dt.date(2025, 11, 1) + dt.timedelta(days=n),
                     b"%PDF-1.4\n%%EOF\n", "category_sjdbg_szsh") for n in range(35)]
    world.cninfo_company("600080", notices + [
        CnRow("1224888001", "金花股份2025年第三季度报告", dt.date(2025, 10, 30), q3, "category_sjdbg_szsh")])
    report = Filings(tmp_path / "h").fetch("600080", since="2025-10-01", forms="q3")
    assert [i.source_id for i in items(report, "fetched")] == ["cninfo:1224888001"]  # the oldest row: page 2
    assert len(items(report, "skipped")) == 35 and all("notice" in i.reason for i in items(report, "skipped"))
    assert sum(1 for _t, _m, p, _s in world.log if p == "/new/hisAnnouncement/query") == 2


def test_names_resolve_through_the_company_master_and_the_sources(world, tmp_path):
    f = Filings(tmp_path / "h")
    by_alias = f.fetch("金花股份", since="2025-10-01", forms="q3", dry_run=True)
    assert [(i.code, i.form) for i in items(by_alias, "planned")] == [("600080", "q3")]
    by_name = f.fetch("TENCENT", since="2026-08-01", forms="interim", dry_run=True)  # HKEX's own stock list
    assert [i.code for i in items(by_name, "planned")] == ["0700.HK"]
    both = f.fetch("药明康德", since="2025-01-01", forms="annual", dry_run=True)  # A + H listings of one company
    assert {l.code for l in both.listings} == {"603259"} and [i.query for i in both.failed] == ["药明康德"]
    assert "2359.HK" in both.failed[0].reason or "02359" in both.failed[0].reason


def test_hkex_answer_with_more_rows_is_asked_again_for_all(world, tmp_path):
    alco = world.hk["00328"]
    notices = [HkRow(f"118{n:05d}", "C", f"股息公告 {n}", dt.datetime(2025, 7, 1, 9) + dt.timedelta(days=n), b"",
                     "公告及通告 - [股息或分派]", 10000, -2, 3) for n in range(120)]
    world.hkex_company(HkCompany(alco.code5, alco.stock_id, alco.name, rows=alco.rows + notices))
    report = Filings(tmp_path / "h").fetch("0328.HK", since="2025-06-01", forms="results", languages="zh", dry_run=True)
    assert [i.source_id for i in items(report, "planned")] == ["hkex:11700001:zh"]  # the oldest of 121 rows
    servlet = [s for _t, _m, p, s in world.log if p == "/search/titleSearchServlet.do"]
    assert len(servlet) == 2  # rowRange 100, then every row


def test_annual_report_exhibit_and_amendment_are_recorded(world, tmp_path):
    """IBM's FY2024 10-K (the corpus file, with its schema and linkbases) filed with an EX-13, and a 10-K/A;
    the submissions JSON is built in the recorded shape (IBM's is not recorded)."""
    rows = [("0000051143-25-000015", "2025-02-25", "10-K", True), ("0000051143-25-000040", "2025-04-01", "10-K/A", False)]
    recent = {"accessionNumber": [r[0] for r in rows], "filingDate": [r[1] for r in rows],
              "reportDate": ["2024-12-31"] * 2, "form": [r[2] for r in rows], "items": [""] * 2,
              "primaryDocument": ["ibm-20241231.htm", "ibm-20241231a.htm"], "isInlineXBRL": [1, 1],
              "primaryDocDescription": ["10-K", "10-K/A"]}
    world.add_submissions(json.dumps({"cik": "0000051143", "name": "INTERNATIONAL BUSINESS MACHINES CORP",
                                      "tickers": ["IBM"], "fiscalYearEnd": "1231",
                                      "filings": {"recent": recent, "files": []}}).encode())
    world.sec_filings[(51143, "000005114325000015")]["x_ex13"] = True
    f = Filings(tmp_path / "h")
    report = f.fetch("IBM", since="2025-01-01", forms="annual")
    assert not report.failed
    manifest = {m["source_id"]: m for m in map(json.loads, (tmp_path / "h/cache/sec/IBM/documents.jsonl").read_text().splitlines())}
    ex13 = manifest["sec:0000051143-25-000015/ibm-20241231xex13.htm"]
    assert ex13["exhibit"] == "EX-13" and ex13["role"] == "document"
    assert manifest["sec:0000051143-25-000015"]["sha256"] == sha(world.ixbrl_corpus["ibm-20241231.htm"])
    assert manifest["sec:0000051143-25-000040"]["form"] == "10-K/A"
    assert manifest["sec:0000051143-25-000040"]["amends"] == "sec:0000051143-25-000015"


def test_a_part_file_left_by_a_killed_run_is_resumed(world, tmp_path):
    src = require_corpus("cn", "600080_jinhuagufen_2025_q3.pdf")
    folder = tmp_path / "h/cache/cninfo/600080"
    folder.mkdir(parents=True)
    (folder / "600080_2025_q3_1224888001.pdf.part").write_bytes(src.read_bytes()[:100_000])  # as kill -9 leaves it
    report = Filings(tmp_path / "h").fetch("600080", since="2025-10-01", forms="q3")
    [item] = items(report, "fetched")
    assert sha(tmp_path / "h" / item.file) == sha(src)
    assert [s for _t, _m, p, s in world.log if p == "/finalpage/2025-10-30/1224888001.PDF"] == [206]
    assert not list(folder.glob("*.part"))


def test_a_second_fetch_while_one_runs_is_refused_with_75(world, tmp_path):
    from warehouse.sources.cache import Cache

    home = tmp_path / "h"
    with Cache(home / "cache").lock():
        busy = CliRunner().invoke(app, ["fetch", "600080", "--forms", "q3", "--home", str(home)])
    assert busy.exit_code == 75 and "cache/.lock" in busy.output
    assert not [p for _t, _m, p, _s in world.log]  # nothing was requested
