"""`filings ask` latency per route on a warehouse (the full-corpus one: `filings ingest ../shared/corpus`).

    .venv/bin/python bench/ask_latency.py [--home DIR] [--repeat 3]

Questions are the eval suite's (router/eval_suite.jsonl), grouped by the route the router takes. The first
call of each route (model load, caches) is reported separately. Targets (issue 12) in the full shared store on
2 cores: p95 < 100 ms for the SQL route, < 300 ms for the search route; the mixed route runs both."""

from __future__ import annotations

import argparse
import logging
import time
from collections import defaultdict

from common import REPO, print_table

from filings import Filings
from router import evaluate


def main() -> None:
    logging.disable(logging.WARNING)
    ap = argparse.ArgumentParser()
    ap.add_argument("--home", default=str(REPO / ".bench" / "shared"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    cases = evaluate.load_suite()
    timings: dict[str, list[float]] = defaultdict(list)
    first: dict[str, float] = {}
    with Filings(args.home, read_only=True) as f:
        docs = f.con.execute("SELECT count(*) FROM documents").fetchone()[0]
        units = sum(f.index.engine.count(name) for _m, name in f.index.collections()) if f.index.exists() else 0
        print(f"warehouse {args.home}: {docs} documents, {units:,} search units")
        for rep in range(args.repeat):
            for case in cases:
                t0 = time.perf_counter()
                answer = f.ask(case["question"])
                dt = time.perf_counter() - t0
                if answer.route not in first:
                    first[answer.route] = dt
                    continue
                timings[answer.route].append(dt)
    rows = []
    for route, ts in sorted(timings.items()):
        ts.sort()
        rows.append([route, len(ts), f"{ts[len(ts) // 2] * 1000:.0f}", f"{ts[int(len(ts) * 0.95)] * 1000:.0f}",
                     f"{first[route] * 1000:.0f}"])
    print_table(["route", "asks", "p50 ms", "p95 ms", "first call ms"], rows, title="filings ask latency")


if __name__ == "__main__":
    main()
