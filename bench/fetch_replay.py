"""Figures for `filings fetch` / `filings update` against the loopback replay of SEC EDGAR, cninfo and
HKEXnews (tests/replay_world.py; never a real host).

    python bench/fetch_replay.py update      # first update of a 3-market watchlist, a second run, a correction
    python bench/fetch_replay.py kill [-n 5] # kill -9 of an update at random moments, then a completing run
    python bench/fetch_replay.py rate        # SEC requests per second seen by the server, per configured limit

Embeddings use the tests' hashing provider (the figures are about fetching and storing, not embedding).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import logging
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO))

import duckdb  # noqa: E402
from pytest_httpserver import HTTPServer  # noqa: E402

from conftest import corpus_root  # noqa: E402
from replay_world import CnRow, corpus_world  # noqa: E402

SINCE = "2025-04-01"
WATCHLIST = "code,market,forms\nAAPL,US,10-K;10-Q\n600080\n0328.HK\n"


def serve(world) -> HTTPServer:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request otherwise
    server = HTTPServer(host="127.0.0.1", port=0)
    server.expect_request(re.compile(".*")).respond_with_handler(world.handle)
    server.start()
    return server


def environment(url: str, home: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), FILINGS_HOME=str(home), FILINGS_SEC_USER_AGENT="Bench Analyst bench@example.com",
               FILINGS_CNINFO_RATE="50", FILINGS_HKEX_RATE="50", FILINGS_EMBED_MODELS="US=hashing,A=hashing,HK=hashing",
               FILINGS_FETCH_BACKOFF="0.2")
    for var in ("FILINGS_SEC_URL", "FILINGS_SEC_DATA_URL", "FILINGS_CNINFO_URL", "FILINGS_CNINFO_STATIC_URL", "FILINGS_HKEX_URL"):
        env[var] = url
    return env


def filings(env: dict[str, str], *args: str, group: bool = False) -> subprocess.Popen:
    """`filings ...` in a child process; ``group``: in a process group of its own (the update and its parse
    workers), so that kill -9 hits all of them, as a crash of the machine or of its service unit would."""
    return subprocess.Popen([sys.executable, "-m", "filings.cli", *args], env=env, cwd=REPO, start_new_session=group,
                            stdout=subprocess.DEVNULL if group else subprocess.PIPE,
                            stderr=subprocess.DEVNULL if group else subprocess.PIPE, text=True)


def run(env, *args) -> tuple[int, dict, float]:
    t0 = time.perf_counter()
    proc = filings(env, *args, "--json")
    out, err = proc.communicate()
    seconds = time.perf_counter() - t0
    try:
        return proc.returncode, json.loads(out), seconds
    except ValueError:
        return proc.returncode, {"error": err[-2000:]}, seconds


def snapshot(home: Path) -> dict:
    con = duckdb.connect(str(home / "warehouse.duckdb"), read_only=True)
    try:
        tables = ("documents", "pages", "facts", "document_metrics", "financial_metrics", "sections")
        counts = {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
        partial = con.execute("""
            SELECT d.doc_name FROM documents d LEFT JOIN (SELECT document_id, count(*) n FROM pages GROUP BY 1) p
            USING (document_id) LEFT JOIN (SELECT document_id, count(*) n FROM facts GROUP BY 1) f USING (document_id)
            WHERE coalesce(p.n, 0) <> d.pages OR coalesce(f.n, 0) <> d.facts""").fetchall()
        digest = hashlib.sha256(json.dumps(con.execute(
            "SELECT stock_code, fiscal_year, fiscal_period, metric_name, CAST(metric_value AS VARCHAR), document_id "
            "FROM financial_metrics ORDER BY ALL").fetchall(), default=str).encode()).hexdigest()[:16]
        return {"counts": counts, "partial_documents": [r[0] for r in partial], "metrics_digest": digest}
    finally:
        con.close()


def cache_problems(home: Path) -> list[str]:
    problems = []
    for manifest in (home / "cache").glob("*/*/documents.jsonl"):
        for line in manifest.read_text(encoding="utf-8").splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                problems.append(f"{manifest}: torn line")
                continue
            path = manifest.parent / entry["path"]
            if entry.get("duplicate_of"):
                continue
            if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != entry["sha256"]:
                problems.append(f"{path}: missing or not the recorded sha256")
    return problems


def cmd_update(_args) -> None:
    world = corpus_world(corpus_root())
    server = serve(world)
    home = Path(tempfile.mkdtemp(prefix="fetch-bench-"))
    wl = home / "watchlist.csv"
    wl.write_text(WATCHLIST, encoding="utf-8")
    env = environment(server.url_for("/").rstrip("/"), home)
    try:
        code, first, s1 = run(env, "update", str(wl), "--since", SINCE, "--lang", "en,zh")
        snap1 = snapshot(home)
        log_mark = len(world.log)
        code2, second, s2 = run(env, "update", str(wl), "--since", SINCE, "--lang", "en,zh")
        snap2 = snapshot(home)
        requests2 = [p for _t, _m, p, _s in world.log[log_mark:]]
        kinds2 = sorted({re.sub(r"CIK\d+", "CIK...", p) for p in requests2})
        print(f"first update: exit {code}, added {first.get('added')}, fetched {first.get('fetched')}, failed "
              f"{first.get('failed')}, {s1:.1f} s; documents per listing "
              f"{json.dumps(first.get('listed'))}; rows {snap1['counts']}")
        print(f"second update: exit {code2}, added {second.get('added')}, fetched {second.get('fetched')}, unchanged "
              f"{second.get('unchanged')}, {s2:.1f} s; rows unchanged: {snap1 == snap2}; requests "
              f"{len(requests2)} (listings only: {kinds2})")
        q1 = corpus_root() / "cn" / "600080_jinhuagufen_2025_q1.pdf"
        import pikepdf

        corrected = home / "corrected.pdf"
        with pikepdf.open(q1) as pdf:
            pdf.docinfo["/Title"] = "corrected"
            pdf.save(corrected)
        rows = [r for r in world.cn_rows["600080"]]
        rows.append(CnRow("1223300001", "金花股份2025年第一季度报告（更正后）", dt.date(2025, 5, 10), corrected, "category_yjdbg_szsh"))
        world.cninfo_company("600080", rows)
        code3, third, s3 = run(env, "update", str(wl), "--since", SINCE, "--lang", "en,zh")
        gone = [i for i in third.get("items", []) if i["status"] == "superseded"]
        new = [i for i in third.get("items", []) if i["status"] == "added"]
        con = duckdb.connect(str(home / "warehouse.duckdb"), read_only=True)
        q1_sources = con.execute("SELECT DISTINCT document_id FROM financial_metrics WHERE stock_code = '600080' AND "
                                 "fiscal_year = 2025 AND fiscal_period = 'Q1'").fetchall()
        con.close()
        print(f"correction: exit {code3}, added {[i['source_id'] for i in new]}, superseded "
              f"{[i['source_id'] for i in gone]}; 2025 Q1 metrics now from "
              f"{[r[0][:12] for r in q1_sources]} (corrected file {hashlib.sha256(corrected.read_bytes()).hexdigest()[:12]}), "
              f"{s3:.1f} s")
    finally:
        server.stop()


def cmd_kill(args) -> None:
    rng = random.Random(args.seed)
    world = corpus_world(corpus_root())
    server = serve(world)
    try:
        base = Path(tempfile.mkdtemp(prefix="fetch-kill-"))
        wl = base / "watchlist.csv"
        wl.write_text(WATCHLIST, encoding="utf-8")
        ref_home = base / "reference"
        env = environment(server.url_for("/").rstrip("/"), ref_home)
        code, ref, full = run(env, "update", str(wl), "--since", SINCE, "--lang", "en,zh")
        reference = snapshot(ref_home)
        print(f"reference run: exit {code}, added {ref.get('added')}, {full:.1f} s, rows {reference['counts']}")
        for trial in range(1, args.n + 1):
            home = base / f"trial{trial}"
            env = environment(server.url_for("/").rstrip("/"), home)
            at = rng.uniform(0.5, 0.9 * full)  # within the run, which varies with the machine's load
            proc = filings(env, "update", str(wl), "--since", SINCE, "--lang", "en,zh", group=True)
            time.sleep(at)
            alive = proc.poll() is None
            if alive:
                os.killpg(proc.pid, signal.SIGKILL)  # the update and its parse workers (its own process group)
            proc.wait()
            parts = [p.name for p in (home / "cache").rglob("*.part")] if (home / "cache").exists() else []
            after_kill = snapshot(home) if (home / "warehouse.duckdb").exists() else {"counts": {}, "partial_documents": []}
            code, done, _s = run(env, "update", str(wl), "--since", SINCE, "--lang", "en,zh")
            final = snapshot(home)
            print(f"trial {trial}: kill -9 at {at:.1f} s ({'killed' if alive else 'had finished'}); after the kill: "
                  f"{after_kill['counts'].get('documents', 0)} documents, partial documents "
                  f"{after_kill['partial_documents']}, .part files {parts}; next update: exit {code}, added "
                  f"{done.get('added')}, unchanged {done.get('unchanged')}, indexed {done.get('indexed_left_over')} "
                  f"left unindexed by the killed run; final rows equal the reference: "
                  f"{final['counts'] == reference['counts'] and final['metrics_digest'] == reference['metrics_digest']}; "
                  f"cache problems {cache_problems(home)}")
    finally:
        server.stop()


def cmd_rate(args) -> None:
    for rate in args.rates:
        world = corpus_world(corpus_root())
        server = serve(world)
        home = Path(tempfile.mkdtemp(prefix="fetch-rate-"))
        env = environment(server.url_for("/").rstrip("/"), home)
        env["FILINGS_SEC_RATE"] = str(rate)
        try:
            code, report, seconds = run(env, "fetch", "NVDA", "AAPL", "--since", "2023-01-01", "--forms", "10-Q,8-K")
            times = world.sec_times()
            busiest = max(sum(1 for u in times if t <= u < t + 1.0) for t in times)
            span = times[-1] - times[0]
            print(f"SEC limit {rate}/s: {len(times)} requests over {span:.1f} s (mean {len(times) / span:.2f}/s), "
                  f"busiest 1-second window {busiest} requests; fetch exit {code}, fetched {report.get('fetched')}")
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("update")
    k = sub.add_parser("kill")
    k.add_argument("-n", type=int, default=5)
    k.add_argument("--seed", type=int, default=13)
    r = sub.add_parser("rate")
    r.add_argument("--rates", type=float, nargs="+", default=[10.0, 5.0])
    args = parser.parse_args()
    {"update": cmd_update, "kill": cmd_kill, "rate": cmd_rate}[args.cmd](args)


if __name__ == "__main__":
    main()
