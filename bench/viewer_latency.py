"""`filings serve` latency over HTTP on a warehouse (the full shared store: a home built with
`filings ingest ../shared/corpus`): p50 / p95 of `/api/ask` by route, and of a page render (the page HTML
with a highlight span plus its PNG for PDFs; the inline-XBRL page HTML), cold (viewer cache emptied, first
view of the document) and cached. Targets on 2 cores: page render < 300 ms cached, < 1 s cold.

    .venv/bin/python bench/viewer_latency.py --home DIR [--questions 60] [--pages 40]

A real `filings serve` subprocess answers; the bench is its only client (requests one at a time). Questions
are the eval suite's (router/eval_suite.jsonl), taken round-robin over its categories; pages are a seeded sample of the stored PDF and iXBRL pages.
The viewer cache of the home is emptied first (it is a cache: the viewer rebuilds it)."""

from __future__ import annotations

import argparse
import os
import random
import shutil
import socket
import subprocess
import sys
import time
from collections import defaultdict

import httpx
from common import REPO, print_table

from router import evaluate
from warehouse import store


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] * 1000 if values else float("nan")


def _serve(home: str) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "filings.cli", "serve", "--home", home, "--port", str(port)],
                            cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            httpx.get(base + "/style.css", timeout=5)
            return proc, base
        except httpx.HTTPError:
            time.sleep(0.5)
    proc.kill()
    sys.exit("filings serve did not start")


def _sample_pages(home: str, n: int, seed: int = 7) -> list[tuple[str, str, int, int]]:
    """(kind, document_id, page, text length) of a seeded sample of non-empty PDF and iXBRL pages."""
    con = store.connect(home, read_only=True)
    try:
        rows = con.execute(
            "SELECT CASE WHEN lower(d.file_name) LIKE '%.pdf' THEN 'pdf' ELSE 'ixbrl' END, p.document_id, p.page, "
            "length(p.text) FROM pages p JOIN documents d USING (document_id) WHERE length(p.text) > 400 "
            "AND (lower(d.file_name) LIKE '%.pdf' OR lower(d.file_name) LIKE '%.htm') AND NOT p.ocr").fetchall()
    finally:
        con.close()
    rng = random.Random(seed)
    pdf = [r for r in rows if r[0] == "pdf"]
    html = [r for r in rows if r[0] == "ixbrl"]
    n_html = min(len(html), max(1, n // 4))
    return rng.sample(pdf, min(len(pdf), n - n_html)) + rng.sample(html, n_html)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--home", required=True)
    ap.add_argument("--questions", type=int, default=60, help="eval-suite questions asked (0: skip /api/ask)")
    ap.add_argument("--pages", type=int, default=40, help="pages rendered cold then cached")
    args = ap.parse_args()
    shutil.rmtree(os.path.join(args.home, "viewer-cache"), ignore_errors=True)
    proc, base = _serve(args.home)
    try:
        with httpx.Client(base_url=base, timeout=600) as http:
            t0 = time.perf_counter()
            http.get("/api/ask", params={"q": "warm-up: Apple revenue 2024"})
            print(f"first /api/ask (loads the router): {(time.perf_counter() - t0) * 1000:.0f} ms")
            by_route: dict[str, list[float]] = defaultdict(list)
            by_category: dict[str, list[dict]] = defaultdict(list)
            for case in evaluate.load_suite():
                by_category[case.get("category") or ""].append(case)
            cases = []  # round-robin over the suite's categories, so every route gets questions
            while len(cases) < args.questions and any(by_category.values()):
                for group in by_category.values():
                    if group and len(cases) < args.questions:
                        cases.append(group.pop(0))
            for case in cases:
                t0 = time.perf_counter()
                r = http.get("/api/ask", params={"q": case["question"]})
                dt = time.perf_counter() - t0
                if r.status_code == 200:
                    by_route[r.json()["route"]].append(dt)
            rows = [[route, len(ts), f"{_pct(ts, 0.5):.0f}", f"{_pct(ts, 0.95):.0f}", f"{max(ts) * 1000:.0f}"]
                    for route, ts in sorted(by_route.items())]
            print_table(["route", "asks", "p50 ms", "p95 ms", "max ms"], rows, title="/api/ask latency by route")

            timings: dict[str, list[float]] = defaultdict(list)
            pages = _sample_pages(args.home, args.pages)
            seen_docs: set[str] = set()
            for state in ("cold", "cached"):
                for kind, document_id, page, length in pages:
                    span = f"{length // 4}-{length // 4 + 200}"
                    t0 = time.perf_counter()
                    r = http.get(f"/doc/{document_id}/page/{page}", params={"s": span})
                    assert r.status_code == 200, (document_id, page, r.status_code)
                    if kind == "pdf":
                        assert http.get(f"/doc/{document_id}/page/{page}.png").status_code == 200
                    dt = time.perf_counter() - t0
                    label = kind
                    if state == "cold" and kind == "ixbrl":
                        label = "ixbrl, first page of a document" if document_id not in seen_docs else "ixbrl"
                        seen_docs.add(document_id)
                    timings[f"{state}: {label}"].append(dt)
            rows = [[name, len(ts), f"{_pct(ts, 0.5):.0f}", f"{_pct(ts, 0.95):.0f}", f"{max(ts) * 1000:.0f}"]
                    for name, ts in timings.items()]
            print_table(["page render (html + png)", "pages", "p50 ms", "p95 ms", "max ms"], rows,
                        title="page render latency (targets: cached < 300 ms, cold < 1 s)")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
